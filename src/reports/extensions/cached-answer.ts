import type { KeptPage, ResultCache } from '../../engine/result-cache.ts';
import type { ColumnBatch } from '../../query/row-shape.ts';
import type { RowsResult } from '../endpoint.ts';

/**
 * Bytes a value holds in V8, roughly: 8 for a number or a reference, 2 a character plus a header for a
 * string. Faces never mutate a page's parts (they copy the head and build each row anew), so a kept
 * page is shared by every caller.
 */
function bytesOf(value: unknown): number {
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (value === null || typeof value !== 'object') return 8;
  let bytes = 16;
  for (const v of Array.isArray(value) ? value : Object.values(value)) bytes += 8 + bytesOf(v);
  return bytes;
}

const pageBytes = (page: KeptPage) =>
  bytesOf(page.head) +
  page.batches.reduce(
    (sum, b) =>
      sum + Object.values(b.columns).reduce((s, c) => s + 16 + c.reduce((t: number, v) => t + 8 + bytesOf(v), 0), 0),
    0,
  );

/** A kept page as a rows result again, read from memory. */
export const replayed = (page: KeptPage, fingerprint: string): RowsResult => ({
  kind: 'rows',
  framing: 'page',
  shape: page.shape,
  fingerprint,
  read: async function* () {
    yield { head: page.head };
    for (const batch of page.batches) yield { batch };
  },
});

/**
 * The result, its page kept in the cache once a face has read it to the end (a face that stops early
 * keeps nothing). Streams are never kept: they may be of any length.
 */
export function keptOnRead(result: RowsResult, cache: ResultCache, fingerprint: string): RowsResult {
  if (result.framing !== 'page' || !cache.enabled) return result;
  return {
    ...result,
    read: async function* () {
      let head: Record<string, unknown> | undefined;
      const batches: ColumnBatch[] = [];
      for await (const part of result.read()) {
        if ('head' in part) head = part.head;
        else batches.push(part.batch);
        yield part;
      }
      if (!head) return;
      const page = { shape: result.shape, head, batches };
      cache.set(fingerprint, page, pageBytes(page));
    },
  };
}
