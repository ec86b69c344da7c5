/**
 * The shape of a report's rows, as data. A report's rows query returns typed columns (`unit`, `seq`, then
 * the columns its shape names); the shape says how those columns form one row. Every encoding is
 * derived from it: the spec's JSON, NDJSON, CSV (flattened paths), Arrow and Parquet (structs and lists).
 * No dialect builds JSON, so the same plan runs on any backend that returns typed columns.
 */

/** How a value is typed and written. `date` is a calendar day (`YYYY-MM-DD`); `instant` a UTC instant (`YYYY-MM-DDTHH:MM:SSZ`). */
export type ScalarType = 'text' | 'integer' | 'float' | 'boolean' | 'date' | 'instant';

/** A value inside one column: a scalar, a struct with named fields, or a list. */
export type ValueType = ScalarType | { readonly struct: readonly ValueField[] } | { readonly list: ValueType };

export interface ValueField {
  readonly name: string;
  readonly type: ValueType;
}

/**
 * A node of a row: one column's value; an object assembled from several columns (null when its
 * `nullWhen` column is null); or a fixed-length array of columns (its item names label the columns in
 * flat formats: `metrics.visits`).
 */
export type ShapeNode =
  | { readonly kind: 'value'; readonly column: string; readonly type: ValueType; readonly wire?: Wire }
  | { readonly kind: 'object'; readonly fields: readonly ShapeField[]; readonly nullWhen?: string }
  | { readonly kind: 'array'; readonly items: readonly ShapeField[] };

/**
 * How a column crosses from the backend: as its type (the default); as the JSON text of its value; or,
 * for text that repeats (names, ids, paths), as integer codes into a dictionary of the distinct values
 * that crosses once per statement. Reading a string costs a native call when it is longer than 12
 * bytes, so a list of strings crosses faster as one JSON text, and a large page's repeated names as
 * codes. JSON text is parsed in JS, so the answer does not depend on how the backend writes JSON.
 */
export type Wire = 'typed' | 'json' | 'dictionary';

export interface ShapeField {
  readonly name: string;
  readonly node: ShapeNode;
}

/** A row is an object; its fields in output order. */
export interface RowShape {
  readonly fields: readonly ShapeField[];
}

/**
 * Rows as columns, as a backend returns them: each column is an array of `length` values. Scalars are
 * JS strings, numbers, bigints (64-bit integers past what a double holds exactly; DuckDB's smaller ones
 * arrive as numbers, ClickHouse's as it sends them), booleans, Dates (days and instants) or null;
 * structs are plain objects and lists arrays.
 */
export interface ColumnBatch {
  readonly length: number;
  readonly columns: Readonly<Record<string, readonly unknown[]>>;
}

export const value = (column: string, type: ValueType, wire: Wire = 'typed'): ShapeNode => ({
  kind: 'value',
  column,
  type,
  ...(wire !== 'typed' ? { wire } : {}),
});

/** Text that repeats across rows: crosses as dictionary codes in large ranges. */
export const repeated = (column: string): ShapeNode => value(column, 'text', 'dictionary');

/** The columns a shape sends as dictionary codes. */
export function dictionaryColumns(shape: RowShape): string[] {
  const out = new Set<string>();
  const walk = (node: ShapeNode): void => {
    if (node.kind === 'value') {
      if (node.wire === 'dictionary') out.add(node.column);
    } else (node.kind === 'object' ? node.fields : node.items).forEach((f) => walk(f.node));
  };
  shape.fields.forEach((f) => walk(f.node));
  return [...out];
}
export const object = (fields: readonly ShapeField[], nullWhen?: string): ShapeNode => ({
  kind: 'object',
  fields,
  ...(nullWhen ? { nullWhen } : {}),
});
export const array = (items: readonly ShapeField[]): ShapeNode => ({ kind: 'array', items });
export const field = (name: string, node: ShapeNode): ShapeField => ({ name, node });

/** The columns a shape reads, in first-use order, each once. */
export function shapeColumns(shape: RowShape): string[] {
  const out = new Set<string>();
  const walk = (node: ShapeNode): void => {
    if (node.kind === 'value') out.add(node.column);
    else if (node.kind === 'object') {
      if (node.nullWhen) out.add(node.nullWhen);
      node.fields.forEach((f) => walk(f.node));
    } else node.items.forEach((f) => walk(f.node));
  };
  shape.fields.forEach((f) => walk(f.node));
  return [...out];
}
