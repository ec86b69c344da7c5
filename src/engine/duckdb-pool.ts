import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

export interface PoolOptions {
  readonly threads?: number;
  readonly connections?: number;
  readonly memoryLimit?: string;
}

/**
 * One embedded DuckDB instance and a fixed set of connections. A connection runs one statement at a
 * time, so concurrent requests each borrow one; DuckDB parallelises each query across its threads.
 */
export class DuckDBPool {
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: ((c: DuckDBConnection) => void)[] = [];
  private closed = false;
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
      return conn;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(conn: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next(conn);
    else {
      this.active--;
      this.idle.push(conn);
    }
  }

  async use<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const conn = await this.acquire();
    try {
      return await fn(conn);
    } finally {
      this.release(conn);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.all) c.closeSync();
    this.instance.closeSync();
  }
}
