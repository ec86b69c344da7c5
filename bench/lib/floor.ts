import type { DuckDBValue } from '@duckdb/node-api';
import type { Answer, OldFloor, IterationParams } from './case.ts';
import { addDays } from './dataset.ts';

/**
 * Floors written as named-parameter SQL. Every floor may use `$category`, `$org`, `$start` and `$end`
 * (the inclusive ET window, `YYYY-MM-DD`), `$end_next` (the day after `$end`), `$asset` (the category's
 * own brand), `$domain` (a domain of the organization) and, on pages, `$offset`; each binds only the
 * names its SQL uses.
 */
export type Row = Record<string, unknown>;

const values = (p: IterationParams, offset: number): Record<string, DuckDBValue> => ({
  category: p.categoryId,
  org: p.organizationId,
  start: p.startDate,
  end: p.endDate,
  end_next: addDays(p.endDate, 1),
  asset: p.asset,
  domain: p.domain,
  offset,
});

function named(sqlText: string, all: Record<string, DuckDBValue>): Record<string, DuckDBValue> {
  const used = new Set([...sqlText.matchAll(/\$([a-z_]+)/g)].map((m) => m[1]!));
  return Object.fromEntries(Object.entries(all).filter(([k]) => used.has(k)));
}

/** A floor's SQL with the named values it uses, bound per iteration. */
export function namedFloor(sqlText: string, answer: (rows: Row[]) => Answer, offset = 0): OldFloor {
  return {
    sql: sqlText,
    params: (p) => named(sqlText, values(p, offset)),
    answer: (rows) => answer(rows.map(plainRow)),
  };
}

/** Named values for any SQL over an iteration (inputRows counts). */
export const namedValues = (sqlText: string, p: IterationParams) => named(sqlText, values(p, 0));

/** DuckDB's JS values as JSON would carry them: BIGINT and HUGEINT as numbers, nested values alike. */
export function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object' && !(v instanceof Date))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

const plainRow = (r: Row): Row => plain(r) as Row;

/** `{id, name}` of a dimension key, null when the key is missing (the v2 reports' group fields). */
export const ref = (id: unknown, name: unknown) => (id === null || id === undefined ? null : { id, name });

/**
 * The paged envelope of a floor whose CTEs end with `rows`: one row per output row with `ord`, the
 * 1-based page unit (several rows may share one), and `seq` ordering rows within a unit. A page reads
 * a head row (`total` units plus the report's `head` expressions) and the units of the page; a stream
 * reads every row.
 */
export interface Envelope {
  readonly kind: 'page' | 'stream';
  /** Units per page (v2 `limit`, v1 `pagination.limit`). */
  readonly limit: number;
  /** 1-based page number. */
  readonly page: number;
  /** Extra head columns, each `, expr AS name`. */
  readonly head?: string;
  /** At most this many rows (a stream's max_results). */
  readonly cap?: number;
}

export function envelopeSql(ctes: string, e: Envelope): string {
  if (e.kind === 'stream') return `${ctes}\nSELECT * FROM rows ORDER BY ord, seq${e.cap ? ` LIMIT ${e.cap}` : ''}`;
  return `${ctes}
SELECT 0 AS ord, 0 AS seq, (SELECT coalesce(max(ord), 0) FROM rows) AS total${e.head ?? ''}
UNION ALL BY NAME
SELECT * FROM rows WHERE ord > $offset AND ord <= $offset + ${e.limit}
ORDER BY ord, seq`;
}

/** The floor of a v2 report: `{total, models, rows}` for pages, the rows for streams. */
export function v2Floor(ctes: string, e: Envelope, row: (r: Row) => unknown): OldFloor {
  return namedFloor(
    envelopeSql(ctes, e),
    (rows) => {
      if (e.kind === 'stream') return rows.map(row);
      const [head, ...data] = rows;
      return { total: head!.total, models: head!.models, rows: data.map(row) };
    },
    (e.page - 1) * e.limit,
  );
}

/** The engine's side of a v2 report: the same shape from its JSON body (pages) or its result events (streams). */
export function v2Answer(kind: 'page' | 'stream') {
  return (json: unknown): Answer => {
    if (kind === 'stream') return json;
    const { info, data } = json as { info: { total_results: number; models: string[] }; data: unknown[] };
    return { total: info.total_results, models: info.models, rows: data };
  };
}

/** `, (SELECT list of distinct model names in relation) AS models`: the v2 info block's models. */
export const modelsHead = (relation: string) =>
  `, (SELECT coalesce(list(DISTINCT mo.name ORDER BY mo.name), []) FROM ${relation} x JOIN models mo ON mo.id = x.model_id) AS models`;
