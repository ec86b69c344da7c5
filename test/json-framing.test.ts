import { describe, expect, it } from 'vitest';
import {
  encodeJson,
  framedEvents,
  openRows,
  pageJson,
  pageObject,
  streamEvents,
  streamObjects,
  streamSse,
} from '../src/formats/json.ts';
import { formatSseEvent, sseText } from '../src/formats/sse-text.ts';
import { field, value, type ColumnBatch, type RowShape } from '../src/query/row-shape.ts';
import type { RowsPart, RowsResult } from '../src/query/rows-result.ts';
import { loopTurn } from '../src/query/loop-turns.ts';
import { sliceMs } from '../src/limits.ts';

/**
 * The JSON faces of a rows result over batches larger than the 2,048 rows encoded between two turns of
 * the event loop, and at that size exactly and one past: every row once, in order, in each framing;
 * SSE pieces counting their rows; and the read stopped whenever a face stops.
 */

const shape: RowShape = { fields: [field('n', value('n', 'integer')), field('name', value('name', 'text'))] };
const head = { total: 0, note: 'é "q"' };

const batchOf = (from: number, length: number): ColumnBatch => ({
  length,
  columns: {
    n: Array.from({ length }, (_, i) => from + i),
    name: Array.from({ length }, (_, i) => (i % 3 === 0 ? null : `row "${from + i}"`)),
  },
});
const rowsIn = (batches: ColumnBatch[]) =>
  batches.flatMap((b) =>
    Array.from({ length: b.length }, (_, i) => ({ n: b.columns.n![i], name: b.columns.name![i] })),
  );

/** A rows result over fixed batches; `closed` counts the reads ended or stopped. */
function rowsOf(batches: ColumnBatch[], framing: 'page' | 'stream' = 'page'): RowsResult & { closed: number } {
  const result = {
    kind: 'rows' as const,
    framing,
    shape,
    closed: 0,
    read: async function* (): AsyncGenerator<RowsPart> {
      try {
        yield { head };
        for (const batch of batches) yield { batch };
      } finally {
        result.closed++;
      }
    },
  };
  return result;
}

const sizes: [string, ColumnBatch[]][] = [
  ['no rows', []],
  ['an empty batch', [batchOf(0, 0)]],
  ['2,048 rows', [batchOf(0, 2048)]],
  ['2,049 rows', [batchOf(0, 2049)]],
  ['5,000 rows and a second batch', [batchOf(0, 5000), batchOf(5000, 3)]],
];

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe.each(sizes)('the JSON faces of %s', (_, batches) => {
  const rows = rowsIn(batches);
  const texts = rows.map((r) => JSON.stringify(r));

  it('a page: the exact body text, and the same as JS values', async () => {
    const result = rowsOf(batches);
    expect(await pageJson(result)).toBe(`{"info":${JSON.stringify(head)},"data":[${texts.join(',')}]}`);
    expect(await pageObject(result)).toEqual({ info: head, data: rows });
    expect(result.closed).toBe(2);
  });

  it('a stream: the summary, then one result per row, as events, objects and SSE text', async () => {
    const result = rowsOf(batches, 'stream');
    const events = [
      { event: 'summary', data: JSON.stringify(head) },
      ...texts.map((data) => ({ event: 'result', data })),
    ];
    expect(await all(streamEvents(result))).toEqual(events);
    expect(await all(streamObjects(result))).toEqual([
      { event: 'summary', data: head },
      ...rows.map((data) => ({ event: 'result', data })),
    ]);
    const pieces = await all(streamSse(result));
    expect(pieces.map((p) => p.text).join('')).toBe(events.map(formatSseEvent).join(''));
    const perPiece = batches.flatMap((b) =>
      Array.from({ length: Math.ceil(b.length / 2048) }, (_, k) => Math.min(2048, b.length - k * 2048)),
    );
    expect(pieces.map((p) => p.results)).toEqual([0, ...perPiece]);
    expect(result.closed).toBe(3);
  });
});

