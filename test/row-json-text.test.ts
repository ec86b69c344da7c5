import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  column,
  compileRows,
  compiledShapes,
  parsed,
  rowReader,
  rowWriter,
  scalarValue,
  valueText,
} from '../src/query/row-json.ts';
import { array, field, object, repeated, value, type ColumnBatch, type RowShape } from '../src/query/row-shape.ts';

// Exact texts of the JSON row writers over plain JS columns (no backend), one type, wire and node at a time.

const day = (s: string) => new Date(`${s}T00:00:00Z`);
const at = (s: string) => new Date(s);

/**
 * Column names carry a token of this run: the module keeps compiled shapes by their declaration, and these
 * cases test the compiler, so each run compiles its shapes afresh (the cache has its own case below).
 */
const run = randomUUID();
const col = (name: string) => `${name}_${run}`;

/** A batch of one column per name, its rows as given. */
function batch(columns: Record<string, readonly unknown[]>): ColumnBatch {
  const arrays = Object.values(columns);
  return {
    length: arrays.length === 0 ? 0 : arrays[0]!.length,
    columns: Object.fromEntries(Object.entries(columns).map(([n, v]) => [col(n), v])),
  };
}

/** Every row's text by the compiled `texts`, and checked against the other two compiled faces. */
function rows(shape: RowShape, b: ColumnBatch): string[] {
  const compiled = compileRows(shape);
  const texts = compiled.texts(b);
  const one = compiled.one(b);
  expect(Array.from({ length: b.length }, (_, i) => one(i))).toEqual(texts);
  const write = rowWriter(shape)(b);
  expect(Array.from({ length: b.length }, (_, i) => write(i))).toEqual(texts);
  return texts;
}

/** A one-field shape `{"x": …}` over column `x`. */
const single = (node: (c: string) => ReturnType<typeof value>) => ({ fields: [field('x', node(col('x')))] });

/** The `x` of each row, as the compiled writers write it. */
function cells(shape: RowShape, xs: readonly unknown[]): string[] {
  return rows(shape, batch({ x: xs })).map((t) => {
    expect(t.startsWith('{"x":') && t.endsWith('}')).toBe(true);
    return t.slice(5, -1);
  });
}

describe('scalarValue', () => {
  it('gives each scalar type its JSON value', () => {
    expect(scalarValue('integer', null)).toBe(null);
    expect(scalarValue('integer', undefined)).toBe(null);
    expect(scalarValue('text', undefined)).toBe(null);
    expect(scalarValue('integer', 9007199254740993n)).toBe(9007199254740992);
    expect(scalarValue('float', -5n)).toBe(-5);
    expect(scalarValue('integer', 12)).toBe(12);
    expect(scalarValue('float', 1.5)).toBe(1.5);
    expect(scalarValue('float', NaN)).toBe(null);
    expect(scalarValue('float', Infinity)).toBe(null);
    expect(scalarValue('integer', -Infinity)).toBe(null);
    expect(scalarValue('integer', '12')).toBe('12');
    expect(scalarValue('date', day('2026-03-08'))).toBe('2026-03-08');
    expect(scalarValue('date', day('1969-12-31'))).toBe('1969-12-31');
    expect(scalarValue('date', '2026-03-08')).toBe('2026-03-08');
    expect(scalarValue('instant', at('2026-03-08T07:30:00.250Z'))).toBe('2026-03-08T07:30:00Z');
    expect(scalarValue('instant', at('1960-01-02T03:04:05.999Z'))).toBe('1960-01-02T03:04:05Z');
    expect(scalarValue('instant', 'now')).toBe('now');
    expect(scalarValue('text', 'a')).toBe('a');
    expect(scalarValue('boolean', false)).toBe(false);
    expect(scalarValue('text', day('2026-03-08'))).toEqual(day('2026-03-08'));
  });
});

