import { Fragment, Spelled, ident, join, key, sql } from './sql.ts';

/**
 * The SQL pieces whose spelling differs between DuckDB and ClickHouse. A report asks here and never
 * spells them itself, so its plan compiles to one fragment that renders to either dialect (`render`).
 * Everything else the reports write is common to both (CTEs, window functions, `FILTER`, `QUALIFY`,
 * `GROUP BY ALL`, `IS NOT DISTINCT FROM`, `date_trunc`, `CAST(… AS VARCHAR|BIGINT|DOUBLE|DATE)`), and
 * the ClickHouse backends set what makes the semantics agree (`join_use_nulls`, NULL aggregates over
 * no rows; see `clickhouseSettings`).
 */
const spelled = (duckdb: Fragment, clickhouse: Fragment): Fragment => new Spelled({ duckdb, clickhouse });

/** The JSON text of a value (a list or a struct), for a column that crosses as JSON (see `Wire`). */
export const jsonText = (value: Fragment): Fragment => spelled(sql`CAST(to_json(${value}) AS VARCHAR)`, sql`toJSONString(${value})`);

/** The one row of a subquery as an object, its columns as fields: a DuckDB struct, or ClickHouse's JSON text of it (named tuples do not cross its JSON). */
export const rowObject = (subquery: Fragment): Fragment =>
  spelled(sql`(SELECT i FROM (${subquery}) i)`, sql`(SELECT formatRowNoNewline('JSONEachRow', *) FROM (${subquery}))`);

/** An object of named values: a DuckDB struct, or ClickHouse's JSON text of it. Names come from this code base. */
export const struct = (fields: readonly (readonly [string, Fragment])[]): Fragment =>
  spelled(
    sql`{${join(fields.map(([name, v]) => sql`${key(name)}: ${v}`), ', ')}}`,
    sql`formatRowNoNewline('JSONEachRow', ${join(fields.map(([name, v]) => sql`${v} AS ${ident(name)}`), ', ')})`,
  );

/** List membership: the list holds the item. */
export const listHas = (list: Fragment, item: Fragment): Fragment => spelled(sql`list_contains(${list}, ${item})`, sql`has(${list}, ${item})`);

/** Integer division, rounding toward zero for the non-negative operands reports divide (`//` opens a comment in ClickHouse). */
export const intDiv = (a: Fragment, b: Fragment): Fragment => spelled(sql`${a} // ${b}`, sql`intDiv(${a}, ${b})`);

/** NULL-safe equality: NULL equals NULL. */
export const nullSafeEqual = (a: Fragment, b: Fragment): Fragment => sql`${a} IS NOT DISTINCT FROM ${b}`;

/** The distinct values of a group (never NULL: callers aggregate names and ids), sorted ascending, as a list; NULL over no rows. */
export const distinctSorted = (value: Fragment): Fragment => spelled(sql`list(DISTINCT ${value} ORDER BY ${value})`, sql`arraySort(groupUniqArray(${value}))`);

/** Keeps the left rows that have a match on the right, each once. */
export const semiJoin: Fragment = spelled(sql`SEMI JOIN`, sql`LEFT SEMI JOIN`);

/** Grouping by every selected column that is not an aggregate. */
export const groupByAll: Fragment = sql`GROUP BY ALL`;

/** The first day of a calendar day's week (ISO, from Monday) or month, as a date. */
export const dateTrunc = (unit: 'week' | 'month', day: Fragment): Fragment =>
  unit === 'week' ? sql`CAST(date_trunc('week', ${day}) AS DATE)` : sql`CAST(date_trunc('month', ${day}) AS DATE)`;

/** The calendar day of an instant in a time zone (a bound IANA name). */
export const zoneDay = (instant: Fragment, zone: Fragment): Fragment => spelled(sql`CAST(timezone(${zone}, ${instant}) AS DATE)`, sql`toDate(${instant}, ${zone})`);

/** SQL types both dialects cast to under these names; a ClickHouse cast keeps NULL (its types are not nullable unless said). */
export type CastType = 'VARCHAR' | 'BIGINT' | 'INTEGER' | 'DOUBLE' | 'DATE' | 'BOOLEAN';

const clickhouseTypes: Record<CastType, string> = { VARCHAR: 'String', BIGINT: 'Int64', INTEGER: 'Int32', DOUBLE: 'Float64', DATE: 'Date', BOOLEAN: 'Bool' };

export const cast = (value: Fragment, type: CastType): Fragment =>
  spelled(sql`CAST(${value} AS ${typeName(type)})`, sql`CAST(${value} AS Nullable(${typeName(clickhouseTypes[type])}))`);

const typeName = (name: string): Fragment => new Fragment([name], []);
