import { describe, expect, it } from 'vitest';
import { flatColumns, flatText, tableShape } from '../src/formats/table-shape.ts';
import {
  array,
  dictionaryColumns,
  field,
  object,
  repeated,
  shapeColumns,
  value,
  type RowShape,
} from '../src/query/row-shape.ts';

/** A row shape as the columns of a flat table: exact paths, guards, struct leaves, and each cell's text. */

const shape: RowShape = {
  fields: [
    field('date', value('day', 'date')),
    field('model', object([field('id', repeated('model_id')), field('name', value('model_name', 'text'))], 'model_id')),
    field(
      'asset',
      object([
        field(
          'ref',
          value('ref', {
            struct: [
              { name: 'id', type: 'text' },
              { name: 'at', type: 'instant' },
            ],
          }),
        ),
        field('inner', object([field('n', value('n', 'integer'))], 'inner_id')),
      ]),
    ),
    field('metrics', array([field('visits', value('visits', 'integer')), field('share', value('share', 'float'))])),
    field('tags', value('tags', { list: 'text' }, 'json')),
    field('again', value('visits', 'integer')),
  ],
};

describe('the nodes of a shape', () => {
  it('say their wire and guard only when they have one', () => {
    expect(value('a', 'text')).toEqual({ kind: 'value', column: 'a', type: 'text' });
    expect(value('a', 'text', 'typed')).toEqual({ kind: 'value', column: 'a', type: 'text' });
    expect(value('a', 'text', 'json')).toEqual({ kind: 'value', column: 'a', type: 'text', wire: 'json' });
    expect(repeated('b')).toEqual({ kind: 'value', column: 'b', type: 'text', wire: 'dictionary' });
    expect(object([])).toEqual({ kind: 'object', fields: [] });
    expect(object([], '')).toEqual({ kind: 'object', fields: [] });
    expect(object([], 'g')).toEqual({ kind: 'object', fields: [], nullWhen: 'g' });
    expect(array([])).toEqual({ kind: 'array', items: [] });
  });

  it('read their columns in first-use order, each once, guards included; dictionary ones apart', () => {
    expect(shapeColumns(shape)).toEqual([
      'day',
      'model_id',
      'model_name',
      'ref',
      'inner_id',
      'n',
      'visits',
      'share',
      'tags',
    ]);
    expect(dictionaryColumns(shape)).toEqual(['model_id']);
    expect(
      dictionaryColumns({ fields: [field('m', array([field('x', repeated('x')), field('y', repeated('x'))]))] }),
    ).toEqual(['x']);
  });
});

describe('a shape as a table', () => {
  it('turns each fixed array into an object of its items', () => {
    const table = tableShape(shape);
    expect(table.fields[3]).toEqual(
      field('metrics', object([field('visits', value('visits', 'integer')), field('share', value('share', 'float'))])),
    );
    expect(table.fields.slice(0, 3)).toEqual(shape.fields.slice(0, 3));
    expect(
      tableShape({ fields: [field('o', object([field('a', array([field('b', value('b', 'text'))]))], 'g'))] }),
    ).toEqual({
      fields: [field('o', object([field('a', object([field('b', value('b', 'text'))]))], 'g'))],
    });
  });

  it('has a column per leaf at its dotted path, with the guards of the objects around it', () => {
    expect(flatColumns(shape)).toEqual([
      { path: 'date', column: 'day', type: 'date', guards: [] },
      { path: 'model.id', column: 'model_id', type: 'text', wire: 'dictionary', guards: ['model_id'] },
      { path: 'model.name', column: 'model_name', type: 'text', guards: ['model_id'] },
      { path: 'asset.ref.id', column: 'ref', type: 'text', guards: [], within: ['id'] },
      { path: 'asset.ref.at', column: 'ref', type: 'instant', guards: [], within: ['at'] },
      { path: 'asset.inner.n', column: 'n', type: 'integer', guards: ['inner_id'] },
      { path: 'metrics.visits', column: 'visits', type: 'integer', guards: [] },
      { path: 'metrics.share', column: 'share', type: 'float', guards: [] },
      { path: 'tags', column: 'tags', type: { list: 'text' }, wire: 'json', guards: [] },
      { path: 'again', column: 'visits', type: 'integer', guards: [] },
    ]);
    const nested = flatColumns({
      fields: [
        field(
          'a',
          object(
            [
              field(
                'b',
                object(
                  [
                    field(
                      'c',
                      value('c', { struct: [{ name: 'd', type: { struct: [{ name: 'e', type: 'integer' }] } }] }),
                    ),
                  ],
                  'gb',
                ),
              ),
            ],
            'ga',
          ),
        ),
      ],
    });
    expect(nested).toEqual([
      { path: 'a.b.c.d.e', column: 'c', type: 'integer', guards: ['ga', 'gb'], within: ['d', 'e'] },
    ]);
  });

  it('writes each cell as the JSON shows it, null under a null guard or struct', () => {
    const batch = {
      length: 4,
      columns: {
        day: [new Date('2026-03-01T00:00:00Z'), null, undefined, '2026-01-01'],
        model_id: ['m1', null, undefined, 'm4'],
        model_name: ['ü', 'hidden', 'hidden', null],
        ref: [{ id: 'r', at: new Date('2026-03-01T12:34:56.789Z') }, null, { id: null, at: null }, undefined],
        inner_id: [1, null, 3, 4],
        n: [5n, 6, Number.NaN, -0],
        visits: [7, 8, 9, 10],
        share: [Infinity, 0.5, null, 2 ** 53],
        tags: ['["a",null]', null, '[]', ['x']],
      },
    };
    const texts = flatColumns(shape).map((c) => {
      const at = flatText(c)(batch);
      return [c.path, [0, 1, 2, 3].map(at)];
    });
    expect(Object.fromEntries(texts)).toEqual({
      date: ['2026-03-01', null, null, '2026-01-01'],
      'model.id': ['m1', null, null, 'm4'],
      'model.name': ['ü', null, null, null],
      'asset.ref.id': ['r', null, null, null],
      'asset.ref.at': ['2026-03-01T12:34:56Z', null, null, null],
      'asset.inner.n': ['5', null, null, '0'],
      'metrics.visits': ['7', '8', '9', '10'],
      'metrics.share': [null, '0.5', null, '9007199254740992'],
      tags: ['["a",null]', null, '[]', '["x"]'],
      again: ['7', '8', '9', '10'],
    });
  });

  it('reads a missing list or a guard column the rows lack as null', () => {
    const [tags] = flatColumns({ fields: [field('tags', value('tags', { list: 'text' }))] });
    expect([0, 1].map(flatText(tags!)({ length: 2, columns: { tags: [undefined, ['a']] } }))).toEqual([null, '["a"]']);
    const [guarded] = flatColumns({ fields: [field('m', object([field('n', value('n', 'integer'))], 'm_id'))] });
    expect([0, 1].map(flatText(guarded!)({ length: 2, columns: { n: [1, 2] } }))).toEqual([null, null]);
  });

  it('names a column the rows lack', () => {
    const [date] = flatColumns(shape);
    expect(() => flatText(date!)({ length: 1, columns: {} })).toThrow('the rows query returned no column "day"');
  });
});
