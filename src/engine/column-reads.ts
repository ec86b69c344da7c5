import type { DuckDBDataChunk, DuckDBResultReader } from '@duckdb/node-api';
import { JSDuckDBValueConverter } from './duckdb-api.ts';
import type { ColumnBatch } from '../query/row-shape.ts';

/** A whole result as one batch of JS columns. */
export function readerBatch(reader: DuckDBResultReader): ColumnBatch {
  const names = reader.columnNames();
  const columns = reader.getColumnsJS();
  return { length: reader.currentRowCount, columns: Object.fromEntries(names.map((n, i) => [n, columns[i]!])) };
}

/** One DuckDB chunk (at most 2,048 rows) as a batch of JS columns. */
export function chunkBatch(names: readonly string[], chunk: DuckDBDataChunk): ColumnBatch {
  const columns = chunk.convertColumns(JSDuckDBValueConverter);
  return { length: chunk.rowCount, columns: Object.fromEntries(names.map((n, i) => [n, columns[i]!])) };
}

/** Batches of the same columns, or a head row's and the rows' (each column missing from a batch is null there), as one. */
export function concatBatches(batches: readonly ColumnBatch[]): ColumnBatch {
  if (batches.length === 1) return batches[0]!;
  const names = [...new Set(batches.flatMap((b) => Object.keys(b.columns)))];
  const columns = Object.fromEntries(
    names.map((n) => [n, batches.flatMap((b) => b.columns[n] ?? new Array<null>(b.length).fill(null))]),
  );
  return { length: batches.reduce((sum, b) => sum + b.length, 0), columns };
}

/** Rows `from` until `to` (the end by default) of a batch, as a batch of their own. */
export function sliceBatch(batch: ColumnBatch, from: number, to = batch.length): ColumnBatch {
  const end = Math.min(to, batch.length);
  if (from === 0 && end === batch.length) return batch;
  return {
    length: Math.max(0, end - from),
    columns: Object.fromEntries(Object.entries(batch.columns).map(([n, v]) => [n, v.slice(from, end)])),
  };
}
