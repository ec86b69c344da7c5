import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, csvText, spreadsheetText } from '../src/formats/csv.ts';
import { pageJson, streamEvents, streamSse } from '../src/formats/json.ts';
import { ndjsonText } from '../src/formats/ndjson.ts';
import { flatColumns, flatText } from '../src/formats/table-shape.ts';
import { compileRows, rowReader } from '../src/query/row-json.ts';
import { array, field, object, repeated, value, type ColumnBatch, type RowShape } from '../src/query/row-shape.ts';
import type { RowsResult } from '../src/query/rows-result.ts';
import { formatSseEvent } from '../src/formats/sse-text.ts';

// Every type and wire a compiled writer specialises, and the ones it hands to the interpreted path.
const shape: RowShape = {
  fields: [
    field('date', value('day', 'date')),
    field('at', value('at', 'instant')),
    field('model', object([field('id', repeated('model_id')), field('name', value('model_name', 'text'))], 'model_id')),
    field('n', value('n', 'integer')),
    field('score', value('score', 'float')),
    field('owned', value('owned', 'boolean')),
    field('tags', value('tags', { list: 'text' })),
    field(
      'ref',
      value('ref', {
        struct: [
          { name: 'id', type: 'text' },
          { name: 'n', type: 'integer' },
        ],
      }),
    ),
    field('json', value('json', { list: 'integer' }, 'json')),
    field('jtags', value('jtags', { list: 'text' }, 'json')),
    field('pair', array([field('visits', value('n', 'integer')), field('label', value('model_name', 'text'))])),
  ],
};

const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 4 });
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('=SUM(A1)', '-1', 'a,"b"\n', ''));
const day = fc.integer({ min: -40_000, max: 60_000 }).map((d) => new Date(d * 86_400_000));
const row = fc.record({
  day: nullable(day),
  at: nullable(fc.integer({ min: -2e12, max: 4e12 }).map((ms) => new Date(ms))),
  model_id: nullable(fc.constantFrom('m1', 'm"2', 'ü3', '=m4')),
  model_name: nullable(text),
  n: nullable(
    fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(-0, 2 ** 53)),
  ),
  score: nullable(fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.1 + 0.2))),
  owned: nullable(fc.boolean()),
  tags: nullable(fc.array(nullable(text), { maxLength: 3 })),
  ref: nullable(fc.record({ id: nullable(text), n: nullable(fc.integer()) })),
  json: nullable(
    fc.oneof(
      fc.array(fc.oneof(fc.integer(), fc.double()), { maxLength: 3 }).map((xs) => JSON.stringify(xs)),
      fc.constantFrom('[ 1 , -0, 1e400 ]', '[1.50, null]', '["1", 2]', '[true]'),
    ),
  ),
  jtags: nullable(
    fc.oneof(
      fc.array(nullable(text), { maxLength: 3 }).map((xs) => JSON.stringify(xs)),
      fc.constantFrom('[ "a" , null ]', '["\\u0041\\n", "\\ud800"]', '[1, "x"]', '[]', '[{"a": 1}]'),
    ),
  ),
});

function columns(rows: Record<string, unknown>[]): ColumnBatch {
  const names = ['day', 'at', 'model_id', 'model_name', 'n', 'score', 'owned', 'tags', 'ref', 'json', 'jtags'];
  return { length: rows.length, columns: Object.fromEntries(names.map((n) => [n, rows.map((r) => r[n])])) };
}

const result = (batches: ColumnBatch[], framing: 'page' | 'stream' = 'page'): RowsResult => ({
  kind: 'rows',
  framing,
  shape,
  read: async function* () {
    yield { head: { total: batches.reduce((s, b) => s + b.length, 0) } };
    for (const batch of batches) yield { batch };
  },
});

const collect = async (pieces: AsyncIterable<string>) => {
  let out = '';
  for await (const piece of pieces) out += piece;
  return out;
};

describe('compiled row writers', () => {
  it('write each row as JSON.stringify of the row as JS values, in every framing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(row, { maxLength: 40 }), { minLength: 1, maxLength: 3 }), async (groups) => {
        const batches = groups.map(columns);
        const read = rowReader(shape);
        const expected = batches.flatMap((b) => Array.from({ length: b.length }, (_, i) => JSON.stringify(read(b)(i))));
        const { texts } = compileRows(shape);
        expect(batches.flatMap((b) => texts(b))).toEqual(expected);
        const head = JSON.stringify({ total: expected.length });
        expect(await pageJson(result(batches))).toBe(`{"info":${head},"data":[${expected.join(',')}]}`);
        expect(await collect(ndjsonText(result(batches)))).toBe(expected.map((t) => `${t}\n`).join(''));
        const events = [{ event: 'summary', data: head }, ...expected.map((data) => ({ event: 'result', data }))];
        const sse: string[] = [];
        for await (const piece of streamSse(result(batches, 'stream'))) sse.push(piece.text);
        expect(sse.join('')).toBe(events.map(formatSseEvent).join(''));
        const each: unknown[] = [];
        for await (const e of streamEvents(result(batches, 'stream'))) each.push(e);
        expect(each).toEqual(events);
      }),
      { numRuns: 60 },
    );
  });

  it('write CSV cells as the flat text of each column, quoted, text guarded unless raw', async () => {
    const flat = flatColumns(shape);
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 40 }), fc.boolean(), async (rows, raw) => {
        const batch = columns(rows);
        const cells = flat.map((c) => ({ c, text: flatText(c)(batch) }));
        const lines = Array.from(
          { length: batch.length },
          (_, i) =>
            cells
              .map(({ c, text }) => csvField(c.type === 'text' && !raw ? spreadsheetText(text(i)) : text(i)))
              .join(',') + '\n',
        );
        const header = flat.map((c) => csvField(c.path)).join(',') + '\n';
        expect(await collect(csvText(result([batch]), { raw }))).toBe(header + lines.join(''));
      }),
      { numRuns: 60 },
    );
  });
});
