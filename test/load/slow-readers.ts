import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tempFolderSync } from '../../src/engine/temp-paths.ts';
import { openEngine } from '../../src/open-engine.ts';
import { ApiKeys } from '../../src/state/api-keys.ts';

/**
 * `npx tsx test/load/slow-readers.ts --data DIR [--readers 1] [--seconds 10] [--memory-limit 1GB] [--aea PATH]`:
 * `aea serve` in a child process, N readers of /v2/prompts/answers/stream (the whole window) on N keys,
 * each reading 5 KB/s; prints the server's RSS at start, its peak, when the readers leave and 10 s later.
 */
const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    readers: { type: 'string' },
    seconds: { type: 'string' },
    'memory-limit': { type: 'string' },
    aea: { type: 'string' },
  },
});
const data = values.data!;
const readers = Number(values.readers ?? 1);
const seconds = Number(values.seconds ?? 10);
const aea = values.aea ?? new URL('../../src/cli/aea.mjs', import.meta.url).pathname;
const state = join(tempFolderSync('slowrun'), 'state.duckdb');

const setup = await openEngine({ data, state });
const [org] = await setup.listOrganizations();
const keys: string[] = [];
for (let i = 0; i < readers; i++)
  keys.push(
    (
      await ApiKeys.of(setup.core.state).create({
        organizationId: org!.id,
        name: `slow ${i}`,
        expiresOn: '2099-12-31',
        now: new Date(),
      })
    ).key,
  );
const category = org!.categories[0]!.id;
await setup.close();

const args = [
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
  ...(values['memory-limit'] ? ['--memory-limit', values['memory-limit']] : []),
];
const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((resolve, reject) => {
  child.stdout.on('data', (b: Buffer) => {
    const m = /on (http:\/\/[^\s;]+)/.exec(b.toString());
    if (m) resolve(m[1]!);
  });
  child.on('exit', (code) => reject(new Error(`aea serve exited ${code}`)));
});
const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
const base = rssMiB();
let peak = base;
const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 200);

const body = JSON.stringify({ category_id: category, start_date: '2025-10-01', end_date: '2026-11-15' });
let received = 0;
const open = keys.map(
  (key) =>
    new Promise<() => void>((resolve) => {
      const req = request(
        `${url}/v2/prompts/answers/stream`,
        { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' } },
        (res) => {
          // 5 KB/s: read a 5 KB slice, then pause for the rest of the second.
          let slice = 0;
          res.on('data', (c: Buffer) => {
            received += c.length;
            slice += c.length;
            if (slice >= 5_000) {
              slice = 0;
              res.pause();
              setTimeout(() => res.resume(), 1000);
            }
          });
          resolve(() => req.destroy());
        },
      );
      req.on('error', () => undefined);
      req.end(body);
    }),
);
const leave = await Promise.all(open);
await new Promise((r) => setTimeout(r, seconds * 1000));
const during = rssMiB();
for (const l of leave) l();
await new Promise((r) => setTimeout(r, 10_000));
clearInterval(sampler);
const after = rssMiB();
child.kill('SIGTERM');
const round = (n: number) => Math.round(n);
process.stdout.write(
  JSON.stringify({
    readers,
    seconds,
    memory_limit: values['memory-limit'] ?? null,
    received_kb: round(received / 1000),
    rss_mib: { base: round(base), peak: round(peak), at_leave: round(during), ten_s_after: round(after) },
  }) + '\n',
);