describe('the JSON faces', () => {
  it('a page result encodes as its body with status 200, a stream as its framed events, anything else as it is', async () => {
    const batches = [batchOf(0, 3)];
    expect(await encodeJson(rowsOf(batches))).toEqual({
      kind: 'json',
      status: 200,
      json: `{"info":${JSON.stringify(head)},"data":[${rowsIn(batches)
        .map((r) => JSON.stringify(r))
        .join(',')}]}`,
    });
    const stream = await encodeJson(rowsOf(batches, 'stream'));
    expect(stream.kind).toBe('stream');
    const events = (stream as { events: AsyncIterable<{ event: string; data: string }> }).events;
    expect(await all(events)).toEqual(await all(streamEvents(rowsOf(batches, 'stream'))));
    expect((await all(sseText(events))).map((p) => p.text)).toEqual(
      (await all(streamSse(rowsOf(batches, 'stream')))).map((p) => p.text),
    );
    const plain = { kind: 'json' as const, status: 201, json: '{}' };
    expect(await encodeJson(plain)).toBe(plain);
  });

  it('framed events read as events or as SSE text run the stream each time it is read', async () => {
    const result = rowsOf([batchOf(0, 2)], 'stream');
    const framed = framedEvents(result);
    expect((await all(framed)).length).toBe(3);
    expect((await all(framed.sseText())).map((p) => p.results)).toEqual([0, 2]);
    expect(result.closed).toBe(2);
  });

  it('a row that cannot be encoded fails the face and stops the read', async () => {
    let stopped = 0;
    const lacking = (framing: 'page' | 'stream'): RowsResult => ({
      kind: 'rows',
      framing,
      shape,
      read: async function* () {
        try {
          yield { head };
          yield { batch: { length: 1, columns: { n: [1] } } };
          yield { batch: batchOf(1, 1) };
        } finally {
          stopped++;
        }
      },
    });
    const missing = 'the rows query returned no column "name"';
    await expect(pageJson(lacking('page'))).rejects.toThrow(missing);
    await expect(pageObject(lacking('page'))).rejects.toThrow(missing);
    await expect(all(streamEvents(lacking('stream')))).rejects.toThrow(missing);
    await expect(all(streamSse(lacking('stream')))).rejects.toThrow(missing);
    await expect(all(streamObjects(lacking('stream')))).rejects.toThrow(missing);
    expect(stopped).toBe(5);
  });

  it("a page or stream of several slices waits for the process's loop budget between them: once it is spent, the event loop turns", async () => {
    const turnsDuring = async (run: () => Promise<unknown>) => {
      let turns = 0;
      let done = false;
      const tick = () => {
        if (done) return;
        turns++;
        setImmediate(tick);
      };
      // The budget spent just before, as by another stream's slices: the next slice waits for a turn.
      await loopTurn();
      const from = performance.now();
      while (performance.now() - from <= sliceMs);
      setImmediate(tick);
      await run();
      done = true;
      return turns;
    };
    // One batch of three slices.
    const batches = [batchOf(0, 5000)];
    expect(await turnsDuring(() => pageJson(rowsOf(batches)))).toBeGreaterThanOrEqual(1);
    expect(await turnsDuring(() => pageObject(rowsOf(batches)))).toBeGreaterThanOrEqual(1);
    expect(await turnsDuring(() => all(streamSse(rowsOf(batches, 'stream'))))).toBeGreaterThanOrEqual(1);
    expect(await turnsDuring(() => all(streamEvents(rowsOf(batches, 'stream'))))).toBeGreaterThanOrEqual(1);
  });

  it('a result must yield its head first; the read is stopped when it does not', async () => {
    let stopped = 0;
    const bad = (parts: RowsPart[]): RowsResult => ({
      kind: 'rows',
      framing: 'page',
      shape,
      read: async function* () {
        try {
          yield* parts;
        } finally {
          stopped++;
        }
      },
    });
    await expect(openRows(bad([{ batch: batchOf(0, 1) }, { head }]))).rejects.toThrow(
      'a rows result must yield its head first',
    );
    await expect(pageJson(bad([]))).rejects.toThrow('a rows result must yield its head first');
    expect(stopped).toBe(2);
  });

  it('stopping a face early stops the read, before its last batch is asked for', async () => {
    let asked = 0;
    let stopped = 0;
    const result: RowsResult = {
      kind: 'rows',
      framing: 'stream',
      shape,
      read: async function* () {
        try {
          yield { head };
          for (let k = 0; k < 3; k++) {
            asked++;
            yield { batch: batchOf(k * 10, 10) };
          }
        } finally {
          stopped++;
        }
      },
    };
    for await (const e of streamEvents(result)) if (e.event === 'result') break;
    expect([asked, stopped]).toEqual([1, 1]);
    for await (const e of streamObjects(result)) if (e.event === 'result') break;
    expect([asked, stopped]).toEqual([2, 2]);
    for await (const p of streamSse(result)) if (p.results > 0) break;
    expect([asked, stopped]).toEqual([3, 3]);
    const opened = await openRows(result);
    await opened.close();
    await opened.close();
    expect(await all(opened.batches)).toEqual([]);
    expect(asked).toBe(3);
  });
});
