import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * DuckDB forgets an interrupt that lands before the statement has started on its worker thread (it
 * clears the flag when a query begins), so an interrupt is repeated until the statement settles.
 */
export const interruptEveryMs = 50;

/**
 * Interrupts whatever `conn` runs once `signal` aborts, repeating until the returned function is called
 * (call it when the statement has settled). Streams reading on a connection of their own use it too.
 */
export function interruptOnAbort(conn: DuckDBConnection, signal: AbortSignal): () => void {
  let again: NodeJS.Timeout | undefined;
  const interrupt = () => {
    conn.interrupt();
    again = setInterval(() => conn.interrupt(), interruptEveryMs);
  };
  if (signal.aborted) interrupt();
  else signal.addEventListener('abort', interrupt, { once: true });
  return () => {
    clearInterval(again);
    signal.removeEventListener('abort', interrupt);
  };
}
