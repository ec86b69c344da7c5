import { jsonText, rowObject, struct } from '../query/dialect.ts';
import { dictionaryColumns, type ColumnBatch, type RowShape } from '../query/row-shape.ts';
import { ident, join, sql, type DialectName, type Fragment } from '../query/sql.ts';
import type { DimensionRows, DimensionSpec } from '../engine/dimension-cache.ts';

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
  /**
   * `unit, n`: the rows of every unit, for a report whose units hold several rows. A stream's
   * max_results caps rows, not units, so its head counts the rows sent and the units they reach.
   */
  readonly unitRows?: Fragment;
  /** The lean page, for a report and request that have one: a page reads it; a stream reads the statements above. */
  readonly lean?: LeanPage;
}

/** A dimension table a lean page reads from memory: the whole table, or a category's rows of it. */
export interface DimensionUse {
  readonly spec: DimensionSpec;
  readonly scopeId: string | null;
}

/**
 * What a lean page reads through: its statements, one after the other in one snapshot, and the dimension
 * tables it declared, read before them (so a statement never waits on another connection).
 */
export interface LeanReads {
  read(query: Fragment): Promise<ColumnBatch>;
  /** The answer rows it reads before it gives up for the one-statement form (`leanAnswerRows`). */
  readonly answerRows: number;
  dimension(spec: DimensionSpec, scopeId: string | null): DimensionRows;
}

/**
 * A page as an expert computes it: small aggregate statements over the chosen source, keyed by ids,
 * then the ranking, the page cut, the total and the info in JS over the typed columns, with names from
 * the dimension tables in memory. `read` gives what the one-statement page gives (the head, and the
 * range's rows in answer order with the columns `shape` reads); `statements` are what explain shows.
 */
export interface LeanPage {
  /** What explain calls its statements. */
  readonly role: string;
  /** Its statements as explain shows them, for the units of `range` and a bound of `answerRows` answer rows. */
  statements(answerRows: number, range: UnitRange): Fragment[];
  readonly dimensions: readonly DimensionUse[];
  /** Null when the answer is too large for it (its groups are not few): the one-statement form reads it. */
  read(range: UnitRange, reads: LeanReads): Promise<{ head: Head; rows: ColumnBatch } | null>;
  /** Its read runs one statement, which reads one snapshot by itself. */
  readonly oneStatement?: boolean;
}

export interface Head {
  readonly total: number;
  readonly info: Record<string, unknown>;
  /** With `unitRows`: the units and rows a stream capped at max_results rows sends. */
  readonly sent?: { readonly units: number; readonly rows: number };
}

const headColumns = (c: ShapedReport) =>
  sql`(${c.total}) AS head_total, ${c.info ? rowObject(c.info) : sql`NULL`} AS head_info`;

/** Ranges of more units than this send their repeated text as dictionary codes; smaller ones send it as text. */
const dictionaryFrom = 256;

/** The dictionary-coded columns of a range's statement (none for a small range, and none on ClickHouse, whose rows cross as text anyway). */
export function codedColumns(c: ShapedReport, range: UnitRange, dialect: DialectName = 'duckdb'): string[] {
  return dialect !== 'duckdb' || (range.upTo !== null && range.upTo - range.after <= dictionaryFrom)
    ? []
    : dictionaryColumns(c.shape);
}

export const dictionaryColumn = (column: string) => `dict_${column}`;

/**
 * The range's rows with their repeated text as codes: `rows_out` holds the rows, `dict_<column>` the
 * distinct values of each coded column numbered from 0 in text order; `dictionaries` are the lists as
 * JSON text, for the row that carries them; `select` gives the rows with codes in place of the text.
 */
function coded(
  c: ShapedReport,
  range: UnitRange,
  columns: readonly string[],
): { ctes: Fragment; dictionaries: Fragment; select: Fragment } {
  if (columns.length === 0) return { ctes: sql``, dictionaries: sql``, select: sql`SELECT * FROM (${c.rows(range)})` };
  const dicts = columns.map((col) => ({ col: ident(col), dict: ident(dictionaryColumn(col)) }));
  return {
    ctes: sql`,
rows_out AS MATERIALIZED (${c.rows(range)}),
${join(
  dicts.map(
    ({ col, dict }) =>
      sql`${dict} AS (SELECT v, CAST(row_number() OVER (ORDER BY v) - 1 AS INTEGER) AS code FROM (SELECT DISTINCT ${col} AS v FROM rows_out WHERE ${col} IS NOT NULL))`,
  ),
  ',\n',
)}`,
    dictionaries: sql`, ${join(
      dicts.map(
        ({ dict }) => sql`${jsonText(sql`(SELECT coalesce(list(v ORDER BY code), []) FROM ${dict})`)} AS ${dict}`,
      ),
      ', ',
    )}`,
    select: sql`SELECT o.* EXCLUDE (${join(
      dicts.map(({ col }) => col),
      ', ',
    )}), ${join(
      dicts.map(({ col, dict }) => sql`${dict}.code AS ${col}`),
      ', ',
    )}
FROM rows_out o
${join(
  dicts.map(({ col, dict }) => sql`LEFT JOIN ${dict} ON ${dict}.v = o.${col}`),
  '\n',
)}`,
  };
}

