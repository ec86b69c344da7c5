import type { DuckDBConnection } from '@duckdb/node-api';
import { JSDuckDBValueConverter } from './duckdb-api.ts';
import { render, type Fragment } from '../query/sql.ts';

export type Row = Record<string, unknown>;

/** Runs a SQL fragment and returns its rows as objects (TIMESTAMPTZ as Date, lists as arrays). */
export async function readRows(conn: DuckDBConnection, fragment: Fragment): Promise<Row[]> {
  const q = render(fragment);
  return (await conn.runAndReadAll(q.text, q.params as never)).getRowObjectsJS() as Row[];
}

/**
 * `readRows` for results that may be large (a category's whole vocabulary): rows cross into JS one
 * chunk at a time, and each fetch gives the event loop a turn.
 */
export async function readRowsInChunks(conn: DuckDBConnection, fragment: Fragment): Promise<Row[]> {
  const q = render(fragment);
  const result = await conn.stream(q.text, q.params as never);
  const names = result.columnNames();
  const rows: Row[] = [];
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    for (const values of chunk.convertRows(JSDuckDBValueConverter)) {
      const row: Row = {};
      names.forEach((name, i) => (row[name] = values[i]));
      rows.push(row);
    }
  }
  return rows;
}

export async function execute(conn: DuckDBConnection, fragment: Fragment): Promise<void> {
  const q = render(fragment);
  await conn.run(q.text, q.params as never);
}

/** An instant as the API writes it: ISO 8601 in UTC with milliseconds. */
export const isoOrNull = (v: unknown): string | null =>
  v instanceof Date ? v.toISOString() : v === null || v === undefined ? null : String(v);

export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

export const stringOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
