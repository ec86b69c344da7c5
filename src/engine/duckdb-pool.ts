import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBResultReader, DuckDBValue } from '@duckdb/node-api';
import { DuckDBInstance } from './duckdb-api.ts';
import { interruptOnAbort, interruptEveryMs } from './interrupt.ts';
import { defaultHeavyConnections, defaultLightConnections } from '../limits.ts';
import { Turnstile } from './turnstile.ts';
import { spillFolder, removeTempSync } from './temp-paths.ts';

/**
 * Heavy work (reports) and light work (state reads and writes, key loading) borrow from separate sets
 * of connections, so a light request never waits for a connection behind heavy SQL.
 */
export type Lane = 'heavy' | 'light';

export interface PoolOptions {
  readonly threads?: number;
  /** Connections for heavy work. */
  readonly connections?: number;
  /** Connections reserved for light work. */
  readonly lightConnections?: number;
  /** DuckDB's own `memory_limit`, e.g. '1536MiB'. */
  readonly memoryLimit?: string;
}

const statementsPerConnection = 64;

type Waiter = { resolve: (c: DuckDBConnection) => void; reject: (e: unknown) => void };

class LaneQueue {
  readonly idle: DuckDBConnection[] = [];
  readonly waiting: Waiter[] = [];
}

const stopped = (signal: AbortSignal) => signal.reason ?? new Error('aborted');

/**
 * One embedded DuckDB instance and fixed sets of connections, one set per lane. A connection runs one
 * statement at a time, so concurrent requests each borrow one; DuckDB parallelises each query across
 * its threads.
 */
/** Peak allocation above which a finished task hands its memory back (DuckDB's `allocator_flush_threshold`). */
export const allocatorFlushThreshold = '16MiB';

export class DuckDBPool {
  private readonly lanes: Record<Lane, LaneQueue> = { heavy: new LaneQueue(), light: new LaneQueue() };
  private readonly laneOf = new Map<DuckDBConnection, Lane>();
  private readonly borrowed = new Set<DuckDBConnection>();
  private readonly statements = new Map<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();
  private closed = false;
  private closing: Promise<void> | undefined;
  private drained: (() => void) | undefined;
  /** Connections currently borrowed, in both lanes. */
  active = 0;
  /**
   * Every DuckDB call waits for a thread of libuv's pool (4 by default, read when Node starts). Heavy work,
   * the heavy lane's borrowers and each stream's statements alike, goes through here at most `heavy` at a
   * time, so light work always finds a thread: sixteen streams with a statement each once held all four.
   */
  readonly heavyCalls: Turnstile;

  private constructor(
    readonly instance: DuckDBInstance,
    private readonly all: DuckDBConnection[],
    heavy: number,
    private readonly spill: string,
  ) {
    this.heavyCalls = new Turnstile(heavy);
    all.forEach((conn, i) => {
      const lane: Lane = i < heavy ? 'heavy' : 'light';
      this.laneOf.set(conn, lane);
      this.lanes[lane].idle.push(conn);
    });
  }

  static async create(options: PoolOptions = {}): Promise<DuckDBPool> {
    const config: Record<string, string> = {
      threads: String(options.threads ?? 2),
      // Freed memory goes back to the system soon after a statement, not when the allocator's caches pass
      // 128 MiB (DuckDB's default): eight slow readers left the server 144 MiB above its base 10 s after
      // they went, and 30 MiB below it with these (bench/RESULTS.md, server runs).
      allocator_flush_threshold: allocatorFlushThreshold,
      allocator_background_threads: 'true',
    };
    if (options.memoryLimit) config.memory_limit = options.memoryLimit;
    // DuckDB's own default spills an in-memory database into `.tmp` under the working directory, which a
    // killed process leaves there; this folder is removed at close or exit, and swept at the next start.
    const spill = spillFolder();
    config.temp_directory = spill;
    const instance = await DuckDBInstance.create(':memory:', config);
    const heavy = Math.max(1, options.connections ?? defaultHeavyConnections);
    const light = Math.max(1, options.lightConnections ?? defaultLightConnections);
    const all: DuckDBConnection[] = [];
    for (let i = 0; i < heavy + light; i++) all.push(await instance.connect());
    return new DuckDBPool(instance, all, heavy, spill);
  }

  get size(): number {
    return this.all.length;
  }

