import type { DuckDBValue } from '@duckdb/node-api';
import type { IterationParams } from '../lib/case.ts';
import { dayNumber } from './days.ts';

/** `$1` category, `$2` first day, `$3` last day (inclusive, ET) as day numbers: a v2 Insights window over a rollup's `d`. */
export const windowParams = (p: IterationParams): DuckDBValue[] => [p.categoryId, dayNumber(p.startDate), dayNumber(p.endDate)];

/** Consecutive slices of at most `days` days covering the day numbers [start, end], in order. */
export function* daySlices(start: number, end: number, days: number): Generator<[number, number]> {
  for (let from = start; from <= end; from += days) yield [from, Math.min(end, from + days - 1)];
}
