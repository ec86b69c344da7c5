import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleDir } from '../src/generate/sample.ts';
import type { OrganizationListing } from '../src/engine/organizations.ts';
import { aeaBin, aeaInProcess } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';

let state: string;
let orgs: OrganizationListing[];
beforeAll(async () => {
  state = join(await tempDir(), 'state.duckdb');
  orgs = JSON.parse((await aeaInProcess(['orgs', '--data', sampleDir])).stdout) as OrganizationListing[];
});

describe('aea keys and aea serve', () => {
  it('creates a key once, lists it without the secret, refuses bad names and missing expiry, revokes', async () => {
    const created = await aeaInProcess([
      'keys',
      'create',
      '--org',
      orgs[0]!.id,
      '--name',
      'analytics bot',
      '--expires',
      '2099-01-31',
      '--data',
      sampleDir,
      '--state',
      state,
    ]);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout.slice(0, created.stdout.lastIndexOf('}') + 1)) as {
      id: string;
      key: string;
      prefix: string;
    };
    expect(key.key).toMatch(/^aea_[A-Za-z0-9_-]{43}$/);
    const listed = await aeaInProcess(['keys', 'list', '--data', sampleDir, '--state', state]);
    expect(listed.stdout).not.toContain(key.key);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        id: key.id,
        name: 'analytics bot',
        prefix: key.prefix,
        expires_on: '2099-01-31',
        revoked_at: null,
      }),
    ]);
    const short = await aeaInProcess([
      'keys',
      'create',
      '--org',
      orgs[0]!.id,
      '--name',
      'ab',
      '--expires',
      '2099-01-31',
      '--data',
      sampleDir,
      '--state',
      state,
    ]);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('more than two characters');
    const noExpiry = await aeaInProcess([
      'keys',
      'create',
      '--org',
      orgs[0]!.id,
      '--name',
      'no expiry',
      '--data',
      sampleDir,
      '--state',
      state,
    ]);
    expect(noExpiry.code).toBe(1);
    expect(noExpiry.stderr).toContain('--expires is required');
    const revoked = await aeaInProcess(['keys', 'revoke', key.id, '--data', sampleDir, '--state', state]);
    expect(JSON.parse(revoked.stdout).revoked_at).not.toBeNull();
  });

  it('serves the API with a key made by `aea keys create`', async () => {
    const created = await aeaInProcess([
      'keys',
      'create',
      '--org',
      orgs[0]!.id,
      '--name',
      'serve test',
      '--expires',
      '2099-01-31',
      '--data',
      sampleDir,
      '--state',
      state,
    ]);
    const { key } = JSON.parse(created.stdout.slice(0, created.stdout.lastIndexOf('}') + 1)) as { key: string };
    const child = spawn(
      process.execPath,
      [aeaBin, 'serve', '--data', sampleDir, '--state', state, '--port', '0', '--quiet'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /on (http:\/\/[^;\s]+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const body = {
        category_id: orgs[0]!.categories[0]!.id,
        start_date: '2026-10-01',
        end_date: '2026-10-31',
        limit: 1,
      };
      const r = await fetch(`${address}/v2/reports/visibility`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(r.status).toBe(200);
      expect(((await r.json()) as { info: { count: number } }).info.count).toBe(1);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
    }
  });

  it('keeps the failed-authentication limit with --rate-limit 0 (`--failed-auth-limit N` sets it)', async () => {
    const child = spawn(
      process.execPath,
      [
        aeaBin,
        'serve',
        '--data',
        sampleDir,
        '--state',
        state,
        '--port',
        '0',
        '--quiet',
        '--rate-limit',
        '0',
        '--failed-auth-limit',
        '1',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /on (http:\/\/[^;\s]+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const statuses = [];
      for (let i = 0; i < 2; i++)
        statuses.push((await fetch(`${address}/v1/org`, { headers: { 'x-api-key': `aea_guess${i}` } })).status);
      expect(statuses).toEqual([401, 429]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
    }
  });
});
