import type { DuckDBValue } from '@duckdb/node-api';
import type { IterationParams } from '../lib/case.ts';
import { dayNumber } from './days.ts';

/** `$1` category, `$2` first day, `$3` last day (inclusive, ET) as day numbers: a v2 Insights window over a rollup's `d`. */
export const windowParams = (p: IterationParams): DuckDBValue[] => [
  p.categoryId,
  dayNumber(p.startDate),
  dayNumber(p.endDate),
];

/** Consecutive slices of at most `days` days covering the day numbers [start, end], in order. */
export function* daySlices(start: number, end: number, days: number): Generator<[number, number]> {
  for (let from = start; from <= end; from += days) yield [from, Math.min(end, from + days - 1)];
}

/**
 * The days a page of day-led groups covers, as an expert reads them: each day's group count first (one
 * small statement over the distinct keys, `countSql` answering `d, n` by day), then only those days are
 * aggregated and ranked. `before` is the groups of the days ahead of `from`; null when the page is past the end.
 */
export async function pageDays(
  env: { db: { columns(sql: string, bind: readonly DuckDBValue[]): Promise<unknown[][]> } },
  countSql: string,
  bind: readonly DuckDBValue[],
  slice: { start: number; end: number },
): Promise<{ total: number; from: number; to: number; before: number } | { total: number; from: null }> {
  const [d, n] = (await env.db.columns(countSql, bind)) as [number[], number[]];
  let total = 0;
  let from: number | null = null;
  let to = 0;
  let before = 0;
  for (let i = 0; i < d.length; i++) {
    if (from === null && total + n[i]! > slice.start) [from, before] = [d[i]!, total];
    if (total < slice.end) to = d[i]!;
    total += n[i]!;
  }
  return from === null ? { total, from: null } : { total, from, to, before };
}
