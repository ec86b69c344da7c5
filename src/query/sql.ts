/**
 * SQL is built only from fragments. Text comes from template literals in this code base; every
 * interpolated value becomes a bound parameter. A fragment can be spliced into another as SQL.
 */
export type SqlValue = string | number | boolean | null | bigint;

export class Fragment {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly (SqlValue | Fragment)[],
  ) {}
}

/** The SQL dialects a fragment renders to: DuckDB's, and ClickHouse's (chdb and servers). */
export type DialectName = 'duckdb' | 'clickhouse';

/** A fragment spelled differently per dialect; `render` picks the spelling of the dialect it renders for. */
export class Spelled extends Fragment {
  constructor(readonly spellings: Readonly<Record<DialectName, Fragment>>) {
    super([''], []);
  }
}

export interface Sql {
  readonly text: string;
  readonly params: readonly SqlValue[];
}

export function sql(strings: TemplateStringsArray, ...values: (SqlValue | Fragment)[]): Fragment {
  return new Fragment([...strings], values);
}

export const empty = new Fragment([''], []);

export function join(parts: readonly Fragment[], separator: string): Fragment {
  if (parts.length === 0) return empty;
  const strings = ['', ...parts.slice(1).map(() => separator), ''];
  return new Fragment(strings, parts);
}

export const list = (values: readonly SqlValue[]): Fragment =>
  join(
    values.map((v) => sql`${v}`),
    ', ',
  );

export const and = (parts: readonly Fragment[]): Fragment =>
  parts.length === 0
    ? sql`TRUE`
    : join(
        parts.map((p) => sql`(${p})`),
        ' AND ',
      );

/**
 * A name from the declared catalog (a table, a column, an output key). It enters SQL as text, so it is
 * checked against a strict pattern: only names this code base declares pass.
 */
export function ident(name: string): Fragment {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a catalog identifier: ${JSON.stringify(name)}`);
  return new Fragment([`"${name}"`], []);
}

/** A catalog name as a string literal, for JSON keys. Same rule as `ident`. */
export function key(name: string): Fragment {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a catalog key: ${JSON.stringify(name)}`);
  return new Fragment([`'${name}'`], []);
}

/**
 * Renders to a dialect's text, its placeholders numbered in order of appearance: DuckDB's `$1…$n`, or
 * ClickHouse's typed `{p1:Type}…` (its parameters are named `p1…pn`; see `clickhouseParams`).
 */
export function render(fragment: Fragment, dialect: DialectName = 'duckdb'): Sql {
  const params: SqlValue[] = [];
  const placeholder =
    dialect === 'duckdb' ? (n: number) => `$${n}` : (n: number, v: SqlValue) => `{p${n}:${clickhouseType(v)}}`;
  const walk = (f: Fragment): string => {
    if (f instanceof Spelled) return walk(f.spellings[dialect]);
    let text = f.strings[0] ?? '';
    f.values.forEach((v, i) => {
      if (v instanceof Fragment) text += walk(v);
      else {
        params.push(v);
        text += placeholder(params.length, v);
      }
      text += f.strings[i + 1] ?? '';
    });
    return text;
  };
  return { text: walk(fragment), params };
}

/** The ClickHouse type a bound value is declared with: its placeholder says it, the server parses the value as it. */
function clickhouseType(v: SqlValue): string {
  if (v === null) return 'Nullable(String)';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'boolean') return 'Bool';
  if (typeof v === 'bigint' || Number.isInteger(v)) return 'Int64';
  return 'Float64';
}

/** A rendered ClickHouse statement's parameters by name (`p1…pn`), as its clients bind them. */
export function clickhouseParams(params: readonly SqlValue[]): Record<string, SqlValue> {
  return Object.fromEntries(params.map((v, i) => [`p${i + 1}`, typeof v === 'bigint' ? v.toString() : v]));
}

/**
 * The key columns a fill crosses with the window's buckets, or a constant column when there are none,
 * so `SELECT DISTINCT` over them still says whether any row was seen.
 */
export const seenKeys = (columns: readonly Fragment[]): Fragment =>
  columns.length > 0 ? join(columns, ', ') : sql`1 AS seen`;
