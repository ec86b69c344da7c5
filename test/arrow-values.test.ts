import { tableFromIPC, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { arrowIpc, arrowTable, isCompleteArrowStream } from '../src/formats/arrow.ts';
import { arrowType } from '../src/formats/arrow-schema.ts';
import { array, field, object, value, type ColumnBatch, type RowShape } from '../src/query/row-shape.ts';
import type { RowsResult } from '../src/query/rows-result.ts';
import { rowsOf as rowsResult } from './helpers/rows-of.ts';

/**
 * The Arrow encoder (src/formats/arrow.ts) on the values a backend may hand it beyond DuckDB's typed columns:
 * JSON-wire text, numbers where BIGINTs are expected, ISO text for days and instants, booleans, non-finite
 * numbers, null structs and lists; and the IPC stream's end marker.
 */

const rowsOf = (shape: RowShape, batches: ColumnBatch[], head: Record<string, unknown> = { n: 1 }): RowsResult =>
  rowsResult(shape, batches, head);

async function ipc(result: RowsResult): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  for await (const piece of arrowIpc(result)) pieces.push(piece);
  return Buffer.concat(pieces);
}

/** Each column's values as plain JS (Arrow structs as objects, lists as arrays, dates as epoch milliseconds). */
const plain = (v: unknown): unknown => {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'object' && 'toJSON' in v && typeof v.toJSON === 'function') return plain(v.toJSON());
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
};
const columnsOf = (table: Table) =>
  Object.fromEntries(table.schema.fields.map((f) => [f.name, [...table.getChild(f.name)!].map(plain)]));

const shape: RowShape = {
  fields: [
    field('flag', value('flag', 'boolean')),
    field('n', value('n', 'integer')),
    field('x', value('x', 'float')),
    field('day', value('day', 'date')),
    field('at', value('at', 'instant')),
    field('label', value('label', 'text')),
    field('tags', value('tags', { list: 'integer' }, 'json')),
    field(
      'ref',
      value('ref', {
        struct: [
          { name: 'id', type: 'text' },
          { name: 'seen', type: 'instant' },
        ],
      }),
    ),
    field('who', object([field('id', value('who_id', 'text'))])),
    field('pair', array([field('a', value('n', 'integer')), field('b', value('flag', 'boolean'))])),
  ],
};

const batch: ColumnBatch = {
  length: 4,
  columns: {
    flag: [true, false, null, 1],
    n: [7, 2.9, Number.NaN, -3.5],
    x: [1.5, 4n, Number.POSITIVE_INFINITY, '2.25'],
    day: ['2026-03-08', new Date(Date.UTC(2026, 2, 9)), null, undefined],
    at: ['2026-03-08T07:30:59.750Z', new Date(Date.UTC(2026, 2, 8, 7, 30, 1, 999)), 'not a date', null],
    label: [12, 'b', null, ''],
    tags: ['[1, 2]', '[]', null, [3]],
    ref: [{ id: 'r1', seen: '2026-01-01T00:00:00.500Z' }, null, { id: null, seen: null }, { id: 'r4' }],
    who_id: ['w1', null, 'w3', 'w4'],
  },
};

