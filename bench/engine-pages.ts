/**
 * The engine alone at a scale whose floors take hours to build (issue 27, scale 100): open time, every
 * report's 7-, 30- and 365-day first page (p50 over iterations that rotate categories and windows, as
 * `aea bench` does) and one stream of each report, with the process's peak RSS. The engine reads the
 * rollups stored beside `--state` (built by `aea rollups build`), as a restarted server does.
 *
 *   node --expose-gc --import tsx bench/engine-pages.ts --data bench/data/scale-100 \
 *     --state bench/data/scale-100.state.duckdb [--only REPORT]... [--iterations N] [--no-streams] [--memory-limit 12GB]
 *
 * No answer is checked against a floor here: `aea bench` does that at scales 1 and 10 over the same requests.
 */
import { parseArgs } from 'node:util';
import { openEngine } from '../src/open-engine.ts';
import { reportCases } from './cases/index.ts';
import { benchCategories } from './lib/bench.ts';
import { resolveDataset, iterationParams, type BenchDataset } from './lib/dataset.ts';
import { collectGarbage, stats, timed } from './lib/measure.ts';
import { sseText } from '../src/formats/sse-text.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    state: { type: 'string' },
    only: { type: 'string', multiple: true },
    iterations: { type: 'string', default: '10' },
    'no-streams': { type: 'boolean' },
    'memory-limit': { type: 'string' },
  },
});
if (!values.data || !values.state) throw new Error('--data DIR and --state FILE are required');
const iterations = Number(values.iterations);
const pages = ['window-7', 'window-30', 'window-365'];

let peakRss = process.memoryUsage.rss();
const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 100);
const mib = (b: number) => Math.round(b / 2 ** 20);

const found = await resolveDataset(NaN, values.data, true);
const { ms: openMs, value: engine } = await timed(() =>
  openEngine({
    data: found.dir,
    state: values.state!,
    resultCache: 0,
    ...(values['memory-limit'] ? { memoryLimit: values['memory-limit'] } : {}),
  }),
);
console.log(`memory limit ${values['memory-limit'] ?? 'default (half of memory)'}`);
console.log(`scale ${found.scale}: openEngine ${openMs.toFixed(0)} ms, RSS ${mib(process.memoryUsage.rss())} MiB`);
const dataset: BenchDataset = { ...found, categories: benchCategories(await engine.listOrganizations()) };

console.log('| report | request | p50 ms | p95 ms | runs | rows |');
console.log('|---|---|---:|---:|---:|---:|');
const streams: string[] = [];
for (const rc of reportCases.filter((c) => !values.only || values.only.includes(c.report))) {
  const setup = rc.setup ? (await timed(() => rc.setup!(engine, dataset))).ms : 0;
  const requests = rc.requests(dataset);
  for (const request of requests.filter((r) => r.kind === 'page' && pages.includes(r.id))) {
    const samples: number[] = [];
    let rows = 0;
    for (let i = -1; i < iterations; i++) {
      const p = iterationParams(dataset, request.windowDays, i);
      const { ms, value } = await timed(() =>
        engine.org(p.organizationId).call('POST', rc.path, { body: request.body(p) }),
      );
      if (value.kind !== 'json') throw new Error(`${rc.path} did not answer JSON`);
      rows = Math.max(rows, (JSON.parse(value.json) as { data?: unknown[] }).data?.length ?? 0);
      if (i >= 0) samples.push(ms);
    }
    const s = stats(samples);
    console.log(
      `| ${rc.report} | ${request.label} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${samples.length} | ${rows} |`,
    );
  }
  const stream = requests.find((r) => r.kind === 'stream');
  if (values['no-streams'] || !stream || !rc.streamPath) continue;
  collectGarbage();
  const p = iterationParams(dataset, stream.windowDays, 0);
  let count = 0;
  let firstMs = NaN;
  const { ms } = await timed(async () => {
    const start = performance.now();
    const result = await engine.org(p.organizationId).call('POST', rc.streamPath!, { body: stream.body(p) });
    if (result.kind !== 'stream') throw new Error(`${rc.streamPath} did not stream`);
    for await (const piece of sseText(result.events)) {
      if (piece.results > 0 && Number.isNaN(firstMs)) firstMs = performance.now() - start;
      count += piece.results;
    }
  });
  streams.push(
    `| ${rc.report} | ${stream.label} | ${firstMs.toFixed(0)} | ${ms.toFixed(0)} | ${count.toLocaleString('en-US')} | ${Math.round((count / ms) * 1000).toLocaleString('en-US')} |`,
  );
  console.error(`${rc.report}: setup ${setup.toFixed(0)} ms; RSS ${mib(process.memoryUsage.rss())} MiB`);
}
if (streams.length > 0) {
  console.log('\n| report | stream | first row ms | whole ms | rows | rows/s |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const line of streams) console.log(line);
}
clearInterval(rssTimer);
console.log(`\npeak RSS ${mib(peakRss)} MiB (sampled every 100 ms)`);
await engine.close();
