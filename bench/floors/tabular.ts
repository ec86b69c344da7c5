import type { DuckDBValue } from '@duckdb/node-api';
import type { IterationParams } from '../lib/case.ts';
import { tabularPage } from './json.ts';
import { page, type FloorEnv, type PageFloor } from './types.ts';

/**
 * A tabular page (`{total, rows: [{metrics, dimensions}]}`) over one rollup: one statement aggregates the
 * window's groups once, counts them and takes the page with a top-N (ORDER BY … LIMIT), so only the page's
 * rows are sorted and built; the labels are written in JS from integer keys.
 */
export interface Dimension {
  /** An integer (or short text) key over the rollup, grouped by. */
  readonly sql: string;
  /** The key's JSON label, looked up once per value. */
  label(env: FloorEnv): Promise<(v: number) => string> | ((v: number) => string);
}

export interface Metric {
  /** An aggregate over the rollup, INTEGER or DOUBLE. */
  readonly sql: string;
}

export interface TabularSpec {
  readonly from: string;
  /** The rollup's rows of the iteration: `$1…` bound by `params`. */
  readonly where: string;
  params(p: IterationParams): DuckDBValue[];
  readonly dimensions: readonly Dimension[];
  readonly metrics: readonly Metric[];
  /** ORDER BY terms over `k0…` (dimensions) and `m0…` (metrics). */
  readonly orderBy: readonly string[];
  readonly limit: number;
  readonly offset: number;
  /** The rollup already holds one row per group (its grain is the dimensions'): no aggregate, metrics are columns. */
  readonly atGrain?: boolean;
}

/** The default order: the first metric descending, then every dimension ascending (integer keys sort as their labels). */
export const defaultOrder = (dimensions: number) => [
  'm0 DESC',
  ...Array.from({ length: dimensions }, (_, i) => `k${i}`),
];

function pageSql(s: TabularSpec): string {
  const keys = s.dimensions.map((d, i) => `${d.sql} AS k${i}`);
  const metrics = s.metrics.map((m, i) => `${m.sql} AS m${i}`);
  if (s.atGrain) {
    return `SELECT ${[...keys, ...metrics].join(', ')}, (SELECT count(*)::INTEGER FROM ${s.from} WHERE ${s.where}) AS total
FROM ${s.from} WHERE ${s.where} ORDER BY ${s.orderBy.join(', ')} LIMIT ${s.limit} OFFSET ${s.offset}`;
  }
  const groups = `SELECT ${[...keys, ...metrics].join(', ')} FROM ${s.from} WHERE ${s.where} GROUP BY ALL`;
  const list = [...s.dimensions.map((_, i) => `k${i}`), ...s.metrics.map((_, i) => `m${i}`)].join(', ');
  // TRICKY: `g` is read twice (the count and the page), so DuckDB materializes it once; the page is a top-N.
  return `WITH g AS (${groups})
SELECT ${list}, (SELECT count(*)::INTEGER FROM g) AS total FROM g ORDER BY ${s.orderBy.join(', ')} LIMIT ${s.limit} OFFSET ${s.offset}`;
}

export function tabularFloor(s: TabularSpec): PageFloor {
  const sqlText = pageSql(s);
  const countSql = s.atGrain
    ? `SELECT count(*)::INTEGER FROM ${s.from} WHERE ${s.where}`
    : `SELECT count(*)::INTEGER FROM (SELECT ${s.dimensions.map((d) => d.sql).join(', ') || '1'} FROM ${s.from} WHERE ${s.where} GROUP BY ALL)`;
  return page(async (env, p) => {
    const labels = await Promise.all(s.dimensions.map((d) => d.label(env)));
    const c = await env.db.columns(sqlText, s.params(p));
    const k = s.dimensions.length;
    const n = c[0]!.length;
    const total =
      n > 0 ? (c[c.length - 1]![0] as number) : ((await env.db.columns(countSql, s.params(p)))[0]![0] as number);
    const rows: string[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const metrics = s.metrics.map((_, j) => c[k + j]![i]).join(',');
      const dims = labels.map((label, j) => label(c[j]![i] as number)).join(',');
      rows[i] = `{"metrics":[${metrics}],"dimensions":[${dims}]}`;
    }
    return tabularPage(total, rows);
  });
}
