import type { DuckDBValue } from '@duckdb/node-api';
import { render, type Fragment } from '../query/sql.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import type { ReportBackend, Snapshot } from './backend.ts';
import { chunkBatch, readerBatch } from './column-reads.ts';
import type { DuckDBPool } from './duckdb-pool.ts';
import { interruptOnAbort } from './interrupt.ts';

/** Reports on the engine's own DuckDB: statements on the pool's heavy lane, streams on a connection of their own. */
export class DuckDBBackend implements ReportBackend {
  readonly name = 'duckdb';
  readonly dialect = 'duckdb';
  readonly rollups = true;

  constructor(private readonly pool: DuckDBPool) {}

  async read(query: Fragment, signal?: AbortSignal): Promise<ColumnBatch> {
    const q = render(query);
    return readerBatch(await this.pool.read(q.text, q.params as DuckDBValue[], signal));
  }

  together<T>(fn: (read: (query: Fragment) => Promise<ColumnBatch>) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.pool.together(
      (read) =>
        fn(async (query) => {
          const q = render(query);
          return readerBatch(await read(q.text, q.params as DuckDBValue[]));
        }),
      signal,
    );
  }

  /**
   * A connection of its own in one transaction, so the statements read one snapshot. A statement is
   * pulled one DuckDB chunk (at most 2,048 rows) at a time, the next fetched only when asked for; the
   * abort signal, or closing unfinished, interrupts it.
   */
  async snapshot(signal?: AbortSignal): Promise<Snapshot> {
    const conn = await this.pool.instance.connect();
    const settled = signal ? interruptOnAbort(conn, signal) : () => undefined;
    try {
      await conn.run('BEGIN TRANSACTION');
    } catch (error) {
      settled();
      conn.closeSync();
      throw error;
    }
    return {
      read: async (query) => {
        const q = render(query);
        return readerBatch(await conn.runAndReadAll(q.text, q.params as DuckDBValue[]));
      },
      batches: async function* (query) {
        const q = render(query);
        const result = await conn.stream(q.text, q.params as DuckDBValue[]);
        const names = result.columnNames();
        for (;;) {
          const chunk = await result.fetchChunk();
          if (!chunk || chunk.rowCount === 0) return;
          yield chunkBatch(names, chunk);
        }
      },
      close: async (finished) => {
        try {
          if (finished) await conn.run('COMMIT');
        } finally {
          settled();
          if (!finished) conn.interrupt();
          conn.closeSync();
        }
      },
    };
  }

  close(): undefined {
    return undefined;
  }
}
