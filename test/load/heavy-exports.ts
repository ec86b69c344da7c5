import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tempFolderSync } from '../../src/engine/temp-paths.ts';
import { ensureSample } from '../../src/generate/sample.ts';
import { openEngine } from '../../src/open-engine.ts';
import { ApiKeys } from '../../src/state/api-keys.ts';
import { lightClient } from './light-client.ts';

/**
 * Concurrent heavy exports (issue 28): `aea serve` in its own process under `--memory-limit`, with TMPDIR a
 * fresh folder of its own; `--exports` clients (16, the process's stream bound), each on its own key, each
 * exporting a v2 report stream over three years with fill and compare (and components where the report takes
 * them), four reports and formats in turn (Parquet,
 * Arrow, CSV, NDJSON), repeated until `--seconds` pass. Meanwhile one light client, in a process of its own, calls GET /v1/org/models
 * every 50 ms. Sampled every 250 ms: the server's RSS, its RSS less Node's committed heap (from `--trace-gc`),
 * and the bytes under its TMPDIR. Prints one JSON line.
 *
 *   npx tsx test/load/heavy-exports.ts [--data DIR] [--exports 16] [--seconds 60] [--memory-limit 1GB] [--backend chdb] [--cpu-prof-dir DIR]
 */
const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    exports: { type: 'string' },
    seconds: { type: 'string' },
    'memory-limit': { type: 'string' },
    backend: { type: 'string' },
    'cpu-prof-dir': { type: 'string' },
  },
});
const data = values.data ?? (await ensureSample());
const exportsAtOnce = Number(values.exports ?? 16);
const seconds = Number(values.seconds ?? 60);
const memoryLimit = values['memory-limit'] ?? '1GB';
const folder = tempFolderSync('heavyexports');
const tmp = join(folder, 'tmp');
const state = join(folder, 'state.duckdb');
mkdirSync(tmp);

const setup = await openEngine({ data, state });
const [org] = await setup.listOrganizations();
const keys: string[] = [];
for (let i = 0; i <= exportsAtOnce; i++)
  keys.push(
    (
      await ApiKeys.of(setup.core.state).create({
        organizationId: org!.id,
        name: `export ${i}`,
        expiresOn: '2099-12-31',
        now: new Date(),
      })
    ).key,
  );
const category = org!.categories[0]!.id;
await setup.close();

const aea = new URL('../../src/cli/aea.mjs', import.meta.url).pathname;
const backend = values.backend ? ['--backend', values.backend] : [];
const profile = values['cpu-prof-dir'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof-dir']}`] : [];
// The server's heap after each collection, from V8's own trace: how much of its RSS is Node's heap.
const args = [
  ...profile,
  '--trace-gc',
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
  '--quiet',
  '--memory-limit',
  memoryLimit,
  ...backend,
];
const child = spawn(process.execPath, args, {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, TMPDIR: tmp },
});
/** Node's committed heap (MiB) as of the server's last collection. */
let heapMiB = 0;
const url = await new Promise<string>((resolve, reject) => {
  child.stdout.on('data', (b: Buffer) => {
    const text = b.toString();
    for (const gc of text.matchAll(/-> [\d.]+ \(([\d.]+)\) MB/g)) heapMiB = Number(gc[1]);
    const m = /on (http:\/\/[^\s;]+)/.exec(text);
    if (m) resolve(m[1]!);
  });
  child.on('exit', (code) => reject(new Error(`aea serve exited ${code}`)));
});

const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
/** Bytes under a folder (tsx's compile cache, which the server run from the sources keeps there, aside); files vanish while it walks (exports finish), which counts them as gone. */
function bytesUnder(dir: string): number {
  let sum = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir).filter((name) => !name.startsWith('tsx-'));
  } catch {
    return 0;
  }
  for (const name of entries) {
    const path = join(dir, name);
    try {
      const st = statSync(path);
      sum += st.isDirectory() ? bytesUnder(path) : st.size;
    } catch {
      // removed meanwhile
    }
  }
  return sum;
}

