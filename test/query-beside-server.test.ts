import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrganizationListing } from '../src/engine/organizations.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { aea, aeaBin, aeaInProcess } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';

let state: string;
let org: OrganizationListing;
let key: string;
let server: ChildProcess | undefined;
let address: string;

const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;
const promptsPath = () => `/v1/org/categories/${org.categories[0]!.id}/prompts`;

function serve(): Promise<string> {
  server = spawn(process.execPath, [aeaBin, 'serve', '--data', sampleDir, '--state', state, '--port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    server!.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /on (http:\/\/[^;\s]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    server!.on('exit', (code) => reject(new Error(`aea serve exited ${code}`)));
  });
}

async function stop(): Promise<void> {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server!.on('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  state = join(await tempDir('aea-beside-'), 'state.duckdb');
  org = (JSON.parse((await aeaInProcess(['orgs', '--data', sampleDir])).stdout) as OrganizationListing[])[0]!;
  const created = await aeaInProcess([
    'keys',
    'create',
    '--org',
    org.id,
    '--name',
    'beside the server',
    '--expires',
    '2099-01-31',
    '--data',
    sampleDir,
    '--state',
    state,
  ]);
  key = (JSON.parse(created.stdout.slice(0, created.stdout.lastIndexOf('}') + 1)) as { key: string }).key;
  address = await serve();
}, 120_000);
afterAll(stop);

const http = (path: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${address}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe('aea query while aea serve holds the state store', () => {
  it('answers from a read-only snapshot that holds the server’s latest edit, exactly as the server answers', async () => {
    const listed = (await (await http(`${promptsPath()}?limit=1`)).json()) as { data: { id: string }[] };
    const prompt = listed.data[0]!.id;
    const edited = await http(promptsPath(), {
      method: 'PATCH',
      body: { prompts: [{ id: prompt, tags: ['edited beside the server'] }] },
    });
    expect(edited.status).toBe(200);

    const read = await aea([
      'query',
      `${promptsPath()}?limit=1`,
      '--data',
      sampleDir,
      '--org',
      org.id,
      '--state',
      state,
    ]);
    expect(read.code).toBe(0);
    expect(read.stderr).toContain(
      'is held by another process (such as aea serve): answering from a read-only snapshot',
    );
    const row = (json(read.stdout).data as { id: string; tags: { name: string }[] }[])[0]!;
    expect(row.id).toBe(prompt);
    expect(row.tags.map((t) => t.name)).toContain('edited beside the server');

    const body = {
      category_id: org.categories[0]!.id,
      start_date: '2026-10-01',
      end_date: '2026-10-31',
      scope: 'all',
      limit: 3,
      filter: { field: 'tag', op: 'is', value: 'edited beside the server' },
    };
    const report = await aea([
      'query',
      '/v2/reports/visibility',
      '--data',
      sampleDir,
      '--org',
      org.id,
      '--state',
      state,
      '--body',
      JSON.stringify(body),
    ]);
    expect(report.code).toBe(0);
    expect(json(report.stdout)).toEqual(await (await http('/v2/reports/visibility', { method: 'POST', body })).json());
  });

  it('refuses a change, which is left for the server to make', async () => {
    const listed = (await (await http(`${promptsPath()}?limit=1`)).json()) as {
      data: { id: string; tags: { name: string }[] }[];
    };
    const prompt = listed.data[0]!;
    const patch = JSON.stringify({ prompts: [{ id: prompt.id, tags: ['lost in a snapshot'] }] });
    const write = await aea([
      'query',
      promptsPath(),
      '--method',
      'PATCH',
      '--data',
      sampleDir,
      '--org',
      org.id,
      '--state',
      state,
      '--body',
      patch,
    ]);
    expect(write.code).toBe(1);
    expect(json(write.stdout)).toEqual({
      code: 'unavailable',
      detail: expect.stringContaining('is a read-only snapshot of it: nothing was changed'),
    });
    const after = (await (await http(`${promptsPath()}?limit=1`)).json()) as { data: { tags: { name: string }[] }[] };
    expect(after.data[0]!.tags).toEqual(prompt.tags);
  });

  it('searches a knowledge base from the snapshot (a search only reads), as the server answers', async () => {
    const listed = await aea(['query', '/v1/knowledge-bases', '--data', sampleDir, '--org', org.id, '--state', state]);
    expect(listed.code).toBe(0);
    const kb = (json(listed.stdout).data as { id: string }[])[0]!.id;
    const body = { query: 'lifetime warranty brands', top_k: 3 };
    const searched = await aea([
      'query',
      `/v1/knowledge-bases/${kb}/search`,
      '--method',
      'POST',
      '--data',
      sampleDir,
      '--org',
      org.id,
      '--state',
      state,
      '--body',
      JSON.stringify(body),
    ]);
    expect(searched.code).toBe(0);
    const answer = json(searched.stdout);
    expect((answer.data as unknown[]).length).toBeGreaterThan(0);
    expect(answer).toEqual(await (await http(`/v1/knowledge-bases/${kb}/search`, { method: 'POST', body })).json());
  });

  it('lists keys beside the server, and refuses to create or revoke one at once, saying why', async () => {
    const listed = await aea(['keys', 'list', '--data', sampleDir, '--state', state]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ name: 'beside the server', organization_id: org.id }),
    ]);
    const created = await aea([
      'keys',
      'create',
      '--org',
      org.id,
      '--name',
      'while serving',
      '--expires',
      '2099-01-31',
      '--data',
      sampleDir,
      '--state',
      state,
    ]);
    expect(created.code).toBe(1);
    expect(created.stderr).toContain('is held by another process (such as aea serve): stop it to create keys');
    const revoked = await aea(['keys', 'revoke', 'nope', '--data', sampleDir, '--state', state]);
    expect(revoked.stderr).toContain('stop it to revoke keys');
  });

  it('opens the store for writing again once the server has stopped', async () => {
    await stop();
    const read = await aea([
      'query',
      `${promptsPath()}?limit=1`,
      '--data',
      sampleDir,
      '--org',
      org.id,
      '--state',
      state,
    ]);
    expect(read.code).toBe(0);
    expect(read.stderr).toBe('');
    expect((json(read.stdout).data as { tags: { name: string }[] }[])[0]!.tags.map((t) => t.name)).toContain(
      'edited beside the server',
    );
  });
});
