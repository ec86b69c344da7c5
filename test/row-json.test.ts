import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { rowReader, rowWriter } from '../src/query/row-json.ts';
import { array, field, object, value, type ColumnBatch, type RowShape } from '../src/query/row-shape.ts';

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

const shape: RowShape = {
  fields: [
    field('date', value('day', 'date')),
    field(
      'model',
      object([field('id', value('model_id', 'text')), field('name', value('model_name', 'text'))], 'model_id'),
    ),
    field('n', value('n', 'integer')),
    field('score', value('score', 'float')),
    field('owned', value('owned', 'boolean')),
    field('at', value('at', 'instant')),
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

describe('rows as JSON from typed columns', () => {
  it('writes days, instants, nulls, 64-bit integers, non-finite floats, structs and lists as the spec JSON', async () => {
    const batch = await batchOf(`SELECT * FROM (VALUES
      (DATE '2026-03-08', 'm1', 'GPT "4o"', 12::BIGINT, 0.1::DOUBLE + 0.2::DOUBLE, true, TIMESTAMPTZ '2026-03-08 07:30:00.250+00', [{'name': 'A', 'price': 1.5}]),
      (DATE '2026-03-09', NULL, NULL, NULL::BIGINT, 'inf'::DOUBLE, NULL, NULL, []),
      (NULL, 'm2', '', 9007199254740991::BIGINT, -0.0, false, TIMESTAMPTZ '2026-11-01 05:59:59+00', NULL)
    ) t(day, model_id, model_name, n, score, owned, "at", merchants)`);
    const write = rowWriter(shape)(batch);
    const texts = [0, 1, 2].map(write);
    expect(texts[0]).toBe(
      '{"date":"2026-03-08","model":{"id":"m1","name":"GPT \\"4o\\""},"n":12,"score":0.30000000000000004,"owned":true,"at":"2026-03-08T07:30:00Z","merchants":[{"name":"A","price":1.5}],"pair":[12,"GPT \\"4o\\""]}',
    );
    expect(texts[1]).toBe(
      '{"date":"2026-03-09","model":null,"n":null,"score":null,"owned":null,"at":null,"merchants":[],"pair":[null,null]}',
    );
    expect(texts[2]).toBe(
      '{"date":null,"model":{"id":"m2","name":""},"n":9007199254740991,"score":0,"owned":false,"at":"2026-11-01T05:59:59Z","merchants":null,"pair":[9007199254740991,""]}',
    );
    const read = rowReader(shape)(batch);
    expect([0, 1, 2].map(read)).toEqual(texts.map((t) => JSON.parse(t)));
  });

  it('names a column the rows query did not return', async () => {
    const batch = await batchOf(`SELECT 1 AS n`);
    expect(() => rowWriter(shape)(batch)).toThrow(/no column "day"/);
  });
});
