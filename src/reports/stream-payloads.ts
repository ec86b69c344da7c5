import type { Sql } from '../query/sql.ts';
import type { CallContext } from './endpoint.ts';

/**
 * Runs a paged query (see `pagedSql`) on a connection of its own and yields its `payload` column: the
 * head first, then one row at a time, pulled from DuckDB a chunk at a time so memory stays bounded.
 * The caller's abort signal, or stopping the iteration, interrupts the query and frees the connection.
 */
export async function* streamPayloads(query: Sql, ctx: CallContext): AsyncGenerator<string> {
  const conn = await ctx.core.pool.instance.connect();
  ctx.core.stats.activeStreams++;
  const interrupt = () => conn.interrupt();
  ctx.signal?.addEventListener('abort', interrupt);
  let finished = false;
  try {
    const result = await conn.stream(query.text, query.params as never);
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const payloads = chunk.getColumnVector(2);
      for (let i = 0; i < chunk.rowCount; i++) yield String(payloads.getItem(i));
    }
    finished = true;
  } finally {
    ctx.signal?.removeEventListener('abort', interrupt);
    if (!finished) conn.interrupt();
    conn.closeSync();
    ctx.core.stats.activeStreams--;
  }
}
