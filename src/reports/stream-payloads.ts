import { sliceBatch } from '../engine/column-reads.ts';
import { Decoder } from './dictionaries.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import type { Fragment } from '../query/sql.ts';
import type { CallContext } from './endpoint.ts';

/**
 * Runs a stream's statements on the backend, in one snapshot: `head` first (read whole: it is one
 * row), then each statement `slices` yields for that head, in order. With `'first row'` there is no
 * head statement: the first row the slices give is the head (see `pageStatements`), for a stream read
 * in one statement (two on ClickHouse).
 * A slice is pulled one batch (one DuckDB chunk, at most 2,048 rows) at a time, and the next batch
 * is fetched only when the consumer asks, so the JS side holds one batch per stream whatever the
 * result's size; the next slice's statement runs only when the previous one is drained. The caller's
 * abort signal, or stopping the iteration, interrupts the statement and frees the connection.
 */
export async function* streamStatements(
  ctx: CallContext,
  head: Fragment | 'first row',
  slices: (head: ColumnBatch) => Iterable<Fragment>,
  coded: readonly string[] = [],
): AsyncGenerator<{ head: ColumnBatch } | { batch: ColumnBatch }> {
  const decoder = new Decoder(ctx.core.backend.dialect === 'duckdb' ? coded : []);
  const snapshot = await ctx.core.backend.snapshot(ctx.signal);
  const stats = ctx.core.stats;
  stats.activeStreams++;
  let finished = false;
  try {
    const first = head === 'first row' ? undefined : await snapshot.read(head);
    if (first) yield { head: first };
    let headless = first === undefined;
    for (const slice of slices(first ?? { length: 0, columns: {} })) {
      for await (let raw of snapshot.batches(slice)) {
        if (headless) {
          headless = false;
          decoder.take(raw, 0);
          yield { head: sliceBatch(raw, 0, 1) };
          raw = sliceBatch(raw, 1);
          if (raw.length === 0) continue;
        }
        const batch = decoded(decoder, raw);
        stats.bufferedRows += batch.length;
        try {
          yield { batch };
        } finally {
          stats.bufferedRows -= batch.length;
        }
      }
    }
    finished = true;
  } finally {
    await snapshot.close(finished);
    stats.activeStreams--;
  }
}

/** A slice's chunk with its dictionary row (`seq` −1, first in the slice) read and dropped, and codes decoded. */
function decoded(decoder: Decoder, batch: ColumnBatch): ColumnBatch {
  if (decoder.empty) return batch;
  const first = batch.columns.seq?.[0];
  if (first === -1 || first === -1n) {
    decoder.take(batch, 0);
    return decoder.decode(batch, 1);
  }
  return decoder.decode(batch);
}
