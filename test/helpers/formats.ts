import { spreadsheetText } from '../../src/formats/csv.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC, Vector, type Table } from 'apache-arrow';
import type { Engine } from '../../src/library/engine.ts';
import { tableNames } from '../../src/model/tables.ts';
import { parseSse } from './server.ts';

export type JsonRow = Record<string, unknown>;
/** A report's answer in the spec's JSON: the page's info or the stream's summary, and its rows. */
export interface Answer {
  readonly head: JsonRow;
  readonly rows: JsonRow[];
}

/** The answer of a JSON page body or of a text/event-stream body. */
export function answerOf(text: string, stream: boolean): Answer {
  if (!stream) {
    const page = JSON.parse(text) as { info: JsonRow; data: JsonRow[] };
    return { head: page.info, rows: page.data };
  }
  const events = parseSse(text).map((e) => JSON.parse(e.data) as JsonRow);
  return { head: events[0]!, rows: events.slice(1) };
}

/** Writes the tables an engine has open to a dataset folder, so the CLI can open the same data. */
export async function writeDatasetFolder(engine: Engine, dir: string): Promise<void> {
  await engine.core.pool.use(async (conn) => {
    const views = new Set(
      (await conn.runAndReadAll(`SELECT view_name FROM duckdb_views()`)).getRowsJS().map((r) => String(r[0])),
    );
    for (const table of tableNames) {
      const view = views.has(`dataset_${table}`) ? `dataset_${table}` : table;
      await conn.run(`COPY (SELECT * FROM "${view}") TO '${join(dir, `${table}.parquet`)}' (FORMAT parquet)`);
    }
  });
}

/** Runs a query in a DuckDB of its own, as an analyst reading an exported file would. */
export async function duckdb(
  query: string,
  params: string[] = [],
): Promise<{ rows: JsonRow[]; types: Record<string, string> }> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const reader = await conn.runAndReadAll(query, params);
    const names = reader.columnNames();
    const types = Object.fromEntries(names.map((n, i) => [n, String(reader.columnTypes()[i])]));
    return { rows: reader.getRowObjectsJS() as JsonRow[], types };
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

export async function saved(dir: string, name: string, bytes: Uint8Array | string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  return file;
}

/** NDJSON read back by DuckDB: each line as the JSON object it holds. */
export async function ndjsonRows(file: string): Promise<JsonRow[]> {
  const { rows } = await duckdb(`SELECT json::VARCHAR AS j FROM read_ndjson_objects($1)`, [file]);
  return rows.map((r) => JSON.parse(String(r.j)) as JsonRow);
}

/** CSV read back by DuckDB as text cells; a quoted empty field stays '' and an empty one is NULL. */
export async function csvTable(file: string): Promise<{ columns: string[]; cells: (string | null)[][] }> {
  const { rows, types } = await duckdb(
    `SELECT * FROM read_csv($1, header = true, all_varchar = true, allow_quoted_nulls = false)`,
    [file],
  );
  const columns = Object.keys(types);
  return { columns, cells: rows.map((r) => columns.map((c) => (r[c] === null ? null : String(r[c])))) };
}

/**
 * What a CSV cell holds for a JSON row: the value at a dotted path; a fixed array's item found by its
 * name in `items` (the head's `query.metrics` and `query.dimensions`); a list or struct value as its JSON.
 */
export function expectedCell(row: JsonRow, path: string, items: Record<string, readonly string[]>): string | null {
  let value: unknown = row;
  let key = '';
  for (const part of path.split('.')) {
    if (value === null || value === undefined) return null;
    value = Array.isArray(value) ? value[items[key]!.indexOf(part)] : (value as JsonRow)[part];
    key = part;
  }
  if (value === null || value === undefined) return null;
  // CSV is written for spreadsheets: a text that starts like a formula (a YouTube handle's @) gets a quote.
  return typeof value === 'object'
    ? JSON.stringify(value)
    : typeof value === 'string'
      ? spreadsheetText(value)!
      : String(value);
}

/**
 * A value read back from a typed format (DuckDB's JS values, Arrow's), shown as the JSON shows it, guided
 * by the JSON value: days as `YYYY-MM-DD`, instants to the second, 64-bit integers as numbers, a struct
 * standing for a fixed array as that array.
 */
export function asJson(actual: unknown, expected: unknown): unknown {
  if (actual === null || actual === undefined) return null;
  if (typeof actual === 'bigint') return Number(actual);
  if (actual instanceof Date || (typeof actual === 'number' && typeof expected === 'string')) {
    const iso = new Date(actual as Date | number).toISOString();
    return typeof expected === 'string' && expected.length === 10 ? iso.slice(0, 10) : `${iso.slice(0, 19)}Z`;
  }
  if (actual instanceof Vector) return asJson([...actual], expected);
  if (Array.isArray(expected) && !Array.isArray(actual) && typeof actual === 'object')
    return asJson(Object.values(plain(actual)), expected);
  if (Array.isArray(actual)) return actual.map((v, i) => asJson(v, (expected as unknown[] | null)?.[i]));
  if (typeof actual === 'object')
    return Object.fromEntries(
      Object.entries(plain(actual)).map(([k, v]) => [k, asJson(v, (expected as JsonRow | null)?.[k])]),
    );
  return actual;
}

const plain = (v: object): JsonRow =>
  'toJSON' in v && typeof v.toJSON === 'function' ? (v.toJSON() as JsonRow) : (v as JsonRow);

export interface TypedRead {
  readonly head: JsonRow;
  readonly types: Record<string, string>;
  readonly rows: JsonRow[];
}

/** Parquet read back by DuckDB: its rows, column types and the head under `aea:head`. */
export async function parquetRead(file: string): Promise<TypedRead> {
  const { rows, types } = await duckdb(`SELECT * FROM read_parquet($1)`, [file]);
  const kv = await duckdb(`SELECT decode(value) AS v FROM parquet_kv_metadata($1) WHERE decode(key) = 'aea:head'`, [
    file,
  ]);
  return { head: JSON.parse(String(kv.rows[0]!.v)) as JsonRow, types, rows };
}

/** An Arrow IPC stream read back by apache-arrow. */
export function arrowRead(bytes: Uint8Array): TypedRead & { table: Table } {
  const table = tableFromIPC(bytes);
  return arrowOf(table);
}

export function arrowOf(table: Table): TypedRead & { table: Table } {
  const types = Object.fromEntries(table.schema.fields.map((f) => [f.name, String(f.type)]));
  return {
    table,
    head: JSON.parse(table.schema.metadata.get('aea:head')!) as JsonRow,
    types,
    rows: table.toArray().map((r) => plain(r)),
  };
}