describe('Arrow values', () => {
  it('are the values the JSON shows, whatever JS type the backend gave', async () => {
    const table = tableFromIPC(await ipc(rowsOf(shape, [batch])));
    expect(table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual([
      'flag: Bool',
      'n: Int64',
      'x: Float64',
      'day: Date32<DAY>',
      'at: Timestamp<MILLISECOND, UTC>',
      'label: Utf8',
      'tags: List<Int64>',
      'ref: Struct<{id:Utf8, seen:Timestamp<MILLISECOND, UTC>}>',
      'who: Struct<{id:Utf8}>',
      'pair: Struct<{a:Int64, b:Bool}>',
    ]);
    expect(columnsOf(table)).toEqual({
      flag: [true, false, null, true],
      n: [7n, 2n, null, -3n],
      x: [1.5, 4, null, 2.25],
      day: [Date.UTC(2026, 2, 8), Date.UTC(2026, 2, 9), null, null],
      at: [Date.UTC(2026, 2, 8, 7, 30, 59), Date.UTC(2026, 2, 8, 7, 30, 1), null, null],
      label: ['12', 'b', null, ''],
      tags: [[1n, 2n], [], null, [3n]],
      ref: [{ id: 'r1', seen: Date.UTC(2026, 0, 1) }, null, { id: null, seen: null }, { id: 'r4', seen: null }],
      who: [{ id: 'w1' }, { id: null }, { id: 'w3' }, { id: 'w4' }],
      pair: [
        { a: 7n, b: true },
        { a: 2n, b: false },
        { a: null, b: null },
        { a: -3n, b: true },
      ],
    });
    expect(table.getChild('who')!.nullCount).toBe(0);
    expect(table.getChild('ref')!.nullCount).toBe(1);
  });

  it('a guarded object is null on the rows its guard column is null, across bytes of the validity map', async () => {
    const guarded: RowShape = {
      fields: [field('m', object([field('id', value('id', 'text'))], 'id')), field('k', value('k', 'integer'))],
    };
    const ids = Array.from({ length: 19 }, (_, i) => (i % 3 === 1 ? null : `m${i}`));
    const t = await arrowTable(rowsOf(guarded, [{ length: 19, columns: { id: ids, k: ids.map((_, i) => i) } }]));
    expect(t.getChild('m')!.nullCount).toBe(6);
    expect([...t.getChild('m')!].map((r) => (r === null ? null : plain(r)))).toEqual(
      ids.map((id) => (id === null ? null : { id })),
    );
    expect(JSON.parse(t.schema.metadata.get('aea:head')!)).toEqual({ n: 1 });
  });

  it('an IPC stream ends with the end-of-stream marker; a stream cut short does not', async () => {
    const bytes = await ipc(rowsOf(shape, [batch, batch]));
    expect(tableFromIPC(bytes).numRows).toBe(8);
    expect(isCompleteArrowStream(bytes)).toBe(true);
    expect([...bytes.subarray(-8)]).toEqual([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    expect(isCompleteArrowStream(bytes.subarray(0, -8))).toBe(false);
    expect(isCompleteArrowStream(bytes.subarray(0, -1))).toBe(false);
    const flipped = Uint8Array.from(bytes);
    flipped[flipped.length - 8] = 0xfe;
    expect(isCompleteArrowStream(flipped)).toBe(false);
    expect(isCompleteArrowStream(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0))).toBe(false);
    expect(isCompleteArrowStream(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0))).toBe(true);
    expect(isCompleteArrowStream(new Uint8Array(0))).toBe(false);
  });

  it('sends the schema as soon as the head is read, each batch as it comes, and no empty piece', async () => {
    const pieces: Uint8Array[] = [];
    for await (const piece of arrowIpc(rowsOf(shape, [batch, { length: 0, columns: {} }, batch]))) pieces.push(piece);
    expect(pieces.every((p) => p.byteLength > 0)).toBe(true);
    expect(pieces).toHaveLength(4);
    expect(tableFromIPC(Buffer.concat(pieces.slice(0, 2))).numRows).toBe(4);
    expect(isCompleteArrowStream(pieces.at(-1)!)).toBe(true);
  });

  it('declares every column, struct field and list item nullable, a list’s item named item', async () => {
    const schema = tableFromIPC(await ipc(rowsOf(shape, [batch]))).schema;
    type Node = { name: string; nullable: boolean; type: { children?: Node[] | null } };
    const walk = (f: Node, path: string): string[] => [
      `${path}${f.name}${f.nullable ? '?' : ''}`,
      ...(f.type.children ?? []).flatMap((c) => walk(c, `${path}${f.name}.`)),
    ];
    expect(schema.fields.flatMap((f) => walk(f as unknown as Node, ''))).toEqual([
      'flag?',
      'n?',
      'x?',
      'day?',
      'at?',
      'label?',
      'tags?',
      'tags.item?',
      'ref?',
      'ref.id?',
      'ref.seen?',
      'who?',
      'who.id?',
      'pair?',
      'pair.a?',
      'pair.b?',
    ]);
  });

  it('keeps 64-bit integers exact, and a table holds every batch', async () => {
    const big: RowShape = { fields: [field('n', value('n', 'integer'))] };
    const exact = [9_007_199_254_740_993n, -(2n ** 63n), 2n ** 63n - 1n];
    const t = await arrowTable(
      rowsOf(big, [
        { length: 2, columns: { n: exact.slice(0, 2) } },
        { length: 1, columns: { n: exact.slice(2) } },
      ]),
    );
    expect(t.numRows).toBe(3);
    expect([...t.getChild('n')!]).toEqual(exact);
  });

  it('types lists of lists and structs in lists', () => {
    expect(String(arrowType({ list: { list: 'date' } }))).toBe('List<List<Date32<DAY>>>');
    expect(String(arrowType({ list: { struct: [{ name: 'b', type: 'boolean' }] } }))).toBe('List<Struct<{b:Bool}>>');
  });
});
