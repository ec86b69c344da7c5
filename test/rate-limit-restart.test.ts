import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { ApiKeys } from '../src/state/api-keys.ts';
import { aeaBin } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';

interface Served {
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
}

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** A real `aea serve` process over the sample, allowing 2 requests per key per hour. */
async function serve(state: string): Promise<Served> {
  const child = spawn(
    process.execPath,
    [aeaBin, 'serve', '--data', sampleDir, '--state', state, '--port', '0', '--rate-limit', '2', '--quiet'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /on (http:\/\/[^\s;]+)/.exec(d.toString());
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`aea serve exited ${code}: ${stderr}`)));
  });
  return { url, child, exited };
}

const models = async (s: Served, key: string) => {
  const r = await fetch(`${s.url}/v1/org/models`, { headers: { 'x-api-key': key } });
  await r.arrayBuffer();
  return { status: r.status, remaining: r.headers.get('x-ratelimit-remaining') };
};

describe('rate-limit windows across a restart', () => {
  it('a key that was refused stays refused, and counts carry on, after a clean stop and after a SIGKILL', async () => {
    const state = join(await tempDir(), 'state.duckdb');
    const setup = await openEngine({ data: sampleDir, state });
    const org = setup.organizations[0]!.id;
    const make = async (name: string) =>
      (
        await ApiKeys.of(setup.core.state).create({
          organizationId: org,
          name,
          expiresOn: '2099-12-31',
          now: new Date(),
        })
      ).key;
    const [limited, counted, crashed] = [
      await make('limited key'),
      await make('counted key'),
      await make('crashed key'),
    ];
    await setup.close();

    const first = await serve(state);
    expect(
      (await Promise.all([models(first, limited), models(first, limited), models(first, limited)]))
        .map((r) => r.status)
        .sort(),
    ).toEqual([200, 200, 429]);
    expect(await models(first, counted)).toEqual({ status: 200, remaining: '1' });
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await serve(state);
    expect(await models(second, limited)).toEqual({ status: 429, remaining: '0' });
    expect(await models(second, counted)).toEqual({ status: 200, remaining: '0' });
    expect((await models(second, counted)).status).toBe(429);
    expect((await models(second, crashed)).status).toBe(200);
    expect((await models(second, crashed)).status).toBe(200);
    expect((await models(second, crashed)).status).toBe(429);
    second.child.kill('SIGKILL');
    await second.exited;

    const third = await serve(state);
    expect(await models(third, crashed)).toEqual({ status: 429, remaining: '0' });
    expect((await models(third, limited)).status).toBe(429);
    expect((await models(third, counted)).status).toBe(429);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  });
});