describe('valueText', () => {
  it('writes text, booleans and numbers', () => {
    const text = valueText('text');
    expect([null, undefined, '', 'a"b\\c\n\u0001', 'ü', 7].map(text)).toEqual([
      'null',
      'null',
      '""',
      '"a\\"b\\\\c\\n\\u0001"',
      '"ü"',
      '7',
    ]);
    const bool = valueText('boolean');
    expect([null, undefined, true, false, 1, 0].map(bool)).toEqual(['null', 'null', 'true', 'false', 'true', 'false']);
    const int = valueText('integer');
    expect([null, undefined, 0, -0, 12, -3, 9007199254740993n, NaN, '12'].map(int)).toEqual([
      'null',
      'null',
      '0',
      '0',
      '12',
      '-3',
      '9007199254740992',
      'null',
      '"12"',
    ]);
    const float = valueText('float');
    expect([0.1 + 0.2, 1e21, 1e-7, Infinity, -Infinity].map(float)).toEqual([
      '0.30000000000000004',
      '1e+21',
      '1e-7',
      'null',
      'null',
    ]);
  });

  it('writes days and instants as quoted text', () => {
    expect([day('2026-03-08'), '2026-03-09', null].map(valueText('date'))).toEqual([
      '"2026-03-08"',
      '"2026-03-09"',
      'null',
    ]);
    expect([at('2026-11-01T05:59:59.999Z'), 'x"', undefined].map(valueText('instant'))).toEqual([
      '"2026-11-01T05:59:59Z"',
      '"x\\""',
      'null',
    ]);
  });

  it('writes lists and structs, a missing field as null', () => {
    const list = valueText({ list: 'integer' });
    expect([null, undefined, [], [1], [1, null, NaN, 2n]].map(list)).toEqual([
      'null',
      'null',
      '[]',
      '[1]',
      '[1,null,null,2]',
    ]);
    const struct = valueText({
      struct: [
        { name: 'a "b"', type: 'text' },
        { name: 'n', type: 'integer' },
        { name: 'd', type: { list: 'date' } },
      ],
    });
    expect(struct(null)).toBe('null');
    expect(struct(undefined)).toBe('null');
    expect(struct({ 'a "b"': 'x', n: 2, d: [day('2026-01-02')] })).toBe('{"a \\"b\\"":"x","n":2,"d":["2026-01-02"]}');
    expect(struct({})).toBe('{"a \\"b\\"":null,"n":null,"d":null}');
    expect(valueText({ struct: [] })({})).toBe('{}');
  });
});

describe('column and parsed', () => {
  it('finds a column or names the missing one', () => {
    const b = { length: 1, columns: { a: [1] } };
    expect(column(b, 'a')).toEqual([1]);
    expect(() => column(b, 'b')).toThrow('the rows query returned no column "b"');
  });

  it('parses JSON text only', () => {
    expect(parsed('[1,"a"]')).toEqual([1, 'a']);
    expect(parsed('"s"')).toBe('s');
    const list = [1];
    expect(parsed(list)).toBe(list);
    expect(parsed(null)).toBe(null);
  });
});