  /** A connection of the lane; waits for one when all are borrowed. An abort while waiting rejects with the signal's reason. */
  async acquire(lane: Lane = 'heavy', signal?: AbortSignal): Promise<DuckDBConnection> {
    if (this.closed) throw new Error('engine is closed');
    if (signal?.aborted) throw stopped(signal);
    const queue = this.lanes[lane];
    const conn = queue.idle.pop();
    if (conn) {
      this.active++;
      this.borrowed.add(conn);
      return conn;
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (c) => {
          signal?.removeEventListener('abort', leave);
          resolve(c);
        },
        reject,
      };
      const leave = () => {
        const at = queue.waiting.indexOf(waiter);
        if (at >= 0) queue.waiting.splice(at, 1);
        reject(stopped(signal!));
      };
      signal?.addEventListener('abort', leave, { once: true });
      queue.waiting.push(waiter);
    });
  }

  release(conn: DuckDBConnection): void {
    const next = this.lanes[this.laneOf.get(conn)!].waiting.shift();
    if (next) return next.resolve(conn);
    this.active--;
    this.borrowed.delete(conn);
    this.lanes[this.laneOf.get(conn)!].idle.push(conn);
    if (this.closed && this.active === 0) this.drained?.();
  }

  async use<T>(fn: (conn: DuckDBConnection) => Promise<T>, lane: Lane = 'heavy', signal?: AbortSignal): Promise<T> {
    const conn = await this.acquire(lane, signal);
    try {
      return lane === 'heavy' ? await this.heavyCalls.through(() => fn(conn), signal) : await fn(conn);
    } finally {
      this.release(conn);
    }
  }

  /**
   * Runs a statement and reads its result, reusing the connection's prepared statement for the same text:
   * reports render the same text for the same request shape, with every value a parameter, so a repeated
   * shape skips parsing, binding and optimizing. An abort of `signal` interrupts the statement (or
   * stops the wait for a connection) and rejects with the signal's reason.
   */
  read(text: string, params: readonly DuckDBValue[], signal?: AbortSignal): Promise<DuckDBResultReader> {
    return this.use((conn) => this.run(conn, text, params, signal), 'heavy', signal);
  }

  /**
   * Statements that read one snapshot: `fn` runs them one after the other on one connection inside one
   * transaction, each through the connection's prepared statements as `read` does, so a later statement may
   * depend on an earlier one's rows without an edit committing in between.
   */
  together<T>(
    fn: (read: (text: string, params: readonly DuckDBValue[]) => Promise<DuckDBResultReader>) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    return this.use(
      async (conn) => {
        // Prepared like the statements between them: DuckDB parses and plans a statement on the caller's thread.
        await this.run(conn, 'BEGIN TRANSACTION', []);
        try {
          const out = await fn((text, params) => this.run(conn, text, params, signal));
          await this.run(conn, 'COMMIT', []);
          return out;
        } catch (error) {
          await conn.run('ROLLBACK').catch(() => undefined);
          throw error;
        }
      },
      'heavy',
      signal,
    );
  }

  private async run(
    conn: DuckDBConnection,
    text: string,
    params: readonly DuckDBValue[],
    signal?: AbortSignal,
  ): Promise<DuckDBResultReader> {
    const stmt = await this.prepared(conn, text);
    stmt.bind(params as DuckDBValue[]);
    if (!signal) return stmt.runAndReadAll();
    if (signal.aborted) throw stopped(signal);
    const settled = interruptOnAbort(conn, signal);
    try {
      return await stmt.runAndReadAll();
    } catch (error) {
      throw signal.aborted ? stopped(signal) : error;
    } finally {
      settled();
    }
  }

  private async prepared(conn: DuckDBConnection, text: string): Promise<DuckDBPreparedStatement> {
    const cache = this.statements.get(conn) ?? this.statements.set(conn, new Map()).get(conn)!;
    let stmt = cache.get(text);
    if (stmt) cache.delete(text);
    else stmt = await conn.prepare(text);
    cache.set(text, stmt);
    if (cache.size > statementsPerConnection) {
      const [oldest, old] = cache.entries().next().value!;
      cache.delete(oldest);
      old.destroySync();
    }
    return stmt;
  }

  /**
   * Refuses new work, interrupts the statements running, and closes DuckDB once every borrowed
   * connection is back: closing a connection under a running statement leaves that statement pending
   * forever, and the process cannot exit. Returns undefined when it closed at once.
   */
  close(): Promise<void> | undefined {
    if (this.closed) return this.closing;
    this.closed = true;
    for (const lane of Object.values(this.lanes))
      for (const w of lane.waiting.splice(0)) w.reject(new Error('engine is closed'));
    const closeAll = () => {
      for (const c of this.all) c.closeSync();
      this.instance.closeSync();
      removeTempSync(this.spill);
    };
    if (this.active === 0) return void closeAll();
    const interruptAll = () => {
      for (const c of this.borrowed) c.interrupt();
    };
    interruptAll();
    const again = setInterval(interruptAll, interruptEveryMs);
    this.closing = new Promise((resolve) => {
      this.drained = () => {
        clearInterval(again);
        closeAll();
        resolve();
      };
    });
    return this.closing;
  }
}
