import {
  AsyncByteQueue,
  makeBuilder,
  makeData,
  RecordBatch,
  RecordBatchStreamWriter,
  Struct,
  Table,
  type Data,
  type DataType,
  type Schema,
} from 'apache-arrow';
import { column, parsed } from '../query/row-json.ts';
import type { ColumnBatch, ShapeNode, ValueType } from '../query/row-shape.ts';
import type { RowsResult } from '../query/rows-result.ts';
import { arrowSchema } from './arrow-schema.ts';
import { slices, tableShape } from './table-shape.ts';
import { loopTurn } from '../query/loop-turns.ts';

const isNull = (v: unknown) => v === null || v === undefined;

/** A backend value as an Arrow builder takes it; the same values the JSON shows (instants to the second, non-finite floats null). */
function arrowValue(type: ValueType): (v: unknown) => unknown {
  if (typeof type !== 'string') {
    if ('list' in type) {
      const item = arrowValue(type.list);
      return (v) => (isNull(v) ? null : (v as unknown[]).map(item));
    }
    const fields = type.struct.map((f) => [f.name, arrowValue(f.type)] as const);
    return (v) =>
      isNull(v)
        ? null
        : Object.fromEntries(fields.map(([name, read]) => [name, read((v as Record<string, unknown>)[name])]));
  }
  switch (type) {
    case 'text':
      return (v) => (isNull(v) ? null : String(v));
    case 'boolean':
      return (v) => (isNull(v) ? null : Boolean(v));
    case 'integer':
      return (v) =>
        typeof v === 'bigint' ? v : isNull(v) || !Number.isFinite(Number(v)) ? null : BigInt(Math.trunc(Number(v)));
    case 'float':
      return (v) => (isNull(v) || !Number.isFinite(Number(v)) ? null : Number(v));
    case 'date':
      return (v) => (isNull(v) ? null : v instanceof Date ? v : new Date(String(v)));
    case 'instant':
      return (v) => {
        const ms = isNull(v) ? NaN : v instanceof Date ? v.getTime() : Date.parse(String(v));
        return Number.isNaN(ms) ? null : Math.floor(ms / 1000) * 1000;
      };
  }
}

/** Compiles a node of a table shape into a builder of its Arrow data for one batch. */
function nodeData(node: ShapeNode, type: DataType): (batch: ColumnBatch) => Data {
  if (node.kind === 'value') {
    const typed = arrowValue(node.type);
    const read = node.wire === 'json' ? (v: unknown) => typed(parsed(v)) : typed;
    return (batch) => {
      const values = column(batch, node.column);
      const builder = makeBuilder({ type, nullValues: [null, undefined] });
      for (let i = 0; i < batch.length; i++) builder.append(read(values[i]));
      return builder.finish().flush();
    };
  }
  const fields = node.kind === 'object' ? node.fields : node.items;
  const children = fields.map((f, j) => nodeData(f.node, (type as Struct).children[j]!.type));
  const nullWhen = node.kind === 'object' ? node.nullWhen : undefined;
  return (batch) => {
    const kids = children.map((c) => c(batch));
    if (!nullWhen) return makeData({ type: type as Struct, length: batch.length, nullCount: 0, children: kids });
    const guard = column(batch, nullWhen);
    const valid = new Uint8Array((batch.length + 7) >> 3);
    let nullCount = 0;
    for (let i = 0; i < batch.length; i++) {
      if (isNull(guard[i])) nullCount++;
      else valid[i >> 3]! |= 1 << (i & 7);
    }
    return makeData({ type: type as Struct, length: batch.length, nullCount, nullBitmap: valid, children: kids });
  };
}

/** The schema (with the head), then the rows as record batches of at most 2,048 rows, built a column at a time within the process's loop budget. */
async function* arrowParts(result: RowsResult): AsyncGenerator<Schema | RecordBatch> {
  const table = tableShape(result.shape);
  let schema: Schema | undefined;
  let build: ((batch: ColumnBatch) => Data)[] = [];
  for await (const part of slices(result)) {
    if (!('batch' in part)) {
      schema = arrowSchema(result.shape, part.head);
      build = table.fields.map((f, j) => nodeData(f.node, schema!.fields[j]!.type));
      yield schema;
    } else if (part.batch.length > 0) {
      const children: Data[] = [];
      for (const b of build) {
        await loopTurn();
        children.push(b(part.batch));
      }
      yield new RecordBatch(
        schema!,
        makeData({ type: new Struct(schema!.fields), length: part.batch.length, nullCount: 0, children }),
      );
    }
  }
}

/** The rows as Arrow record batches; each batch's schema carries the head under `aea:head`. */
export async function* arrowBatches(result: RowsResult): AsyncGenerator<RecordBatch> {
  for await (const part of arrowParts(result)) if (part instanceof RecordBatch) yield part;
}

/** The whole result as one Arrow table (its schema, with the head, even when there are no rows). */
export async function arrowTable(result: RowsResult): Promise<Table> {
  let schema: Schema | undefined;
  const batches: RecordBatch[] = [];
  for await (const part of arrowParts(result)) {
    if (part instanceof RecordBatch) batches.push(part);
    else schema = part;
  }
  return new Table(schema!, batches);
}

/** Collects what the IPC writer writes, so each batch's bytes can be handed on as soon as they exist. */
class Collected extends AsyncByteQueue {
  parts: Uint8Array[] = [];
  override write(value: Uint8Array): void {
    if (value.byteLength > 0) this.parts.push(value);
  }
  take(): Uint8Array {
    const out = Buffer.concat(this.parts);
    this.parts = [];
    return out;
  }
}

/** The Arrow IPC stream format: the schema message, one message per batch, then the end-of-stream marker. */
export async function* arrowIpc(result: RowsResult): AsyncGenerator<Uint8Array> {
  const sink = new Collected();
  const writer = new RecordBatchStreamWriter();
  for await (const part of arrowParts(result)) {
    if (part instanceof RecordBatch) writer.write(part);
    else writer.reset(sink, part);
    yield sink.take();
  }
  writer.finish();
  yield sink.take();
}

/** The Arrow IPC stream format's end-of-stream marker: a continuation token and a zero length. */
const endOfStream = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0);

/**
 * Whether Arrow IPC stream bytes end with the end-of-stream marker. A stream cut between two batches
 * (an interrupted export to standard output) reads without error as fewer rows; only the marker tells
 * a whole stream from a truncated one.
 */
export function isCompleteArrowStream(bytes: Uint8Array): boolean {
  if (bytes.byteLength < endOfStream.byteLength) return false;
  const tail = bytes.subarray(bytes.byteLength - endOfStream.byteLength);
  return tail.every((b, i) => b === endOfStream[i]);
}
