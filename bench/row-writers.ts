import { parseArgs } from 'node:util';
import { openEngine } from '../src/open-engine.ts';
import { encodeRows } from '../src/formats/encode.ts';
import { sseText } from '../src/formats/sse-text.ts';
import { csvText } from '../src/formats/csv.ts';
import { ndjsonText } from '../src/formats/ndjson.ts';
import { framedEvents, pageJson } from '../src/formats/json.ts';
import type { RowsPart, RowsResult } from '../src/query/rows-result.ts';
import { reportCases } from './cases/index.ts';
import { benchCategories } from './lib/bench.ts';
import { iterationParams, resolveDataset, type BenchDataset } from './lib/dataset.ts';

/**
 * Where a large answer's time goes between DuckDB and the wire (issue 23, "Row writers"): for each
 * stream and 50,000-row page named, the rows pulled as typed columns and nothing more, against the same
 * rows encoded (a page's JSON body; a stream's SSE text, NDJSON and CSV), interleaved round by round on
 * the same parameters. Medians; rows/s of the whole call. With `--encode-only`, the rows are read once
 * and held, and only their encoding is timed (the same public encoders, replaying the held batches).
 *
 *   node --expose-gc --import tsx bench/row-writers.ts [--data DIR] [--rounds N] [--case report/request]...
 */
const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    rounds: { type: 'string' },
    case: { type: 'string', multiple: true },
    formats: { type: 'string' },
    'encode-only': { type: 'boolean' },
  },
});
const defaults = [
  'visibility/stream-date-model-365',
  'visibility/stream-date-prompt-30',
  'sentiment/stream-run-365',
  'citations-v1/stream-url-date-90',
  'factcheck/stream-date-prompt-365',
  'citations-v1/url-date-90-50k',
  'raw-bot-logs/visits-365-50k',
  'visibility-v1/prompt-date-brand-60-50k',
];
const wanted = values.case ?? defaults;
const rounds = Number(values.rounds ?? 5);
const found = await resolveDataset(1, values.data, true);
const engine = await openEngine({ data: found.dir, resultCache: 0 });
const dataset: BenchDataset = { ...found, categories: benchCategories(await engine.listOrganizations()) };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const streamFormats = (values.formats ?? 'sse,ndjson,csv').split(',');

type Side = (p: Record<string, unknown>) => Promise<number>;

console.log(`\`${wanted.length} cases, ${rounds} rounds, scale ${found.scale}\`\n`);
console.log('| case | rows | side | median ms | rows/s | encoding share |');
console.log('|---|---:|---|---:|---:|---:|');
for (const id of wanted) {
  const [report, requestId] = id.split('/') as [string, string];
  const rc = reportCases.find((c) => c.report === report);
  const request = rc?.requests(dataset).find((r) => r.id === requestId);
  if (!rc || !request) throw new Error(`no bench case ${id}`);
  await rc.setup?.(engine, dataset);
  const path = request.kind === 'stream' ? rc.streamPath! : rc.path;
  const params = iterationParams(dataset, request.windowDays, 0);
  const scope = engine.org(params.organizationId);
  const body = request.body(params);
  const sides: Record<string, Side> = {
    columns: async () => {
      const result = await scope.invoke('POST', path, { body });
      let rows = 0;
      if (result.kind === 'rows')
        for await (const part of result.read()) if ('batch' in part) rows += part.batch.length;
      return rows;
    },
  };
  if (request.kind === 'page')
    sides.json = async () => {
      const result = await scope.call('POST', path, { body });
      if (result.kind !== 'json') throw new Error(`${id}: not a page`);
      return (JSON.parse(result.json) as { data: unknown[] }).data.length;
    };
  else {
    if (streamFormats.includes('sse'))
      sides.sse = async () => {
        const result = await scope.call('POST', path, { body });
        if (result.kind !== 'stream') throw new Error(`${id}: not a stream`);
        let rows = 0;
        for await (const piece of sseText(result.events)) rows += piece.results;
        return rows;
      };
    for (const format of ['ndjson', 'csv'] as const)
      if (streamFormats.includes(format))
        sides[format] = async () => {
          const rows = await scope.invokeRows('POST', path, { body }, format);
          let lines = 0;
          for await (const piece of encodeRows(rows, format))
            if (typeof piece === 'string')
              for (let i = piece.indexOf('\n'); i >= 0; i = piece.indexOf('\n', i + 1)) lines++;
          return format === 'csv' ? lines - 1 : lines;
        };
  }
  if (values['encode-only']) {
    const result = await scope.invoke('POST', path, { body });
    if (result.kind !== 'rows') throw new Error(`${id}: not rows`);
    const parts: RowsPart[] = [];
    for await (const part of result.read()) parts.push(part);
    const held: RowsResult = {
      ...result,
      read: async function* () {
        yield* parts;
      },
    };
    const encoders: Record<string, () => Promise<number>> =
      request.kind === 'page'
        ? { json: async () => (await pageJson(held)).length }
        : {
            sse: async () => {
              let n = 0;
              for await (const piece of sseText(framedEvents(held))) n += piece.text.length;
              return n;
            },
            ndjson: async () => {
              let n = 0;
              for await (const piece of ndjsonText(held)) n += piece.length;
              return n;
            },
            csv: async () => {
              let n = 0;
              for await (const piece of csvText(held)) n += piece.length;
              return n;
            },
          };
    for (const name of Object.keys(sides)) if (name !== 'columns' && !(name in encoders)) delete encoders[name];
    const rows = parts.reduce((n, p) => n + ('batch' in p ? p.batch.length : 0), 0);
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(encoders).map((s) => [s, []]));
    for (const encode of Object.values(encoders)) await encode();
    for (let r = 0; r < rounds; r++)
      for (const [name, encode] of Object.entries(encoders)) {
        global.gc?.();
        const t0 = performance.now();
        await encode();
        times[name]!.push(performance.now() - t0);
      }
    for (const [name, ts] of Object.entries(times)) {
      const ms = median(ts);
      console.log(
        `| ${id} | ${rows.toLocaleString('en-US')} | ${name} (encoding only) | ${ms.toFixed(1)} | ${Math.round((rows / ms) * 1000).toLocaleString('en-US')} | |`,
      );
    }
    continue;
  }
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((s) => [s, []]));
  let rows = 0;
  for (const side of Object.values(sides)) rows = await side(body);
  for (let r = 0; r < rounds; r++)
    for (const [name, side] of Object.entries(sides)) {
      global.gc?.();
      const t0 = performance.now();
      const n = await side(body);
      times[name]!.push(performance.now() - t0);
      if (n !== rows) throw new Error(`${id} ${name}: ${n} rows, the columns gave ${rows}`);
    }
  const columns = median(times.columns!);
  for (const [name, ts] of Object.entries(times)) {
    const ms = median(ts);
    const share = name === 'columns' ? '' : `${(((ms - columns) / ms) * 100).toFixed(0)}%`;
    console.log(
      `| ${id} | ${rows.toLocaleString('en-US')} | ${name} | ${ms.toFixed(1)} | ${Math.round((rows / ms) * 1000).toLocaleString('en-US')} | ${share} |`,
    );
  }
}
await engine.close();