describe('compiled row writers, by type', () => {
  it('write text, through the fast path and the slow one', () => {
    expect(
      cells(
        single((c) => value(c, 'text')),
        ['a', '', 'q"\\\n', null, undefined, 5, true],
      ),
    ).toEqual(['"a"', '""', '"q\\"\\\\\\n"', 'null', 'null', '5', 'true']);
  });

  it('write repeated text once quoted per distinct value', () => {
    const shape = {
      fields: [field('a', repeated(col('a'))), field('b', repeated(col('b'))), field('c', value(col('a'), 'text'))],
    };
    expect(rows(shape, batch({ a: ['m"1', 'm"1', null, 7, 'n'], b: ['z', 'y', 'z', undefined, ''] }))).toEqual([
      '{"a":"m\\"1","b":"z","c":"m\\"1"}',
      '{"a":"m\\"1","b":"y","c":"m\\"1"}',
      '{"a":null,"b":"z","c":null}',
      '{"a":7,"b":null,"c":7}',
      '{"a":"n","b":"","c":"n"}',
    ]);
  });

  it('write booleans', () => {
    expect(
      cells(
        single((c) => value(c, 'boolean')),
        [true, false, null, undefined, 1, 0, ''],
      ),
    ).toEqual(['true', 'false', 'null', 'null', 'true', 'false', 'false']);
  });

  it('write integers and floats, non-finite ones as null, 64-bit ones as numbers', () => {
    const xs = [0, -0, 12, -3.5, 0.1 + 0.2, 1e21, NaN, Infinity, -Infinity, 9007199254740993n, -2n, null, '7'];
    const expected = [
      '0',
      '0',
      '12',
      '-3.5',
      '0.30000000000000004',
      '1e+21',
      'null',
      'null',
      'null',
      '9007199254740992',
      '-2',
      'null',
      '"7"',
    ];
    expect(
      cells(
        single((c) => value(c, 'integer')),
        xs,
      ),
    ).toEqual(expected);
    expect(
      cells(
        single((c) => value(c, 'float')),
        xs,
      ),
    ).toEqual(expected);
  });

  it('write days and instants, other values through the slow path', () => {
    expect(
      cells(
        single((c) => value(c, 'date')),
        [day('2026-03-08'), day('1900-02-28'), null, '2026-01-01'],
      ),
    ).toEqual(['"2026-03-08"', '"1900-02-28"', 'null', '"2026-01-01"']);
    expect(
      cells(
        single((c) => value(c, 'instant')),
        [at('2026-03-29T01:00:00.500Z'), undefined, 'x', at('1999-12-31T23:59:59Z')],
      ),
    ).toEqual(['"2026-03-29T01:00:00Z"', 'null', '"x"', '"1999-12-31T23:59:59Z"']);
  });

  it('write typed lists and structs', () => {
    expect(
      cells(
        single((c) => value(c, { list: 'text' })),
        [['a', null], [], null],
      ),
    ).toEqual(['["a",null]', '[]', 'null']);
    const struct = {
      struct: [
        { name: 'd', type: 'date' as const },
        { name: 'n', type: 'integer' as const },
      ],
    };
    expect(
      cells(
        single((c) => value(c, struct)),
        [{ d: day('2026-05-01'), n: 2n }, null, {}],
      ),
    ).toEqual(['{"d":"2026-05-01","n":2}', 'null', '{"d":null,"n":null}']);
  });

  it('write lists sent as JSON text, as valueText writes the parsed list', () => {
    expect(
      cells(
        single((c) => value(c, { list: 'text' }, 'json')),
        ['["a", null, "\\u0041"]', '[]', null, undefined, '[1, "x"]', ['y', 'z']],
      ),
    ).toEqual(['["a",null,"A"]', '[]', 'null', 'null', '[1,"x"]', '["y","z"]']);
    expect(
      cells(
        single((c) => value(c, { list: 'integer' }, 'json')),
        ['[1, -0, 2.50]', '[1e400, null]', '["3"]', '[true]'],
      ),
    ).toEqual(['[1,0,2.5]', '[null,null]', '["3"]', '[true]']);
    expect(
      cells(
        single((c) => value(c, { list: 'float' }, 'json')),
        // A JSON null for the whole list, as a backend may write a list it has none of.
        ['[0.5]', 'null'],
      ),
    ).toEqual(['[0.5]', 'null']);
    expect(
      cells(
        single((c) => value(c, { list: 'boolean' }, 'json')),
        ['[true, false, null]', '[1, 0]'],
      ),
    ).toEqual(['[true,false,null]', '[true,false]']);
    expect(
      cells(
        single((c) => value(c, { list: 'date' }, 'json')),
        ['["2026-01-01", null]'],
      ),
    ).toEqual(['["2026-01-01",null]']);
  });

  it('write other values sent as JSON text through valueText of the parsed value', () => {
    const struct = { struct: [{ name: 'n', type: 'integer' as const }] };
    expect(
      cells(
        single((c) => value(c, struct, 'json')),
        ['{"n": 1, "m": 2}', '{}', null, { n: 3 }],
      ),
    ).toEqual(['{"n":1}', '{"n":null}', 'null', '{"n":3}']);
    expect(
      cells(
        single((c) => value(c, 'integer', 'json')),
        ['12', '"a"', null],
      ),
    ).toEqual(['12', '"a"', 'null']);
    expect(
      cells(
        single((c) => value(c, { list: { list: 'integer' } }, 'json')),
        ['[[1],[],null]'],
      ),
    ).toEqual(['[[1],[],null]']);
  });
});

