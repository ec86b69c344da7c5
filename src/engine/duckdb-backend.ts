import type { DuckDBValue } from '@duckdb/node-api';
import { loopTurn } from '../query/loop-turns.ts';
import { render, type Fragment } from '../query/sql.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import type { ReportBackend, Snapshot } from './backend.ts';
import { chunkBatch, readerBatch } from './column-reads.ts';
import type { DuckDBPool } from './duckdb-pool.ts';
import { interruptOnAbort } from './interrupt.ts';

/**
 * Reports on the engine's own DuckDB: statements on the pool's heavy lane, streams on a connection of their
 * own; both count against the pool's `heavyCalls`.
 */
export class DuckDBBackend implements ReportBackend {
  readonly name = 'duckdb';
  readonly dialect = 'duckdb';
  readonly rollups = true;

  constructor(private readonly pool: DuckDBPool) {}

  async read(query: Fragment, signal?: AbortSignal): Promise<ColumnBatch> {
    const q = render(query);
    return await readerBatch(await this.pool.read(q.text, q.params as DuckDBValue[], signal));
  }

  together<T>(fn: (read: (query: Fragment) => Promise<ColumnBatch>) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.pool.together(
      (read) =>
        fn(async (query) => {
          const q = render(query);
          return await readerBatch(await read(q.text, q.params as DuckDBValue[]));
        }),
      signal,
    );
  }

  /**
   * A connection of its own in one transaction, so the statements read one snapshot. A statement is
   * pulled one DuckDB chunk (at most 2,048 rows) at a time, the next fetched only when asked for and
   * converted in the process's loop budget (`loopTurn`); the abort signal, or closing unfinished,
   * interrupts it.
   */
  async snapshot(signal?: AbortSignal): Promise<Snapshot> {
    const conn = await this.pool.instance.connect();
    const settled = signal ? interruptOnAbort(conn, signal) : () => undefined;
    const call = <T>(fn: () => Promise<T>) => this.pool.heavyCalls.through(fn, signal);
    try {
      await call(() => conn.run('BEGIN TRANSACTION'));
    } catch (error) {
      settled();
      conn.closeSync();
      throw error;
    }
    return {
      read: async (query) => {
        const q = render(query);
        return await readerBatch(await call(() => conn.runAndReadAll(q.text, q.params as DuckDBValue[])));
      },
      batches: async function* (query) {
        const q = render(query);
        const result = await call(() => conn.stream(q.text, q.params as DuckDBValue[]));
        const names = result.columnNames();
        for (;;) {
          const chunk = await call(() => result.fetchChunk());
          if (!chunk || chunk.rowCount === 0) return;
          await loopTurn();
          yield chunkBatch(names, chunk);
        }
      },
      close: async (finished) => {
        try {
          if (finished) await this.pool.heavyCalls.through(() => conn.run('COMMIT'));
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
