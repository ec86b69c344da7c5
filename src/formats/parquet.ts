import { createReadStream } from 'node:fs';
import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance, LIST, STRUCT, VARCHAR, listValue, structValue } from '../engine/duckdb-api.ts';
import { rowWriter } from '../query/row-json.ts';
import type { RowShape, ShapeNode, ValueType } from '../query/row-shape.ts';
import type { RowsResult } from '../query/rows-result.ts';
import { headKey } from './format-names.ts';
import { slices, tableShape } from './table-shape.ts';
import { removeTemp, tempFolder } from '../engine/temp-paths.ts';
import { defaultTempDisk, type TempDisk } from '../engine/temp-disk.ts';

/** Lends a DuckDB connection: the engine's pool, so a Parquet write shares the engine's connections and memory budget. */
export interface DuckDBLender {
  use<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T>;
}

/** Rows in a Parquet row group; DuckDB holds about one row group per column while it writes. */
export const parquetRowGroupRows = 65_536;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Whether a value or node holds no field at all: an object without fields (v1 `dimensions` without any), or a
 * list of such. Parquet has no empty group and DuckDB no `STRUCT()`, so these are left out of the file (read_json
 * skips keys it is not given); Arrow keeps them as empty structs.
 */
const emptyType = (type: ValueType): boolean =>
  typeof type !== 'string' && ('list' in type ? emptyType(type.list) : type.struct.every((f) => emptyType(f.type)));
const emptyNode = (node: ShapeNode): boolean =>
  node.kind === 'value'
    ? emptyType(node.type)
    : (node.kind === 'object' ? node.fields : node.items).every((f) => emptyNode(f.node));

/** The DuckDB type of a value, the same as its Arrow type: days DATE, instants TIMESTAMPTZ, lists, structs. */
function duckdbType(type: ValueType): string {
  if (typeof type !== 'string') {
    if ('list' in type) return `${duckdbType(type.list)}[]`;
    return `STRUCT(${type.struct
      .filter((f) => !emptyType(f.type))
      .map((f) => `${quoted(f.name)} ${duckdbType(f.type)}`)
      .join(', ')})`;
  }
  return {
    text: 'VARCHAR',
    integer: 'BIGINT',
    float: 'DOUBLE',
    boolean: 'BOOLEAN',
    date: 'DATE',
    instant: 'TIMESTAMPTZ',
  }[type];
}

function nodeDuckdbType(node: ShapeNode): string {
  if (node.kind === 'value') return duckdbType(node.type);
  const fields = (node.kind === 'object' ? node.fields : node.items).filter((f) => !emptyNode(f.node));
  return `STRUCT(${fields.map((f) => `${quoted(f.name)} ${nodeDuckdbType(f.node)}`).join(', ')})`;
}

/** The `columns` argument of read_json: each top-level field's DuckDB type, fields without content left out. */
function columnTypes(table: RowShape): Record<string, string> {
  return Object.fromEntries(
    table.fields.filter((f) => !emptyNode(f.node)).map((f) => [f.name, nodeDuckdbType(f.node)]),
  );
}

/** A private DuckDB for callers without an engine: one thread, a small memory limit, spilling to `dir`; opened once per export. */
function privateLender(dir: string): DuckDBLender & { close(): Promise<void> } {
  let opened: Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> | undefined;
  return {
    async use(fn) {
      opened ??= DuckDBInstance.create(':memory:', { threads: '1', memory_limit: '256MB', temp_directory: dir }).then(
        async (instance) => ({ instance, conn: await instance.connect() }),
      );
      return fn((await opened).conn);
    },
    async close() {
      const o = await opened?.catch(() => undefined);
      o?.conn.closeSync();
      o?.instance.closeSync();
    },
  };
}

/**
 * Parquet through DuckDB's writer, a slice at a time: each slice of rows (at most 2,048) goes to a
 * temporary NDJSON file in its table shape (arrays as structs), which DuckDB reads with the declared
 * column types into a small Parquet part; the NDJSON file is removed. Once every slice is in, DuckDB
 * writes the parts, in order, as one Parquet file (row groups of 65,536 rows, the head under `aea:head`
 * in the key-value metadata), read out in 1 MiB chunks. JS holds one slice; the temporary disk is the
 * compressed parts, one slice's NDJSON and the file, all counted against `disk` as they are written (a
 * 413 past one export's bound, a 503 past the process's). The bytes come only once the file is
 * complete: a Parquet footer is written last.
 */
export async function* parquetBytes(
  result: RowsResult,
  lender?: DuckDBLender,
  disk: TempDisk = defaultTempDisk,
): AsyncGenerator<Uint8Array> {
  const table = tableShape(result.shape);
  const write = rowWriter(table);
  const account = disk.account();
  const dir = await tempFolder('parquet');
  const own = lender ? undefined : privateLender(dir);
  const duckdb = lender ?? own!;
  const columns = columnTypes(table);
  const columnsType = STRUCT(Object.fromEntries(Object.keys(columns).map((k) => [k, VARCHAR])));
  // TRICKY: read_json with declared columns types every slice alike, so the parts share one schema and
  // an answer without rows still has its columns (read from an empty file).
  const fromJson = (file: string) =>
    sql(`SELECT * FROM read_json($1, format = 'newline_delimited', columns = $2)`, file);
  const sql = (text: string, file: string) => ({
    text,
    params: [file, structValue(columns)],
    types: { 1: VARCHAR, 2: columnsType },
  });
  try {
    const parts: string[] = [];
    let head: Record<string, unknown> = {};
    const rowsFile = join(dir, 'slice.ndjson');
    for await (const part of slices(result)) {
      if (!('batch' in part)) {
        head = part.head;
        continue;
      }
      const row = write(part.batch);
      let text = '';
      for (let i = 0; i < part.batch.length; i++) text += row(i) + '\n';
      const bytes = Buffer.byteLength(text);
      account.take(bytes);
      await writeFile(rowsFile, text);
      const partFile = join(dir, `part-${String(parts.length).padStart(8, '0')}.parquet`);
      const q = fromJson(rowsFile);
      await duckdb.use((conn) =>
        conn.run(`COPY (${q.text}) TO $3 (FORMAT parquet)`, [...q.params, partFile], { ...q.types, 3: VARCHAR }),
      );
      await rm(rowsFile);
      account.give(bytes);
      account.take((await stat(partFile)).size);
      parts.push(partFile);
    }
    const parquetFile = join(dir, 'rows.parquet');
    if (parts.length === 0) await writeFile(rowsFile, '');
    const source =
      parts.length === 0
        ? fromJson(rowsFile)
        : {
            text: 'SELECT * FROM read_parquet($1::VARCHAR[])',
            params: [listValue(parts)],
            types: { 1: LIST(VARCHAR) },
          };
    await duckdb.use((conn) =>
      conn.run(
        `COPY (${source.text}) TO $${source.params.length + 1} (FORMAT parquet, ROW_GROUP_SIZE ${parquetRowGroupRows}, KV_METADATA {'${headKey}': $${source.params.length + 2}})`,
        [...source.params, parquetFile, JSON.stringify(head)],
        { ...source.types, [source.params.length + 1]: VARCHAR, [source.params.length + 2]: VARCHAR },
      ),
    );
    account.take((await stat(parquetFile)).size);
    for await (const chunk of createReadStream(parquetFile, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
  } finally {
    await own?.close();
    await removeTemp(dir);
    account.release();
  }
}
