import type { ColumnBatch } from '../query/row-shape.ts';
import type { DialectName, Fragment } from '../query/sql.ts';

/** Where report SQL runs: embedded DuckDB (the default), embedded ClickHouse (chdb), or a ClickHouse server or cluster. */
export type BackendName = 'duckdb' | 'chdb' | 'clickhouse';

export const backendNames: readonly BackendName[] = ['duckdb', 'chdb', 'clickhouse'];

/**
 * Statements that read one snapshot, for a stream: `batches` pulls a statement's rows a batch at a
 * time; `close` ends the snapshot (`finished` false when the reader stopped early or failed, which
 * interrupts what still runs).
 */
export interface Snapshot {
  read(query: Fragment): Promise<ColumnBatch>;
  batches(query: Fragment): AsyncGenerator<ColumnBatch>;
  close(finished: boolean): Promise<void>;
}

/**
 * Runs the reports' SQL. The state store, resources and the tenant catalog stay on the engine's
 * DuckDB whatever the backend; a ClickHouse backend reads the dataset's tables and a copy of the state
 * tables the reports join (see docs/scale-out.md).
 */
export interface ReportBackend {
  readonly name: BackendName;
  readonly dialect: DialectName;
  /** Whether rollups may answer: the engine's DuckDB rollups on DuckDB, the rollups it keeps on a backend that keeps them (`keptRollups`). */
  readonly rollups: boolean;
  /**
   * The rollups (`RollupDef.name`) the backend keeps itself, current at every statement (ClickHouse's
   * materialized views); the engine builds none of its own for it. Undefined: the engine's DuckDB rollups.
   */
  readonly keptRollups?: ReadonlySet<string>;
  /** One statement's whole result. An abort of `signal` stops it and rejects with the signal's reason. */
  read(query: Fragment, signal?: AbortSignal): Promise<ColumnBatch>;
  snapshot(signal?: AbortSignal): Promise<Snapshot>;
  /**
   * Statements that depend on each other's rows, read in one snapshot where the backend has them (DuckDB:
   * one transaction on a pooled connection). Without it they are read one at a time, as ClickHouse reads a
   * page's head and rows.
   */
  together?<T>(fn: (read: (query: Fragment) => Promise<ColumnBatch>) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Releases what the backend holds: undefined when done at once, else a promise of it. */
  close(): Promise<void> | undefined;
}
