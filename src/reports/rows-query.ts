import type { ColumnBatch, RowShape } from '../query/row-shape.ts';
import { render, sql, type Fragment, type Sql } from '../query/sql.ts';

/** Page units `after < unit <= upTo` (no upper bound when null). Units are numbered from 1 in answer order. */
export interface UnitRange {
  readonly after: number;
  readonly upTo: number | null;
}

/**
 * A report compiled for one request. Its rows are numbered in answer order by `unit` (a page unit: a
 * row, a product, a channel, a section), and `seq` within a unit. The report pushes a unit range down
 * as far as it can, so a page ranks and builds only its own units and a stream slice only the slice's:
 * this one mechanism is the page's top-N and the stream's order-preserving slices.
 */
export interface ShapedReport {
  /** CTEs every statement of the report starts from (`WITH` is added). */
  readonly ctes: Fragment;
  readonly shape: RowShape;
  /** `unit, seq`, then the columns `shape` reads, for the units of `range` (in any order). */
  rows(range: UnitRange): Fragment;
  /** One scalar: the page units of the whole answer, computed without building rows. */
  readonly total: Fragment;
  /** One row of info columns; its values reach the report as `sqlInfo`. */
  readonly info?: Fragment;
  /**
   * The most units one stream slice builds, which bounds DuckDB's memory per slice (default 16,384).
   * Infinity reads the stream in one statement: for answers whose order needs every group aggregated
   * first, where each slice would aggregate them again.
   */
  readonly sliceUnits?: number;
}

export interface Head {
  readonly total: number;
  readonly info: Record<string, unknown>;
}

const headColumns = (c: ShapedReport) => sql`(${c.total}) AS head_total, ${c.info ? sql`(SELECT i FROM (${c.info}) i)` : sql`NULL`} AS head_info`;

/**
 * A page in one statement: a head row (unit 0, with the total and the info) and the range's rows, in
 * answer order. Both come from the same CTEs, so they are computed once.
 */
export function pageQuery(c: ShapedReport, range: UnitRange): Fragment {
  return sql`WITH ${c.ctes}
SELECT 0 AS unit, 0 AS seq, ${headColumns(c)}
UNION ALL BY NAME
SELECT * FROM (${c.rows(range)})
ORDER BY unit, seq`;
}

/** A stream's first statement: the total and the info. */
export function headQuery(c: ShapedReport): Sql {
  return render(sql`WITH ${c.ctes}
SELECT ${headColumns(c)}`);
}

/** The statement of one stream slice, in answer order. */
export function sliceQuery(c: ShapedReport, range: UnitRange): Sql {
  return render(sql`WITH ${c.ctes}
SELECT * FROM (${c.rows(range)})
ORDER BY unit, seq`);
}

const firstSlice = 256;

/**
 * The ranges a stream of `units` units is read in: a small first slice so the first row comes early,
 * then each four times the last, up to `most`.
 */
export function sliceRanges(units: number, most = 16_384): UnitRange[] {
  if (most === Number.POSITIVE_INFINITY) return [{ after: 0, upTo: units }];
  const out: UnitRange[] = [];
  let size = Math.min(firstSlice, most);
  for (let after = 0; after < units; after += size, size = Math.min(size * 4, most)) out.push({ after, upTo: Math.min(after + size, units) });
  return out;
}

/** Numbers as numbers: DuckDB's 64-bit integers arrive as bigints, which JSON cannot carry. */
export function plainJs(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plainJs);
  if (v instanceof Date || v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainJs(x)]));
}

/** The head from a batch whose first row carries `head_total` and `head_info`. */
export function headOf(batch: ColumnBatch): Head {
  return { total: Number(batch.columns.head_total![0] ?? 0), info: (plainJs(batch.columns.head_info![0]) ?? {}) as Record<string, unknown> };
}

/** Units and rows of a page's batch (its head row excluded). */
export function countUnits(batch: ColumnBatch): { units: number; rows: number } {
  const units = batch.columns.unit ?? [];
  let distinct = 0;
  for (let i = 0; i < batch.length; i++) if (i === 0 || units[i] !== units[i - 1]) distinct++;
  return { units: distinct, rows: batch.length };
}
