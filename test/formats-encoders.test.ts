import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { negotiate } from '../src/formats/accept.ts';
import { arrowBatches, arrowIpc, arrowTable } from '../src/formats/arrow.ts';
import { csvField } from '../src/formats/csv.ts';
import { encodeRows } from '../src/formats/encode.ts';
import { pageJson } from '../src/formats/json.ts';
import { array, field, object, value, type ColumnBatch, type RowShape } from '../src/query/row-shape.ts';
import type { RowsResult } from '../src/reports/endpoint.ts';
import { asJson, csvTable, ndjsonRows, parquetRead, saved } from './helpers/formats.ts';
import { tempDir } from './helpers/tmp.ts';

async function batchOf(query: string): Promise<ColumnBatch> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const reader = await conn.runAndReadAll(query);
    const names = reader.columnNames();
    const columns = reader.getColumnsJS();
    return { length: reader.currentRowCount, columns: Object.fromEntries(names.map((n, i) => [n, columns[i]!])) };
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** A rows result over batches already read; `closed` counts how often its read was stopped or ended. */
function rowsOf(
  shape: RowShape,
  head: Record<string, unknown>,
  batches: ColumnBatch[],
  framing: 'page' | 'stream' = 'page',
): RowsResult & { closed: number; read_batches: number } {
  const result = {
    kind: 'rows' as const,
    framing,
    shape,
    closed: 0,
    read_batches: 0,
    read: async function* () {
      try {
        yield { head };
        for (const batch of batches) {
          result.read_batches++;
          yield { batch };
        }
      } finally {
        result.closed++;
      }
    },
  };
  return result;
}

const shape: RowShape = {
  fields: [
    field('date', value('day', 'date')),
    field(
      'model',
      object([field('id', value('model_id', 'text')), field('name', value('model_name', 'text'))], 'model_id'),
    ),
    field('n', value('n', 'integer')),
    field('score', value('score', 'float')),
    field('at', value('at', 'instant')),
    field('tags', value('tags', { list: 'text' }, 'json')),
    field(
      'merchants',
      value('merchants', {
        list: {
          struct: [
            { name: 'name', type: 'text' },
            { name: 'price', type: 'float' },
          ],
        },
      }),
    ),
    field('pair', array([field('visits', value('n', 'integer')), field('label', value('model_name', 'text'))])),
  ],
};

const rows = `SELECT * FROM (VALUES
  (1, DATE '2026-03-08', 'm1', 'GPT "4o", new', 12::BIGINT, 0.1::DOUBLE + 0.2::DOUBLE, TIMESTAMPTZ '2026-03-08 07:30:00.750+00', '["a,b", ""]', [{'name': 'A', 'price': 1.5}]),
  (2, DATE '2026-03-09', NULL, NULL, NULL::BIGINT, 'inf'::DOUBLE, NULL, '[]', []),
  (3, NULL, 'm2', '', 9007199254740991::BIGINT, -0.0, TIMESTAMPTZ '1969-12-31 23:59:59.500+00', NULL, NULL),
  (4, DATE '2026-03-10', 'm3', E'two\\nlines', 7::BIGINT, 'nan'::DOUBLE, TIMESTAMPTZ '2026-11-01 05:59:59+00', '["x"]', [{'name': NULL, 'price': NULL}])
) t(unit, day, model_id, model_name, n, score, "at", tags, merchants)`;

const head = { total: 4, filter: { field: 'model', op: 'is', value: 'é "q"' } };

async function text(result: RowsResult, format: 'csv' | 'ndjson'): Promise<string> {
  let out = '';
  for await (const piece of encodeRows(result, format)) out += piece as string;
  return out;
}

async function bytes(result: RowsResult, format: 'arrow' | 'parquet'): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  for await (const piece of encodeRows(result, format)) pieces.push(piece as Uint8Array);
  return Buffer.concat(pieces);
}

