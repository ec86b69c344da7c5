import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tempFolderSync } from '../../src/engine/temp-paths.ts';
import { openEngine } from '../../src/open-engine.ts';
import { ApiKeys } from '../../src/state/api-keys.ts';
import { lightClient } from './light-client.ts';

/**
 * `npx tsx test/load/mixed-load.ts --data DIR [--heavy 6] [--seconds 20] [--aea PATH]`: `aea serve` in
 * a child process, `--heavy` concurrent heavy reports (visibility over the whole window grouped by all
 * six dimensions, each on its own key, each repeated as soon as it answers) and one light client, in a
 * process of its own, calling GET /v1/org/models every 50 ms; prints the light requests' latency percentiles.
 */
const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    heavy: { type: 'string' },
    seconds: { type: 'string' },
    aea: { type: 'string' },
  },
});
const data = values.data!;
const heavy = Number(values.heavy ?? 6);
const seconds = Number(values.seconds ?? 20);
const aea = values.aea ?? new URL('../../src/cli/aea.mjs', import.meta.url).pathname;
const state = join(tempFolderSync('mixedrun'), 'state.duckdb');

const setup = await openEngine({ data, state });
const [org] = await setup.listOrganizations();
const keys = [];
for (let i = 0; i <= heavy; i++)
  keys.push(
    (
      await ApiKeys.of(setup.core.state).create({
        organizationId: org!.id,
        name: `mixed ${i}`,
        expiresOn: '2099-12-31',
        now: new Date(),
      })
    ).key,
  );
const category = org!.categories[0]!.id;
await setup.close();

const child = spawn(
  process.execPath,
  [
    aea,
    'serve',
    '--data',
    data,
    '--state',
    state,
    '--port',
    '0',
    '--rate-limit',
    '0',
    '--result-cache',
    '0',
    '--quiet',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const url = await new Promise<string>((resolve, reject) => {
  child.stdout.on('data', (b: Buffer) => {
    const m = /on (http:\/\/[^\s;]+)/.exec(b.toString());
    if (m) resolve(m[1]!);
  });
  child.on('exit', (code) => reject(new Error(`aea serve exited ${code}`)));
});

const heavyBody = JSON.stringify({
  category_id: category,
  start_date: '2025-10-01',
  end_date: '2026-11-15',
  scope: 'all',
  group_by: ['date', 'model', 'topic', 'region', 'prompt', 'persona'],
  limit: 50,
});
let stop = false;
const heavyStatus: Record<number, number> = {};
const heavyLoops = keys.slice(1).map(async (key) => {
  while (!stop) {
    const r = await fetch(`${url}/v2/reports/visibility`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: heavyBody,
    });
    const text = await r.text();
    if (r.status !== 200 && !heavyStatus[r.status]) process.stderr.write(`heavy ${r.status}: ${text.slice(0, 300)}\n`);
    heavyStatus[r.status] = (heavyStatus[r.status] ?? 0) + 1;
  }
});
await new Promise((r) => setTimeout(r, 1000));
const light = await lightClient(`${url}/v1/org/models`, keys[0]!, seconds);
stop = true;
await Promise.all(heavyLoops);
child.kill('SIGTERM');
process.stdout.write(
  JSON.stringify({
    heavy,
    seconds,
    light_requests: light.requests,
    light_status: light.status,
    p50_ms: light.p50_ms,
    p99_ms: light.p99_ms,
    max_ms: light.max_ms,
    heavy_status: heavyStatus,
  }) + '\n',
);