describe('compiled row writers, by node', () => {
  const shape: RowShape = {
    fields: [
      field('n', value(col('n'), 'integer')),
      field(
        'model',
        object(
          [field('id', value(col('id'), 'text')), field('tags', object([field('t', value(col('t'), 'text'))]))],
          col('id'),
        ),
      ),
      field('pair', array([field('a', value(col('n'), 'integer')), field('b', value(col('t'), 'text'))])),
      field('empty', object([])),
      field('none', array([])),
      field('guarded', object([], col('t'))),
    ],
  };
  const b = batch({ n: [1, null, 3], id: ['m', null, undefined], t: ['x', 'y', null] });
  const expected = [
    '{"n":1,"model":{"id":"m","tags":{"t":"x"}},"pair":[1,"x"],"empty":{},"none":[],"guarded":{}}',
    '{"n":null,"model":null,"pair":[null,"y"],"empty":{},"none":[],"guarded":{}}',
    '{"n":3,"model":null,"pair":[3,null],"empty":{},"none":[],"guarded":null}',
  ];

  it('write objects, null when their guard column is, arrays and empty ones', () => {
    expect(rows(shape, b)).toEqual(expected);
  });

  it('read rows as the objects their texts parse to', () => {
    const read = rowReader(shape)(b);
    expect([0, 1, 2].map(read)).toEqual(expected.map((t) => JSON.parse(t)));
    expect(read(0)).toEqual({
      n: 1,
      model: { id: 'm', tags: { t: 'x' } },
      pair: [1, 'x'],
      empty: {},
      none: [],
      guarded: {},
    });
  });

  it('read every value type as its JSON value', () => {
    const typed: RowShape = {
      fields: [
        field('d', value(col('d'), 'date')),
        field('l', value(col('l'), { list: 'instant' })),
        field('s', value(col('s'), { struct: [{ name: 'n', type: 'integer' }] })),
        field('j', value(col('j'), { list: 'integer' }, 'json')),
      ],
    };
    const read = rowReader(typed)(
      batch({
        d: [day('2026-02-03'), null],
        l: [[at('2026-02-03T04:05:06.7Z'), null], undefined],
        s: [{ n: 5n, m: 1 }, null],
        j: ['[1, 2]', [3]],
      }),
    );
    expect(read(0)).toEqual({ d: '2026-02-03', l: ['2026-02-03T04:05:06Z', null], s: { n: 5 }, j: [1, 2] });
    expect(read(1)).toEqual({ d: null, l: null, s: null, j: [3] });
  });

  it('read a struct field a value lacks as null, as the writer writes it', () => {
    const nested: RowShape = {
      fields: [
        field(
          's',
          value(col('s'), { struct: [{ name: 'inner', type: { struct: [{ name: 'n', type: 'integer' }] } }] }),
        ),
      ],
    };
    const b = batch({ s: [{}, { inner: { n: 1 } }] });
    const read = rowReader(nested)(b);
    expect([0, 1].map(read)).toEqual([{ s: { inner: null } }, { s: { inner: { n: 1 } } }]);
    expect(rows(nested, b)).toEqual(['{"s":{"inner":null}}', '{"s":{"inner":{"n":1}}}']);
  });

  it('name a column the batch lacks, the guard column too', () => {
    expect(() => compileRows(shape).texts(batch({ n: [], id: [] }))).toThrow(`no column "${col('t')}"`);
    expect(() => rowReader(shape)(batch({ n: [], t: [] }))).toThrow(`no column "${col('id')}"`);
  });
});

describe('compiled row writers, by range and frame', () => {
  const shape = single((c) => value(c, 'integer'));
  const b = batch({ x: [0, 1, 2, 3] });
  const { text, texts } = compileRows(shape);

  it('write the rows from one index until another, clipped to the batch', () => {
    expect(texts(b)).toEqual(['{"x":0}', '{"x":1}', '{"x":2}', '{"x":3}']);
    expect(texts(b, 1)).toEqual(['{"x":1}', '{"x":2}', '{"x":3}']);
    expect(texts(b, 1, 3)).toEqual(['{"x":1}', '{"x":2}']);
    expect(texts(b, 2, 9)).toEqual(['{"x":2}', '{"x":3}']);
    expect(texts(b, 3, 3)).toEqual([]);
    expect(texts(b, 4)).toEqual([]);
    expect(texts(b, 6, 9)).toEqual([]);
    expect(texts(b, 3, 1)).toEqual([]);
  });

  it('frame rows: the first row after `first`, every other after `before`, each followed by `after`', () => {
    const frame = { first: '[', before: ',', after: '\n' };
    expect(text(b, frame)).toBe('[{"x":0}\n,{"x":1}\n,{"x":2}\n,{"x":3}\n');
    expect(text(b, frame, 2, 3)).toBe('[{"x":2}\n');
    expect(text(b, frame, 4)).toBe('');
    expect(text(b, { first: '', before: '', after: '' }, 0, 2)).toBe('{"x":0}{"x":1}');
  });
});

describe('the cache of compiled shapes', () => {
  it('compiles a declaration once, and again once it is the oldest past the bound', () => {
    const shapeOf = (k: number): RowShape => ({ fields: [field('x', value(`${run}/${k}`, 'integer'))] });
    const first = compileRows(shapeOf(0));
    expect(compileRows(shapeOf(0))).toBe(first);
    const second = compileRows(shapeOf(1));
    // The other cases of this file compiled fewer shapes than the bound; these fill it.
    for (let k = 2; k < compiledShapes + 1; k++) compileRows(shapeOf(k));
    expect(compileRows(shapeOf(1))).toBe(second);
    expect(compileRows(shapeOf(0))).not.toBe(first);
  });
});