const rssStart = rssMiB();
const heapAtStart = heapMiB;
let rssPeak = rssStart;
let heapPeak = heapMiB;
let rssLessHeapPeak = rssStart - heapMiB;
let tempPeak = 0;
const sampler = setInterval(() => {
  const rss = rssMiB();
  rssPeak = Math.max(rssPeak, rss);
  heapPeak = Math.max(heapPeak, heapMiB);
  rssLessHeapPeak = Math.max(rssLessHeapPeak, rss - heapMiB);
  tempPeak = Math.max(tempPeak, bytesUnder(tmp));
}, 250);

const reports = ['visibility', 'citations', 'query-fanouts', 'shopping/products'];
/** Components where the report takes them with this grouping; fill and compare everywhere. */
const components = new Set(['visibility', 'query-fanouts']);
const formats = ['parquet', 'arrow', 'csv', 'ndjson'];
const window = { category_id: category, start_date: '2023-11-20', end_date: '2026-11-20' };
const bodies: Record<string, object> = {
  visibility: { ...window, scope: 'all', group_by: ['date', 'model', 'prompt'] },
  citations: { ...window, group_by: ['date', 'model'] },
  'query-fanouts': { ...window, group_by: ['date', 'model'] },
  'shopping/products': { ...window, group_by: ['date', 'prompt'] },
};
const body = (report: string) => JSON.stringify(bodies[report]);
const outcomes: { report: string; format: string; status: number; mib: number; seconds: number }[] = [];
let stop = false;
const refusals = new Set<string>();
const started = Date.now();
const exporters = keys.slice(1).map(async (key, i) => {
  for (let round = 0; !stop; round++) {
    const report = reports[i % reports.length]!;
    const format = formats[(i + round) % formats.length]!;
    const t = performance.now();
    try {
      const r = await fetch(
        `${url}/v2/reports/${report}/stream?format=${format}&fill=zero&compare=previous_period${components.has(report) ? '&components=true' : ''}`,
        {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: body(report),
        },
      );
      if (r.status !== 200 && !refusals.has(`${report} ${r.status}`)) {
        refusals.add(`${report} ${r.status}`);
        process.stderr.write(`export ${report} ${format}: ${r.status} ${(await r.clone().text()).slice(0, 300)}\n`);
      }
      let bytes = 0;
      for await (const chunk of r.body as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
      outcomes.push({
        report,
        format,
        status: r.status,
        mib: +(bytes / 2 ** 20).toFixed(2),
        seconds: +((performance.now() - t) / 1000).toFixed(1),
      });
    } catch (error) {
      outcomes.push({ report, format, status: 0, mib: 0, seconds: +((performance.now() - t) / 1000).toFixed(1) });
      process.stderr.write(`export ${report} ${format}: ${(error as Error).message}\n`);
    }
  }
});
await new Promise((r) => setTimeout(r, 1000));
const light = await lightClient(`${url}/v1/org/models`, keys[0]!, seconds - 1);
stop = true;
await Promise.all(exporters);
clearInterval(sampler);
const rssEnd = rssMiB();
const tempAfter = bytesUnder(tmp);
const leftInTemp = readdirSync(tmp).filter((name) => !name.startsWith('tsx-'));
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
rmSync(folder, { recursive: true, force: true });

const byStatus: Record<string, number> = {};
for (const o of outcomes) byStatus[`${o.format} ${o.status}`] = (byStatus[`${o.format} ${o.status}`] ?? 0) + 1;
const slowest = outcomes.reduce((m, o) => Math.max(m, o.seconds), 0);
process.stdout.write(
  JSON.stringify({
    backend: values.backend ?? 'duckdb',
    memoryLimit,
    exportsAtOnce,
    seconds: +((Date.now() - started) / 1000).toFixed(1),
    loadAverage: loadavg().map((x) => +x.toFixed(1)),
    exports: outcomes.length,
    byStatus,
    exportedMiB: +outcomes.reduce((s, o) => s + o.mib, 0).toFixed(1),
    slowestExportSeconds: slowest,
    rssMiB: { start: Math.round(rssStart), peak: Math.round(rssPeak), end: Math.round(rssEnd) },
    heapMiB: { start: Math.round(heapAtStart), peak: Math.round(heapPeak) },
    rssLessHeapPeakMiB: Math.round(rssLessHeapPeak),
    tempPeakMiB: +(tempPeak / 2 ** 20).toFixed(1),
    tempAfterMiB: +(tempAfter / 2 ** 20).toFixed(2),
    leftInTemp,
    light,
  }) + '\n',
);
