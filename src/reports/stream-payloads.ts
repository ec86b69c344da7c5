import { chunkBatch, readerBatch, sliceBatch } from '../engine/column-reads.ts';
import { Decoder } from './dictionaries.ts';
import { interruptOnAbort } from '../engine/interrupt.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import type { Sql } from '../query/sql.ts';
import type { CallContext } from './endpoint.ts';

/**
 * Runs a stream's statements on a connection of its own, in one transaction so they read one snapshot:
 * `head` first (read whole: it is one row), then each statement `slices` yields for that head, in order.
 * With `'first row'` there is no head statement: the first slice is a page statement whose first row
 * is the head (see `pageQuery`), for a stream read in one statement.
 * A slice is pulled one DuckDB chunk (at most 2,048 rows) at a time, and the next chunk is fetched only
 * when the consumer asks, so the JS side holds one chunk per stream whatever the result's size; the
 * next slice's statement runs only when the previous one is drained. The caller's abort signal, or
 * stopping the iteration, interrupts the statement and frees the connection.
 */
export async function* streamStatements(ctx: CallContext, head: Sql | 'first row', slices: (head: ColumnBatch) => Iterable<Sql>, coded: readonly string[] = []): AsyncGenerator<{ head: ColumnBatch } | { batch: ColumnBatch }> {
  const decoder = new Decoder(coded);
  const conn = await ctx.core.pool.instance.connect();
  const stats = ctx.core.stats;
  stats.activeStreams++;
  const settled = ctx.signal ? interruptOnAbort(conn, ctx.signal) : () => undefined;
  let finished = false;
  try {
    await conn.run('BEGIN TRANSACTION');
    const first = head === 'first row' ? undefined : readerBatch(await conn.runAndReadAll(head.text, head.params as never));
    if (first) yield { head: first };
    let headless = first === undefined;
    for (const slice of slices(first ?? { length: 0, columns: {} })) {
      const result = await conn.stream(slice.text, slice.params as never);
      const names = result.columnNames();
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        let raw = chunkBatch(names, chunk);
        if (headless) {
          headless = false;
          decoder.take(raw, 0);
          yield { head: sliceBatch(raw, 0, 1) };
          raw = sliceBatch(raw, 1);
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
    await conn.run('COMMIT');
    finished = true;
  } finally {
    settled();
    if (!finished) conn.interrupt();
    conn.closeSync();
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
