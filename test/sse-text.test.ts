import { describe, expect, it } from 'vitest';
import { formatSseEvent, isFramed, sseKeepAlive, sseText, type FramedEvents } from '../src/formats/sse-text.ts';
import type { StreamEvent } from '../src/query/rows-result.ts';

/** Server-Sent Events as written: each event's exact bytes, and how many rows each piece carries. */

const events: StreamEvent[] = [
  { event: 'summary', data: '{"a":1}' },
  { event: 'result', data: '{"x":"y"}' },
  { event: 'result', data: '[]' },
  { event: 'done', data: 'null' },
];

async function* plain(list: StreamEvent[]): AsyncGenerator<StreamEvent> {
  yield* list;
}

const all = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe('SSE text', () => {
  it('writes an event as its name, one data line and a blank line; a keep-alive as a comment', () => {
    expect(formatSseEvent({ event: 'result', data: '{"n":1}' })).toBe('event: result\ndata: {"n":1}\n\n');
    expect(sseKeepAlive).toBe(': ping\n\n');
  });

  it('writes a plain stream an event at a time, counting the result events', async () => {
    expect(await all(sseText(plain(events)))).toEqual([
      { text: 'event: summary\ndata: {"a":1}\n\n', results: 0 },
      { text: 'event: result\ndata: {"x":"y"}\n\n', results: 1 },
      { text: 'event: result\ndata: []\n\n', results: 1 },
      { text: 'event: done\ndata: null\n\n', results: 0 },
    ]);
    expect(isFramed(plain(events))).toBe(false);
  });

  it('takes a framed stream’s own pieces, without reading it event by event', async () => {
    const pieces = [
      { text: 'event: summary\ndata: {}\n\n', results: 0 },
      { text: 'event: result\ndata: 1\n\nevent: result\ndata: 2\n\n', results: 2 },
    ];
    const framed: FramedEvents = {
      [Symbol.asyncIterator]: () => {
        throw new Error('read event by event');
      },
      sseText: async function* () {
        yield* pieces;
      },
    };
    expect(isFramed(framed)).toBe(true);
    expect(await all(sseText(framed))).toEqual(pieces);
  });
});