// TRICKY: a unit is sent when the rows of the units before it are fewer than the cap; the last one may be cut.
const sentColumns = (unitRows: Fragment, cap: number | null) =>
  cap === null
    ? sql`(SELECT ${struct([
        ['units', sql`count(*)`],
        ['rows', sql`coalesce(sum(n), 0)`],
      ])} FROM (${unitRows}))`
    : sql`(SELECT ${struct([
        ['units', sql`count(*) FILTER (WHERE before < ${cap})`],
        ['rows', sql`coalesce(sum(least(CAST(n AS BIGINT), greatest(${cap} - before, 0))), 0)`],
      ])}
   FROM (SELECT n, sum(n) OVER (ORDER BY unit ROWS UNBOUNDED PRECEDING) - n AS before FROM (${unitRows})))`;

const streamHead = (c: ShapedReport, cap: number | null | undefined) =>
  c.unitRows && cap !== undefined ? sql`, ${sentColumns(c.unitRows, cap)} AS head_sent` : sql``;

/**
 * A page in one statement: a head row (unit 0, with the total, the info and the dictionaries) and the
 * range's rows, in answer order. Both come from the same CTEs, so they are computed once. A stream read
 * in one statement passes its `cap`, so that the head also says what the stream sends (see `unitRows`).
 */
export function pageQuery(c: ShapedReport, range: UnitRange, cap?: number | null): Fragment {
  const x = coded(c, range, codedColumns(c, range));
  return sql`WITH ${c.ctes}${x.ctes}
SELECT 0 AS unit, 0 AS seq, ${headColumns(c)}${streamHead(c, cap)}${x.dictionaries}
UNION ALL BY NAME
${x.select}
ORDER BY unit, seq`;
}

/** A stream's first statement: the total and the info, and with `unitRows` what a stream capped at `cap` rows sends. */
export function headQuery(c: ShapedReport, cap: number | null = null): Fragment {
  return sql`WITH ${c.ctes}
SELECT ${headColumns(c)}${streamHead(c, cap)}`;
}

/**
 * A page's statements, read in order: their rows together are its head row then its rows in answer
 * order. DuckDB reads both in one statement (`pageQuery`); ClickHouse has no `UNION ALL BY NAME`, so
 * its head (`headQuery`) and rows come in two, computing the CTEs twice.
 */
export function pageStatements(
  c: ShapedReport,
  range: UnitRange,
  dialect: DialectName,
  cap?: number | null,
): Fragment[] {
  if (dialect === 'duckdb') return [pageQuery(c, range, cap)];
  return [headQuery(c, cap ?? null), sliceQuery(c, range, dialect)];
}

/**
 * The statement of one stream slice, in answer order. Its dictionaries, if any, come first, in a row
 * of their own (`seq` −1).
 */
export function sliceQuery(c: ShapedReport, range: UnitRange, dialect: DialectName = 'duckdb'): Fragment {
  const columns = codedColumns(c, range, dialect);
  const x = coded(c, range, columns);
  if (columns.length === 0) return sql`WITH ${c.ctes}\n${x.select}\nORDER BY unit, seq`;
  return sql`WITH ${c.ctes}${x.ctes}
SELECT ${range.after} AS unit, -1 AS seq${x.dictionaries}
UNION ALL BY NAME
${x.select}
ORDER BY unit, seq`;
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
  for (let after = 0; after < units; after += size, size = Math.min(size * 4, most))
    out.push({ after, upTo: Math.min(after + size, units) });
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
  const sent = headValue(batch.columns.head_sent?.[0]) as Head['sent'] | null | undefined;
  return {
    total: Number(batch.columns.head_total![0] ?? 0),
    info: (headValue(batch.columns.head_info![0]) ?? {}) as Record<string, unknown>,
    ...(sent ? { sent } : {}),
  };
}

/** A head struct: a DuckDB struct, or the JSON text of one (ClickHouse; see `rowObject`). */
function headValue(v: unknown): unknown {
  return typeof v === 'string' ? (JSON.parse(v) as unknown) : plainJs(v);
}

/** Units and rows of a page's batch (its head row excluded). */
export function countUnits(batch: ColumnBatch): { units: number; rows: number } {
  const units = batch.columns.unit ?? [];
  let distinct = 0;
  for (let i = 0; i < batch.length; i++) if (i === 0 || units[i] !== units[i - 1]) distinct++;
  return { units: distinct, rows: batch.length };
}
