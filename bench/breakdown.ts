/**
 * Where a report request's time goes, at one scale: the library call (JSON body) against the same
 * statement run alone through a prepared statement (DuckDB: binding, optimizing, executing, reading
 * the result as columns), DuckDB's own split of that (planner and optimizers vs the rest, from its
 * profiler), and the remainder (row conversion, JSON, JS). Medians of interleaved runs.
 *
 *   node --import tsx bench/breakdown.ts DATASET_DIR [runs]
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../src/open-engine.ts';
import { sseText } from '../src/formats/sse-text.ts';

const dir = process.argv[2]!;
const runs = Number(process.argv[3] ?? 40);
const engine = await openEngine({
  data: dir,
  state: join(tmpdir(), `breakdown-${process.pid}.duckdb`),
  resultCache: 0,
});
const conn = await engine.core.pool.instance.connect();
const [cat, org] = (
  await conn.runAndReadAll('SELECT id, organization_id FROM categories ORDER BY id LIMIT 1')
).getRows()[0] as [string, string];
const scope = engine.org(org);
const brand = (
  await conn.runAndReadAll('SELECT name FROM assets WHERE category_id = $1 AND is_owned ORDER BY name LIMIT 1', [cat])
).getRows()[0]![0] as string;
const last = (
  await conn.runAndReadAll('SELECT max(executed_at)::DATE::VARCHAR FROM executions')
).getRows()[0]![0] as string;
const minus = (days: number) => new Date(Date.parse(last) - days * 86_400_000).toISOString().slice(0, 10);
const v1End = new Date(Date.parse(last) + 86_400_000).toISOString().slice(0, 10);

const cases: [string, string, object][] = [
  [
    'visibility 7 d',
    '/v2/reports/visibility',
    { category_id: cat, start_date: minus(6), end_date: last, scope: 'all' },
  ],
  [
    'visibility 365 d',
    '/v2/reports/visibility',
    { category_id: cat, start_date: minus(364), end_date: last, scope: 'all' },
  ],
  ['citations 30 d', '/v2/reports/citations', { category_id: cat, start_date: minus(29), end_date: last }],
  [
    'sentiment 30 d',
    '/v2/reports/sentiment',
    { category_id: cat, start_date: minus(29), end_date: last, asset: brand },
  ],
  [
    'v1 visibility 30 d by brand',
    '/v1/reports/visibility',
    {
      category_id: cat,
      start_date: minus(30),
      end_date: v1End,
      metrics: ['visibility_score', 'share_of_voice'],
      dimensions: ['asset_name'],
    },
  ],
  [
    'v1 citations 90 d url × date, 50,000 rows',
    '/v1/reports/citations',
    {
      category_id: cat,
      start_date: minus(90),
      end_date: v1End,
      metrics: ['count'],
      dimensions: ['url', 'date'],
      pagination: { limit: 50_000 },
    },
  ],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const profile = join(tmpdir(), `breakdown-${process.pid}.json`);
console.log(
  '| request | rollup read | call | statement alone | DuckDB planning | rest of the statement | conversion, JSON, JS |',
);
console.log('|---|---|---:|---:|---:|---:|---:|');
for (const [label, path, body] of cases) {
  // Explain never starts a rollup build: a plain call does, and the explained statements are taken once it is current.
  const explain = async () =>
    JSON.parse(((await scope.call('POST', path, { body, query: { explain: 'true' } })) as { json: string }).json);
  let explained = await explain();
  for (
    let i = 0;
    i < 120 && explained.explain.rollups.candidates.length > 0 && explained.explain.rollups.chosen.length === 0;
    i++
  ) {
    await scope.call('POST', path, { body });
    await new Promise((r) => setTimeout(r, 500));
    explained = await explain();
  }
  const statements = explained.explain.statements as { sql: string; params: unknown[] }[];
  const prepared = await Promise.all(statements.map((s) => conn.prepare(s.sql)));
  const alone = async () => {
    for (let i = 0; i < prepared.length; i++) {
      prepared[i]!.bind(statements[i]!.params as never);
      await prepared[i]!.runAndReadAll();
    }
  };
  const call = () => scope.call('POST', path, { body });
  for (let i = 0; i < 5; i++) {
    await call();
    await alone();
  }
  const t = { call: [] as number[], alone: [] as number[] };
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    await call();
    t.call.push(performance.now() - t0);
    t0 = performance.now();
    await alone();
    t.alone.push(performance.now() - t0);
  }
  await conn.run(`PRAGMA enable_profiling = 'json'`);
  await conn.run(`SET profiling_mode = 'detailed'`);
  await conn.run(`SET profiling_output = '${profile}'`);
  const planning: number[] = [];
  for (let i = 0; i < Math.min(runs, 15); i++) {
    let ms = 0;
    for (let j = 0; j < prepared.length; j++) {
      prepared[j]!.bind(statements[j]!.params as never);
      await prepared[j]!.runAndReadAll();
      const p = JSON.parse(readFileSync(profile, 'utf8')) as Record<string, number>;
      ms += ((p.planner ?? 0) + (p.all_optimizers ?? 0) + (p.physical_planner ?? 0)) * 1000;
    }
    planning.push(ms);
  }
  await conn.run(`PRAGMA disable_profiling`);
  const [c, a, p] = [median(t.call), median(t.alone), median(planning)];
  console.log(
    `| ${label} | ${explained.explain.rollups.chosen.join(', ') || 'facts'} | ${c.toFixed(1)} | ${a.toFixed(1)} | ${p.toFixed(1)} | ${(a - p).toFixed(1)} | ${(c - a).toFixed(1)} |`,
  );
}

// A stream: its rows pulled as typed columns (DuckDB and the column reads) against the same rows sent as SSE events.
const streamBody = {
  category_id: cat,
  start_date: minus(364),
  end_date: last,
  scope: 'all',
  group_by: ['date', 'model'],
};
const columns = async () => {
  const result = await scope.invoke('POST', '/v2/reports/visibility/stream', { body: streamBody });
  let rows = 0;
  if (result.kind === 'rows') for await (const part of result.read()) if ('batch' in part) rows += part.batch.length;
  return rows;
};
const events = async () => {
  const result = await scope.call('POST', '/v2/reports/visibility/stream', { body: streamBody });
  let rows = -1;
  if (result.kind === 'stream') for await (const piece of sseText(result.events)) rows += piece.results;
  return rows + 1;
};
const rows = await columns();
const s = { columns: [] as number[], events: [] as number[] };
for (let i = 0; i < Math.min(runs, 10); i++) {
  let t0 = performance.now();
  await columns();
  s.columns.push(performance.now() - t0);
  t0 = performance.now();
  await events();
  s.events.push(performance.now() - t0);
}
const [c, e] = [median(s.columns), median(s.events)];
console.log(
  `\nvisibility stream, 365 d by day × model, ${rows.toLocaleString('en-US')} rows: rows as columns ${c.toFixed(0)} ms (${Math.round((rows / c) * 1000).toLocaleString('en-US')} rows/s), as SSE events ${e.toFixed(0)} ms (${Math.round((rows / e) * 1000).toLocaleString('en-US')} rows/s): encoding takes ${(((e - c) / e) * 100).toFixed(0)}%`,
);
engine.close();
rmSync(profile, { force: true });
