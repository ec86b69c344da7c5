import type { Sql } from '../query/sql.ts';
import type { CallContext } from './endpoint.ts';

/**
 * Runs queries shaped like `pagedSql` (`unit, seq, payload`) one after another on a connection of its
 * own, in one transaction so they read the same snapshot, and yields each payload, pulled from DuckDB
 * a chunk at a time so memory stays bounded. The caller's abort signal, or stopping the iteration,
 * interrupts the query and frees the connection.
 */
export async function* streamPayloads(queries: readonly Sql[], ctx: CallContext): AsyncGenerator<string> {
  const conn = await ctx.core.pool.instance.connect();
  ctx.core.stats.activeStreams++;
  const interrupt = () => conn.interrupt();
  ctx.signal?.addEventListener('abort', interrupt);
  let finished = false;
  try {
    if (queries.length > 1) await conn.run('BEGIN TRANSACTION');
    for (const query of queries) {
      const result = await conn.stream(query.text, query.params as never);
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        const payloads = chunk.getColumnVector(2);
        for (let i = 0; i < chunk.rowCount; i++) yield String(payloads.getItem(i));
      }
    }
    if (queries.length > 1) await conn.run('COMMIT');
    finished = true;
  } finally {
    ctx.signal?.removeEventListener('abort', interrupt);
    if (!finished) conn.interrupt();
    conn.closeSync();
    ctx.core.stats.activeStreams--;
  }
}
