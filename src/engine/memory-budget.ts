import { totalmem } from 'node:os';
import { defaultMemoryFraction, defaultResultCacheBytes, minDatabaseMemory, streamBufferBytes } from '../limits.ts';

/** A byte count, or text such as '4GB' (powers of 1000) or '1.5GiB' (powers of 1024), as DuckDB reads it. */
export type ByteSize = number | string;

const units: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

export function parseBytes(size: ByteSize): number {
  if (typeof size === 'number') {
    if (!Number.isFinite(size) || size <= 0)
      throw new RangeError(`a memory size must be a positive number of bytes, got ${size}`);
    return Math.floor(size);
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(size);
  const factor = m ? units[(m[2] || 'b').toLowerCase()] : undefined;
  if (!m || factor === undefined || Number(m[1]) <= 0)
    throw new RangeError(`cannot read the memory size '${size}': write e.g. 4GB, 512MiB or a number of bytes`);
  return Math.floor(Number(m[1]) * factor);
}

/** How the process budget is split: buffers reserved for every stream that may be open and the result cache, DuckDB gets the rest. */
export interface MemoryPlan {
  readonly budget: number;
  readonly streamReserve: number;
  /** The result cache's bound in bytes (0: off). */
  readonly resultCache: number;
  /** DuckDB's `memory_limit` in bytes. */
  readonly database: number;
}

/**
 * DuckDB's memory_limit = budget − (streams that may be open × one stream's buffer bound). Without a
 * budget it is DuckDB's own default share of physical memory. A budget that leaves DuckDB less than
 * `minDatabaseMemory` is refused.
 */
export function planMemory(limit: ByteSize | undefined, maxStreams: number, resultCacheSize?: ByteSize): MemoryPlan {
  const budget = limit === undefined ? Math.floor(totalmem() * defaultMemoryFraction) : parseBytes(limit);
  const streamReserve = maxStreams * streamBufferBytes;
  // The default never makes a budget too small: it shrinks to what DuckDB's minimum leaves (0 at the least).
  const resultCache =
    resultCacheSize === undefined
      ? Math.max(
          0,
          Math.min(defaultResultCacheBytes, Math.floor(budget / 8), budget - streamReserve - minDatabaseMemory),
        )
      : /^\s*0+(\.0*)?\s*[a-z]*\s*$/i.test(String(resultCacheSize))
        ? 0
        : parseBytes(resultCacheSize);
  const database = budget - streamReserve - resultCache;
  if (database < minDatabaseMemory) {
    const mib = (n: number) => `${Math.round(n / 2 ** 20)} MiB`;
    throw new RangeError(
      `a memory budget of ${mib(budget)} leaves DuckDB ${mib(database)} once ${maxStreams} stream buffers of ${mib(streamBufferBytes)}${resultCache > 0 ? ` and a result cache of ${mib(resultCache)}` : ''} are reserved; give at least ${mib(streamReserve + resultCache + minDatabaseMemory)} or allow fewer streams${resultCache > 0 ? ' or a smaller cache' : ''}`,
    );
  }
  return { budget, streamReserve, resultCache, database };
}

/** The plan's database share in DuckDB's syntax (or `bytes` of it, when chdb takes part). */
export const duckdbMemoryLimit = (plan: MemoryPlan, bytes = plan.database) => `${Math.floor(bytes / 1024)}KiB`;

/**
 * With chdb in the process (`backend: 'chdb'`, or `clickhouse` over a `chdb:` directory), the database
 * share is split: DuckDB keeps a quarter (the state store, the views and the copies chdb reads) and chdb's
 * statements get the rest as their `max_memory_usage`. Each gets at least `minDatabaseMemory`.
 */
export function embeddedShares(plan: MemoryPlan): { readonly duckdb: number; readonly chdb: number } {
  const duckdb = Math.max(minDatabaseMemory, Math.floor(plan.database / 4));
  return { duckdb, chdb: Math.max(minDatabaseMemory, plan.database - duckdb) };
}
