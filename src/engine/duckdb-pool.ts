import { DuckDBInstance, type DuckDBConnection, type DuckDBPreparedStatement, type DuckDBResultReader, type DuckDBValue } from '@duckdb/node-api';

export interface PoolOptions {
  readonly threads?: number;
  readonly connections?: number;
  readonly memoryLimit?: string;
}

const statementsPerConnection = 64;

/**
 * One embedded DuckDB instance and a fixed set of connections. A connection runs one statement at a
 * time, so concurrent requests each borrow one; DuckDB parallelises each query across its threads.
 */
export class DuckDBPool {
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: { resolve: (c: DuckDBConnection) => void; reject: (e: Error) => void }[] = [];
  private readonly borrowed = new Set<DuckDBConnection>();
  private readonly statements = new Map<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();
  private closed = false;
  private closing: Promise<void> | undefined;
  private drained: (() => void) | undefined;
  /** Connections currently borrowed. */
  active = 0;

  private constructor(
    readonly instance: DuckDBInstance,
    private readonly all: DuckDBConnection[],
  ) {
    this.idle.push(...all);
  }

  static async create(options: PoolOptions = {}): Promise<DuckDBPool> {
    const config: Record<string, string> = {
      threads: String(options.threads ?? 2),
    };
    if (options.memoryLimit) config.memory_limit = options.memoryLimit;
    const instance = await DuckDBInstance.create(':memory:', config);
    const all: DuckDBConnection[] = [];
    for (let i = 0; i < (options.connections ?? 4); i++) all.push(await instance.connect());
    return new DuckDBPool(instance, all);
  }

  get size(): number {
    return this.all.length;
  }

  async acquire(): Promise<DuckDBConnection> {
    if (this.closed) throw new Error('engine is closed');
    const conn = this.idle.pop();
    if (conn) {
      this.active++;
      this.borrowed.add(conn);
      return conn;
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  release(conn: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) return next.resolve(conn);
    this.active--;
    this.borrowed.delete(conn);
    this.idle.push(conn);
    if (this.closed && this.active === 0) this.drained?.();
  }

  async use<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const conn = await this.acquire();
    try {
      return await fn(conn);
    } finally {
      this.release(conn);
    }
  }

  /**
   * Runs a statement and reads its result, reusing the connection's prepared statement for the same text:
   * reports render the same text for the same request shape, with every value a parameter, so a repeated
   * shape skips parsing, binding and optimizing.
   */
  read(text: string, params: readonly DuckDBValue[]): Promise<DuckDBResultReader> {
    return this.use(async (conn) => {
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
      stmt.bind(params as DuckDBValue[]);
      return stmt.runAndReadAll();
    });
  }

  /**
   * Refuses new work, interrupts the statements running, and closes DuckDB once every borrowed
   * connection is back: closing a connection under a running statement leaves that statement pending
   * forever, and the process cannot exit. Returns undefined when it closed at once.
   */
  close(): Promise<void> | undefined {
    if (this.closed) return this.closing;
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error('engine is closed'));
    const closeAll = () => {
      for (const c of this.all) c.closeSync();
      this.instance.closeSync();
    };
    if (this.active === 0) return void closeAll();
    for (const c of this.borrowed) c.interrupt();
    this.closing = new Promise((resolve) => {
      this.drained = () => {
        closeAll();
        resolve();
      };
    });
    return this.closing;
  }
}