describe('the encoders on edge values', () => {
  it('CSV: dotted paths, NULL empty and the empty string quoted, quotes doubled, lists and structs as JSON, a null object empty', async () => {
    const csv = await text(rowsOf(shape, head, [await batchOf(rows)]), 'csv');
    expect(csv).toBe(
      [
        'date,model.id,model.name,n,score,at,tags,merchants,pair.visits,pair.label',
        '2026-03-08,m1,"GPT ""4o"", new",12,0.30000000000000004,2026-03-08T07:30:00Z,"[""a,b"",""""]","[{""name"":""A"",""price"":1.5}]",12,"GPT ""4o"", new"',
        '2026-03-09,,,,,,[],[],,',
        ',m2,"",9007199254740991,0,1969-12-31T23:59:59Z,,,9007199254740991,""',
        '2026-03-10,m3,"two\nlines",7,,2026-11-01T05:59:59Z,"[""x""]","[{""name"":null,""price"":null}]",7,"two\nlines"',
        '',
      ].join('\n'),
    );
    expect(csvField('')).toBe('""');
    expect(csvField(null)).toBe('');
    expect(csvField('plain')).toBe('plain');
  });

  it('CSV and NDJSON read back by DuckDB give the JSON rows, NULL and "" apart', async () => {
    const dir = await tempDir();
    const batch = await batchOf(rows);
    const json = JSON.parse(await pageJson(rowsOf(shape, head, [batch]))) as { data: Record<string, unknown>[] };
    expect(await ndjsonRows(await saved(dir, 'r.ndjson', await text(rowsOf(shape, head, [batch]), 'ndjson')))).toEqual(
      json.data,
    );
    const csv = await csvTable(await saved(dir, 'r.csv', await text(rowsOf(shape, head, [batch]), 'csv')));
    expect(csv.cells.map((r) => r[2])).toEqual(['GPT "4o", new', null, '', 'two\nlines']);
  });

  it('Arrow: typed columns, the head as metadata, values as the JSON shows them (instants to the second, non-finite floats null)', async () => {
    const batch = await batchOf(rows);
    const json = JSON.parse(await pageJson(rowsOf(shape, head, [batch]))) as { data: Record<string, unknown>[] };
    const table = tableFromIPC(await bytes(rowsOf(shape, head, [batch]), 'arrow'));
    expect(table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual([
      'date: Date32<DAY>',
      'model: Struct<{id:Utf8, name:Utf8}>',
      'n: Int64',
      'score: Float64',
      'at: Timestamp<MILLISECOND, UTC>',
      'tags: List<Utf8>',
      'merchants: List<Struct<{name:Utf8, price:Float64}>>',
      'pair: Struct<{visits:Int64, label:Utf8}>',
    ]);
    expect(JSON.parse(table.schema.metadata.get('aea:head')!)).toEqual(head);
    expect(table.getChild('n')!.get(2)).toBe(9007199254740991n);
    expect(table.getChild('model')!.nullCount).toBe(1);
    expect(table.toArray().map((r, i) => asJson(r.toJSON(), json.data[i]))).toEqual(json.data);
  });

  it('Parquet: the same types and values read back by DuckDB, the head in the key-value metadata', async () => {
    const dir = await tempDir();
    const batch = await batchOf(rows);
    const json = JSON.parse(await pageJson(rowsOf(shape, head, [batch]))) as { data: Record<string, unknown>[] };
    const read = await parquetRead(await saved(dir, 'r.parquet', await bytes(rowsOf(shape, head, [batch]), 'parquet')));
    expect(read.head).toEqual(head);
    expect(read.types).toEqual({
      date: 'DATE',
      model: 'STRUCT("id" VARCHAR, "name" VARCHAR)',
      n: 'BIGINT',
      score: 'DOUBLE',
      at: 'TIMESTAMP WITH TIME ZONE',
      tags: 'VARCHAR[]',
      merchants: 'STRUCT("name" VARCHAR, "price" DOUBLE)[]',
      pair: 'STRUCT("visits" BIGINT, "label" VARCHAR)',
    });
    expect(read.rows.map((r, i) => asJson(r, json.data[i]))).toEqual(json.data);
  });

  it('a result without rows: a CSV header, empty NDJSON, an Arrow schema with the head, a Parquet file with its columns', async () => {
    const dir = await tempDir();
    const empty = () => rowsOf(shape, head, []);
    expect(await text(empty(), 'csv')).toBe(
      'date,model.id,model.name,n,score,at,tags,merchants,pair.visits,pair.label\n',
    );
    expect(await text(empty(), 'ndjson')).toBe('');
    const table = tableFromIPC(await bytes(empty(), 'arrow'));
    expect([table.numRows, table.schema.fields.length, JSON.parse(table.schema.metadata.get('aea:head')!)]).toEqual([
      0,
      8,
      head,
    ]);
    const library = await arrowTable(empty());
    expect([library.numRows, library.schema.fields.length]).toEqual([0, 8]);
    const parquet = await parquetRead(await saved(dir, 'empty.parquet', await bytes(empty(), 'parquet')));
    expect([parquet.rows.length, Object.keys(parquet.types).length, parquet.head]).toEqual([0, 8, head]);
  });

  it('encodes a large batch in slices of at most 2,048 rows, and stopping early stops the read', async () => {
    const big = await batchOf(
      `SELECT i AS unit, DATE '2026-01-01' + (i % 30)::INTEGER AS day, 'm' || i AS model_id, 'name ' || i AS model_name, i::BIGINT AS n, i / 3 AS score, TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_seconds(i) AS "at", '["t"]' AS tags, [] AS merchants FROM range(5000) r(i)`,
    );
    const sizes: number[] = [];
    for await (const b of arrowBatches(rowsOf(shape, head, [big]))) sizes.push(b.numRows);
    expect(sizes).toEqual([2048, 2048, 904]);
    let pieces = 0;
    for await (const piece of encodeRows(rowsOf(shape, head, [big]), 'csv'))
      pieces += (piece as string).split('\n').length - 1;
    expect(pieces).toBe(5001);

    const stream = rowsOf(shape, head, [big, big, big], 'stream');
    for await (const _ of arrowIpc(stream)) break;
    expect([stream.read_batches, stream.closed]).toEqual([0, 1]);
    const pulled = rowsOf(shape, head, [big, big, big], 'stream');
    let seen = 0;
    for await (const _ of encodeRows(pulled, 'ndjson')) if (++seen === 2) break;
    expect([pulled.read_batches, pulled.closed]).toEqual([1, 1]);
  });
});

describe('Accept negotiation', () => {
  const cases: [string | undefined, boolean, string | null][] = [
    [undefined, false, 'json'],
    ['', true, 'json'],
    ['*/*', false, 'json'],
    ['application/json', false, 'json'],
    ['application/json', true, 'json'],
    ['text/event-stream', true, 'json'],
    ['text/event-stream', false, null],
    ['text/csv', false, 'csv'],
    ['TEXT/CSV; charset=utf-8', true, 'csv'],
    ['text/*', false, 'csv'],
    ['text/*', true, 'json'],
    ['application/*', false, 'json'],
    ['application/x-ndjson', true, 'ndjson'],
    ['application/vnd.apache.arrow.stream', false, 'arrow'],
    ['application/vnd.apache.parquet', true, 'parquet'],
    ['text/csv;q=0.5, application/x-ndjson', false, 'ndjson'],
    ['application/json;q=0, text/csv;q=0.1', false, 'csv'],
    ['application/json;q=0.2, */*;q=0.9', false, 'ndjson'],
    ['text/csv;q=0', false, null],
    ['application/xml', false, null],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false, 'json'],
    ['garbage', false, null],
  ];
  it.each(cases)('%s (stream %s) → %s', (accept, stream, format) => {
    expect(negotiate(accept, stream)).toBe(format);
  });
});
