import { describe, expect, it } from 'vitest';
import { csvText, type CsvOptions } from '../src/formats/csv.ts';
import { field, object, value, type ColumnBatch, type RowShape } from '../src/query/row-shape.ts';
import type { RowsResult } from '../src/query/rows-result.ts';

/**
 * CSV cells the compiled writer (src/formats/csv.ts) must get right beyond the common types: objects
 * inside objects emptied by either one's null, guard columns the rows lack, a value column the rows
 * lack, scalars that cross as JSON text, values a backend sends as text (ClickHouse's days and 64-bit
 * integers), and the raw and spreadsheet-safe forms of one shape side by side.
 */

const rowsOf = (shape: RowShape, batch: ColumnBatch): RowsResult => ({
  kind: 'rows',
  framing: 'page',
  shape,
  read: async function* () {
    yield { head: {} };
    yield { batch };
  },
});

async function csv(shape: RowShape, batch: ColumnBatch, options?: CsvOptions): Promise<string> {
  let out = '';
  for await (const piece of csvText(rowsOf(shape, batch), options)) out += piece;
  return out;
}

describe('CSV cells', () => {
  it('an object inside an object is empty when either is null', async () => {
    const shape: RowShape = {
      fields: [
        field('n', value('n', 'integer')),
        field(
          'asset',
          object(
            [
              field('id', value('asset_id', 'text')),
              field('owner', object([field('name', value('owner_name', 'text'))], 'owner_id')),
            ],
            'asset_id',
          ),
        ),
      ],
    };
    const batch = {
      length: 3,
      columns: {
        n: [1, 2, 3],
        asset_id: ['a1', null, 'a3'],
        owner_id: ['o1', 'o2', null],
        owner_name: ['Ann', 'Bob', 'Cy'],
      },
    };
    expect(await csv(shape, batch)).toBe('n,asset.id,asset.owner.name\n1,a1,Ann\n2,,\n3,a3,\n');
  });

  it('a guard column the rows lack reads as all null; a value column they lack is an error', async () => {
    const shape: RowShape = {
      fields: [field('model', object([field('name', value('model_name', 'text'))], 'model_id'))],
    };
    expect(await csv(shape, { length: 2, columns: { model_name: ['GPT', 'Claude'] } })).toBe('model.name\n\n\n');
    await expect(csv(shape, { length: 1, columns: { model_id: ['m1'] } })).rejects.toThrow(
      'the rows query returned no column "model_name"',
    );
  });

  it('a scalar that crosses as JSON text is written as its value', async () => {
    const shape: RowShape = {
      fields: [field('label', value('label', 'text', 'json')), field('n', value('n', 'integer', 'json'))],
    };
    const batch = { length: 3, columns: { label: ['"a,b"', '"=1+1"', 'null'], n: ['12', '-3', 'null'] } };
    expect(await csv(shape, batch)).toBe('label,n\n"a,b",12\n\'=1+1,-3\n,\n');
    expect(await csv(shape, batch, { raw: true })).toBe('label,n\n"a,b",12\n=1+1,-3\n,\n');
  });

  it('days, instants and 64-bit integers a backend sends as text are written as they are', async () => {
    const shape: RowShape = {
      fields: [
        field('date', value('day', 'date')),
        field('at', value('at', 'instant')),
        field('visits', value('visits', 'integer')),
      ],
    };
    const batch = {
      length: 2,
      columns: {
        day: ['2026-03-08', new Date(Date.UTC(2026, 2, 9))],
        at: ['2026-03-08T07:30:00Z', new Date(Date.UTC(2026, 2, 9, 1, 2, 3, 900))],
        visits: ['18446744073709551615', 7],
      },
    };
    expect(await csv(shape, batch)).toBe(
      'date,at,visits\n2026-03-08,2026-03-08T07:30:00Z,18446744073709551615\n2026-03-09,2026-03-09T01:02:03Z,7\n',
    );
  });

  it('one shape written raw and spreadsheet-safe, in either order, each as asked', async () => {
    const shape: RowShape = { fields: [field('topic', value('topic_name', 'text'))] };
    const batch = { length: 2, columns: { topic_name: ['=HYPERLINK("x")', '-1'] } };
    const safe = 'topic\n"\'=HYPERLINK(""x"")"\n\'-1\n';
    const raw = 'topic\n"=HYPERLINK(""x"")"\n-1\n';
    expect(await csv(shape, batch, { raw: true })).toBe(raw);
    expect(await csv(shape, batch)).toBe(safe);
    expect(await csv(shape, batch, { raw: false })).toBe(safe);
    expect(await csv(shape, batch, { raw: true })).toBe(raw);
  });
});
