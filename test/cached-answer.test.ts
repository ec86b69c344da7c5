import { describe, expect, it } from 'vitest';
import { ResultCache } from '../src/engine/result-cache.ts';
import type { ColumnBatch } from '../src/query/row-shape.ts';
import type { RowsPart, RowsResult } from '../src/query/rows-result.ts';
import { keptOnRead, replayed } from '../src/reports/extensions/cached-answer.ts';

/**
 * A page kept once read to its end, in process: what is kept, what is not, the bytes it is counted at
 * (8 for a number, null or reference, 16 + 2 a character for a string, 16 for an object, an array or a
 * column plus 8 an entry), and the same parts replayed.
 */

const shape = { fields: [] };
const head = { a: 'xy', n: 1 };
const batches: ColumnBatch[] = [
  { length: 3, columns: { c: [1, 'ab', null] } },
  { length: 1, columns: { s: [{ x: [1, 2] }], t: [true] } },
];
// head 16 + (8 + 16 + 2·2) + (8 + 8) = 60; column c 16 + (8 + 8) + (8 + 16 + 2·2) + (8 + 8) = 76;
// column s 16 + 8 + (16 + 8 + (16 + (8 + 8) + (8 + 8))) = 96; column t 16 + (8 + 8) = 32.
const bytes = 60 + 76 + 96 + 32;

const result = (framing: 'page' | 'stream', parts: RowsPart[] = [{ head }, ...batches.map((batch) => ({ batch }))]) =>
  ({
    kind: 'rows',
    framing,
    shape,
    read: async function* () {
      yield* parts;
    },
  }) satisfies RowsResult;

const partsOf = async (r: RowsResult, stopAfter = Infinity): Promise<RowsPart[]> => {
  const out: RowsPart[] = [];
  for await (const part of r.read()) {
    out.push(part);
    if (out.length >= stopAfter) break;
  }
  return out;
};

describe('a page kept on read', () => {
  it('passes every part on, then is kept at its counted bytes and replayed as the same parts', async () => {
    const cache = new ResultCache(1 << 20);
    const plain = result('page');
    const read = await partsOf(keptOnRead(plain, cache, 'fp'));
    expect(read).toEqual(await partsOf(plain));
    expect([cache.size, cache.bytes]).toEqual([1, bytes]);
    const kept = cache.get('fp')!;
    expect(kept).toEqual({ shape, head, batches });
    const again = replayed(kept, 'fp');
    expect(again).toMatchObject({ kind: 'rows', framing: 'page', shape, fingerprint: 'fp' });
    expect(await partsOf(again)).toEqual(read);
  });

  it('is not kept when the face stops early, when it has no head, or when it is a stream', async () => {
    const cache = new ResultCache(1 << 20);
    await partsOf(keptOnRead(result('page'), cache, 'early'), 2);
    await partsOf(
      keptOnRead(
        result(
          'page',
          batches.map((batch) => ({ batch })),
        ),
        cache,
        'headless',
      ),
    );
    expect(cache.size).toBe(0);
    const stream = result('stream');
    expect(keptOnRead(stream, cache, 's')).toBe(stream);
  });

  it('is the result as it is when the cache is off', () => {
    const page = result('page');
    expect(keptOnRead(page, new ResultCache(0), 'fp')).toBe(page);
  });
});
