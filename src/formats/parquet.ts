import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance, STRUCT, VARCHAR, structValue } from '../engine/duckdb-api.ts';
import { rowWriter } from '../query/row-json.ts';
import type { RowShape, ShapeNode, ValueType } from '../query/row-shape.ts';
import type { RowsResult } from '../reports/endpoint.ts';
import { headKey } from './format-names.ts';
import { slices, tableShape } from './table-shape.ts';

/** Lends a DuckDB connection: the engine's pool, so a Parquet write shares the engine's connections and memory budget. */
export interface DuckDBLender {
  use<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T>;
}

/** Rows in a Parquet row group; DuckDB holds about one row group per column while it writes. */
export const parquetRowGroupRows = 65_536;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The DuckDB type of a value, the same as its Arrow type: days DATE, instants TIMESTAMPTZ, lists, structs. */
function duckdbType(type: ValueType): string {
  if (typeof type !== 'string') {
    if ('list' in type) return `${duckdbType(type.list)}[]`;
    return `STRUCT(${type.struct.map((f) => `${quoted(f.name)} ${duckdbType(f.type)}`).join(', ')})`;
  }
  return { text: 'VARCHAR', integer: 'BIGINT', float: 'DOUBLE', boolean: 'BOOLEAN', date: 'DATE', instant: 'TIMESTAMPTZ' }[type];
}

function nodeDuckdbType(node: ShapeNode): string {
  if (node.kind === 'value') return duckdbType(node.type);
  const fields = node.kind === 'object' ? node.fields : node.items;
  return `STRUCT(${fields.map((f) => `${quoted(f.name)} ${nodeDuckdbType(f.node)}`).join(', ')})`;
}

/** The `columns` argument of read_json: each top-level field's DuckDB type. */
function columnTypes(table: RowShape): Record<string, string> {
  return Object.fromEntries(table.fields.map((f) => [f.name, nodeDuckdbType(f.node)]));
}

/** A private DuckDB for callers without an engine: one thread, a small memory limit, spilling to `dir`. */
const privateLender = (dir: string): DuckDBLender => ({
  async use(fn) {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1', memory_limit: '256MB', temp_directory: dir });
    const conn = await instance.connect();
    try {
      return await fn(conn);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  },
});

/**
 * Parquet through DuckDB's writer: the rows go to a temporary NDJSON file in their table shape (arrays
 * as structs) a slice at a time, DuckDB reads it with the declared column types and writes Parquet (row
 * groups of 65,536 rows, the head under `aea:head` in the key-value metadata), and the file is read out
 * in 1 MiB chunks. JS holds one slice; DuckDB streams file to file; both files are removed at the end.
 * The bytes come only once the file is complete: a Parquet footer is written last.
 */
export async function* parquetBytes(result: RowsResult, lender?: DuckDBLender): AsyncGenerator<Uint8Array> {
  const table = tableShape(result.shape);
  const write = rowWriter(table);
  const dir = await mkdtemp(join(tmpdir(), 'aea-parquet-'));
  try {
    const rowsFile = join(dir, 'rows.ndjson');
    const parquetFile = join(dir, 'rows.parquet');
    const file = await open(rowsFile, 'w');
    let head: Record<string, unknown> = {};
    try {
      for await (const part of slices(result)) {
        if (!('batch' in part)) {
          head = part.head;
          continue;
        }
        const row = write(part.batch);
        let text = '';
        for (let i = 0; i < part.batch.length; i++) text += row(i) + '\n';
        await file.write(text);
      }
    } finally {
      await file.close();
    }
    const columns = columnTypes(table);
    const columnsType = STRUCT(Object.fromEntries(Object.keys(columns).map((k) => [k, VARCHAR])));
    await (lender ?? privateLender(dir)).use((conn) =>
      conn.run(
        `COPY (SELECT * FROM read_json($1, format = 'newline_delimited', columns = $2)) TO $3 (FORMAT parquet, ROW_GROUP_SIZE ${parquetRowGroupRows}, KV_METADATA {'${headKey}': $4})`,
        [rowsFile, structValue(columns), parquetFile, JSON.stringify(head)],
        { 1: VARCHAR, 2: columnsType, 3: VARCHAR, 4: VARCHAR },
      ),
    );
    for await (const chunk of createReadStream(parquetFile, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
