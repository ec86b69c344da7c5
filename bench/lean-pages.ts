/**
 * Lean pages against the one-statement form, interleaved in one process: two engines over the same
 * dataset (the visibility rollups built first), one with `leanPages: false`, each request run on both in
 * turn. Medians in ms; answers compared on every run (a difference stops it).
 *
 *   node --import tsx bench/lean-pages.ts [DATASET_DIR] [runs]
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { visibilityRollups } from '../src/reports/insights/visibility-rollup.ts';
import { leanAnswerRows } from '../src/limits.ts';

const dir = process.argv[2] ?? 'bench/data/scale-1';
const runs = Number(process.argv[3] ?? 40);
const states: string[] = [];
const open = (leanPages: boolean) => {
  const state = join(tmpdir(), `aea-lean-bench-${leanPages}-${process.pid}.duckdb`);
  states.push(state);
  return openEngine({ data: dir, state, resultCache: 0, rollupStore: false, leanPages, cursorSecret: 'lean-pages' });
};
const [lean, statement] = [await open(true), await open(false)];
try {
  const conn = await lean.core.pool.instance.connect();
  const [cat, org] = (
    await conn.runAndReadAll('SELECT id, organization_id FROM categories ORDER BY id LIMIT 1')
  ).getRows()[0] as [string, string];
  const last = (await conn.runAndReadAll('SELECT max(executed_at)::DATE::VARCHAR FROM executions')).getRows()[0]![0];
  conn.closeSync();
  const window = (days: number) => ({
    category_id: cat,
    start_date: new Date(Date.parse(String(last)) - (days - 1) * 86_400_000).toISOString().slice(0, 10),
    end_date: String(last),
    scope: 'all',
  });
  for (const engine of [lean, statement])
    for (const def of visibilityRollups) await engine.core.rollups.warm(def.def, [cat]);
  const requests: [string, object][] = [
    ['30 d', window(30)],
    ['365 d', window(365)],
    ['30 d by day', { ...window(30), group_by: ['date'] }],
    ['30 d by day × model', { ...window(30), group_by: ['date', 'model'] }],
    ['30 d by day × model, page 50', { ...window(30), group_by: ['date', 'model'], limit: 10, page: 50 }],
    ['365 d by week', { ...window(365), group_by: ['date'], interval: 'week' }],
    ['365 d by day × model (2,920 groups)', { ...window(365), group_by: ['date', 'model'] }],
    ['7 d by day × prompt', { ...window(7), group_by: ['date', 'prompt'] }],
    ['30 d by day × prompt', { ...window(30), group_by: ['date', 'prompt'] }],
    ['90 d by day × prompt', { ...window(90), group_by: ['date', 'prompt'] }],
    [
      '365 d by topic, one region',
      { ...window(365), group_by: ['topic'], filter: { field: 'region', op: 'is', value: 'United States' } },
    ],
  ];
  type Page = { info: { next_cursor: string | null } };
  const call = async (engine: Engine, body: object) =>
    JSON.stringify(await engine.org(org).reports.visibility!(body as never));
  /** The body of page `n` (both engines sign cursors with the same key). */
  const pageOf = async (body: Record<string, unknown>) => {
    const { page, ...rest } = body as { page?: number };
    let cursor: string | null = null;
    for (let p = 1; p < (page ?? 1); p++)
      cursor = ((await lean.org(org).reports.visibility!({ ...rest, ...(cursor ? { cursor } : {}) } as never)) as Page)
        .info.next_cursor;
    return { ...rest, ...(cursor ? { cursor } : {}) };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  console.log(
    '| request | the lean engine read | lean engine ms | one-statement engine ms | ratio |\n|---|---|---:|---:|---:|',
  );
  for (const [label, request] of requests) {
    const body = await pageOf(request as Record<string, unknown>);
    for (const engine of [lean, statement]) await call(engine, body);
    const times: [number[], number[]] = [[], []];
    for (let i = 0; i < runs; i++) {
      const texts: string[] = [];
      for (const [j, engine] of [lean, statement].entries()) {
        const t = performance.now();
        texts.push(await call(engine, body));
        times[j]!.push(performance.now() - t);
      }
      if (texts[0] !== texts[1]) throw new Error(`${label}: the lean page differs from the one-statement page`);
    }
    const [a, b] = times.map(median) as [number, number];
    const { leanPages, leanFallbacks } = lean.core.stats;
    await call(lean, body);
    const form =
      lean.core.stats.leanPages > leanPages
        ? 'lean'
        : lean.core.stats.leanFallbacks > leanFallbacks
          ? `one statement (> ${leanAnswerRows} answer rows)`
          : 'one statement (grouped from the facts)';
    console.log(`| ${label} | ${form} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(a / b).toFixed(2)} |`);
  }
} finally {
  await lean.close();
  await statement.close();
  for (const s of states) for (const f of [s, `${s}.wal`]) rmSync(f, { force: true });
}
