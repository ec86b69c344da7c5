import type { DuckDBDataChunk, DuckDBResultReader, DuckDBVector } from '@duckdb/node-api';
import { JSDuckDBValueConverter } from './duckdb-api.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import { loopTurn } from '../query/loop-turns.ts';

/**
 * A whole result as one batch of JS columns, each column read chunk by chunk as `chunkBatch` reads one,
 * every chunk after the first within the process's loop budget (`loopTurn`): a 50,000-row page converted
 * at once held the event loop for up to 470 ms. The reader keeps its chunks to itself; when they are not
 * where @duckdb/node-api 1.5 keeps them (or do not add up to its row count) the package's own conversion
 * reads the result.
 */
export async function readerBatch(reader: DuckDBResultReader): Promise<ColumnBatch> {
  const names = reader.columnNames();
  const chunks = (reader as unknown as { chunks?: unknown }).chunks;
  const n = reader.currentRowCount;
  if (Array.isArray(chunks) && chunks.reduce((sum: number, c: DuckDBDataChunk) => sum + c.rowCount, 0) === n) {
    const columns: Record<string, unknown[]> = Object.fromEntries(names.map((name) => [name, new Array<unknown>(n)]));
    let at = 0;
    for (const [k, chunk] of (chunks as DuckDBDataChunk[]).entries()) {
      if (k > 0) await loopTurn();
      names.forEach((name, i) => readColumn(chunk, i, columns[name]!, at));
      at += chunk.rowCount;
    }
    return { length: n, columns };
  }
  const columns = reader.getColumnsJS();
  return { length: n, columns: Object.fromEntries(names.map((n, i) => [n, columns[i]!])) };
}

/**
 * One DuckDB chunk (at most 2,048 rows) as a batch of JS columns. Fixed-width columns are read straight
 * from the vector's memory (`vectorValues`); the rest go through the package's value converter.
 */
export function chunkBatch(names: readonly string[], chunk: DuckDBDataChunk): ColumnBatch {
  const columns: Record<string, readonly unknown[]> = {};
  names.forEach((name, i) => (columns[name] = readColumn(chunk, i, new Array<unknown>(chunk.rowCount), 0)));
  return { length: chunk.rowCount, columns };
}

/** Column `c` of a chunk written into `out` from `at`: from memory when it can be, else converted. */
function readColumn(chunk: DuckDBDataChunk, c: number, out: unknown[], at: number): unknown[] {
  if (vectorValues(chunk.getColumnVector(c), chunk.rowCount, out, at)) return out;
  let i = at;
  chunk.visitColumnValues(c, (value, _row, _column, type) => {
    out[i++] = JSDuckDBValueConverter(value, type, JSDuckDBValueConverter);
  });
  return out;
}

// The vectors' memory as the package lays it out (@duckdb/node-api 1.5): typed arrays `items` over the
// vector's data and a `validity` mask of 64-bit words from bit `offset` (null: every row valid). A vector
// that does not look so is read by the converter; test/column-reads.test.ts holds both reads equal.
interface RawVector {
  readonly type: { readonly typeId: number };
  readonly items?: unknown;
  readonly dataView?: unknown;
  readonly validity?: { readonly data: BigUint64Array | null; readonly offset: number };
}

const typeIds = { BOOLEAN: 1, BIGINT: 5, TIMESTAMP: 12, DATE: 13, TIMESTAMP_TZ: 31 } as const;
const small = new Set([2, 3, 4, 6, 7, 8, 10, 11]); // TINYINT … UINTEGER, FLOAT, DOUBLE: exact as JS numbers
const msPerDay = 86_400_000;
/** ±100,000,000 days: the range of a JS Date. */
const maxDays = 100_000_000;
const twoTo32 = 4_294_967_296;
/** |high word| under 2^20: the 64-bit value is under 2^52, so it and its µs → ms truncation are exact in a double. */
const safeHigh = 1 << 20;

/** Whether row `i` is valid, from the mask read as 32-bit words (little-endian, as every target of Node is). */
function validityOf(v: RawVector, n: number): ((i: number) => boolean) | null | undefined {
  const validity = v.validity;
  if (!validity || typeof validity.offset !== 'number') return undefined;
  if (validity.data === null) return null;
  if (!(validity.data instanceof BigUint64Array)) return undefined;
  const words = new Uint32Array(validity.data.buffer, validity.data.byteOffset, validity.data.length * 2);
  const offset = validity.offset;
  if ((offset + n + 31) >>> 5 > words.length) return undefined;
  return (i) => ((words[(offset + i) >>> 5]! >>> ((offset + i) & 31)) & 1) === 1;
}

/**
 * A vector's values as the converter gives them, read from its memory: numbers (64-bit integers as
 * numbers when they fit a double exactly, else bigints), booleans, Dates for DATE and TIMESTAMP(TZ);
 * undefined when the vector is of another type or layout (the caller converts it value by value). The
 * values go into `out` from `at` (a new array by default).
 */
export function vectorValues(
  vector: DuckDBVector,
  n: number,
  out: unknown[] = new Array<unknown>(n),
  at = 0,
): unknown[] | undefined {
  const v = vector as unknown as RawVector;
  const id = v.type.typeId;
  const valid = validityOf(v, n);
  if (valid === undefined) return undefined;
  const items = v.items;
  if (small.has(id)) {
    if (!ArrayBuffer.isView(items) || items instanceof BigInt64Array || items instanceof BigUint64Array)
      return undefined;
    const xs = items as unknown as ArrayLike<number>;
    if (xs.length < n) return undefined;
    for (let i = 0; i < n; i++) out[at + i] = valid === null || valid(i) ? xs[i] : null;
    return out;
  }
  if (id === typeIds.DATE) {
    if (!(items instanceof Int32Array) || items.length < n) return undefined;
    for (let i = 0; i < n; i++) {
      if (valid !== null && !valid(i)) out[at + i] = null;
      else if (items[i]! > maxDays || items[i]! < -maxDays) return undefined;
      else out[at + i] = new Date(items[i]! * msPerDay);
    }
    return out;
  }
  if (id === typeIds.BIGINT || id === typeIds.TIMESTAMP || id === typeIds.TIMESTAMP_TZ) {
    if (!(items instanceof BigInt64Array) || items.length < n) return undefined;
    const words = new Int32Array(items.buffer, items.byteOffset, n * 2);
    const micros = id !== typeIds.BIGINT;
    for (let i = 0; i < n; i++) {
      if (valid !== null && !valid(i)) {
        out[at + i] = null;
        continue;
      }
      const high = words[2 * i + 1]!;
      if (high >= safeHigh || high < -safeHigh) {
        if (micros) return undefined;
        out[at + i] = items[i];
        continue;
      }
      const x = high * twoTo32 + (words[2 * i]! >>> 0);
      // TRICKY: BigInt division truncates toward zero, as `x - (x % 1000)` does: negative instants match the converter's.
      out[at + i] = micros ? new Date((x - (x % 1000)) / 1000) : x;
    }
    return out;
  }
  if (id === typeIds.BOOLEAN) {
    const view = v.dataView;
    if (!(view instanceof DataView) || view.byteLength !== n) return undefined;
    for (let i = 0; i < n; i++) out[at + i] = valid === null || valid(i) ? view.getUint8(i) !== 0 : null;
    return out;
  }
  return undefined;
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
