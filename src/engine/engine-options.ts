import type { Table as ArrowTable } from 'apache-arrow';
import type { TableName } from '../model/tables.ts';
import type { WhenLocked } from '../state/store.ts';
import type { BackendName } from './backend.ts';
import type { ByteSize } from './memory-budget.ts';

export type TableInput = ArrowTable | string | readonly string[];

export interface EngineOptions {
  /** A dataset folder (see docs/data-model.md). */
  readonly data?: string;
  /**
   * Tables given directly: an Arrow table, or Parquet file path(s). They override the folder's. Only
   * `organizations` is required: an operation that reads a table given neither way refuses with
   * MissingTableError, naming it.
   */
  readonly tables?: Partial<Record<TableName, TableInput>>;
  /** The clock every plan reads `now` from. Defaults to the system clock. */
  readonly clock?: () => Date;
  /**
   * `footer` checks each file's schema (fast). `full` also checks each file against the content hash
   * its dataset.json records (the generator records them) and reads every value, so a damaged page
   * fails at open; files without a recorded hash (your own data) are only read.
   */
  readonly verify?: 'footer' | 'full';
  readonly threads?: number;
  /** DuckDB connections for reports (default 3); state reads and writes have 2 of their own. */
  readonly connections?: number;
  /**
   * The process's memory budget for DuckDB and stream buffers together, e.g. '4GB' or bytes: DuckDB's
   * memory_limit is the budget less one buffer bound per stream that may be open. Default: half of
   * physical memory.
   */
  readonly memoryLimit?: ByteSize;
  /** Streams open at once, library iterators and HTTP streams together (default 16); one more is refused. */
  readonly maxStreams?: number;
  /**
   * Report pages kept in memory by their fingerprint, so a repeated request is answered without reading
   * data: e.g. '64MiB' or bytes, 0 turns it off. Default 64 MiB, at most an eighth of `memoryLimit`. Taken
   * from the memory budget like the stream buffers. An entry is never stale: the fingerprint changes with
   * any edit that could change the answer (docs/extensions.md).
   */
  readonly resultCache?: ByteSize;
  /**
   * Pages of reports that have a lean form (v2 visibility) are read as small aggregates ranked in JS
   * (default true); false reads them through the one-statement form, as streams are. The answers are
   * byte-identical either way; it is there to compare the two (tests, `bench/`).
   */
  readonly leanPages?: boolean;
  /**
   * The answer rows (groups, by model where the source keeps them) a lean page reads before it leaves the
   * page to the one-statement form, which ranks in SQL. Default 4,096 (where the lean form stopped winning
   * at scale 1, bench/RESULTS.md); a positive integer.
   */
  readonly leanAnswerRows?: number;
  /**
   * How long one call (not a stream) may run before its statement is interrupted and it fails with a
   * TimeBudgetError; 0 turns the budget off. Default 30 000 ms.
   */
  readonly timeBudgetMs?: number;
  /** Signs pagination cursors. Without it the state store's secret is used. */
  readonly cursorSecret?: string;
  /**
   * The durable state store (prompt edits, agents, runs, API keys): a DuckDB file, created and migrated
   * when missing. Without it the state lives in memory, starts from the dataset, and is lost on close.
   */
  readonly state?: string;
  /**
   * When another process holds the state file: `wait` (default) retries for 15 s, then fails;
   * `snapshot` reads a copy of it at once, and refuses writes (the agent runner does not start).
   */
  readonly stateWhenLocked?: WhenLocked;
  /**
   * Rollups (per category by day; traffic per organization by hour and by day), built in the background
   * on first use and kept only while current (default true). Off, every report reads the facts.
   * `'stored'`: the rollups stored on disk that are current are read in place, as views over their files,
   * and none is built or read into memory: for a process that answers one request (`aea query`).
   */
  readonly rollups?: boolean | 'stored';
  /**
   * With `rollups: 'stored'`, only this organization's stored rollups (its categories' and its own) are
   * read in place, and only their files checked: `aea query` passes its `--org`.
   */
  readonly storedRollupsOf?: string;
  /**
   * The folder where built rollups are kept so a restart or another process reads them instead of
   * building them (docs/decisions.md, "Durable rollups"). Default: beside the state file
   * (data/sample.state.duckdb → data/sample.rollups); none with an in-memory state. false: never on disk.
   */
  readonly rollupStore?: string | false;
  /** The most bytes the rollup store holds (default 8 GiB); a rollup past it answers from memory only. */
  readonly rollupStoreLimit?: ByteSize;
  /**
   * Stored rollups are read into memory in the background as the engine opens (default true). false:
   * each is read when a request first needs it (`aea rollups build`, which refreshes the store
   * without reading what is current there).
   */
  readonly restoreRollups?: boolean;
  /**
   * Segments a stored rollup holds at most (default 8, `defaultRollupSegments`): a refresh after an
   * append stores the days it refolded as a segment, and the one that would pass this writes a new base.
   */
  readonly rollupSegments?: number;
  /**
   * Small dimension tables (at most 16 MiB of Parquet) are copied into memory at open, since every report
   * joins them several times (default true). Off, they are read from their files: cheaper for a process
   * that answers one request, such as `aea query`. The answers are the same.
   */
  readonly smallTablesInMemory?: boolean;
  /**
   * Where the reports' SQL runs: `duckdb` (default, embedded), `chdb` (ClickHouse embedded in this
   * process over the same files; needs the optional package chdb) or `clickhouse` (a server or cluster
   * at `clickhouseUrl` holding the dataset's tables). The state store and resources stay on DuckDB.
   */
  readonly backend?: BackendName;
  /**
   * The ClickHouse server's HTTP URL for `backend: 'clickhouse'`, e.g. http://user:password@host:8123/database,
   * or `chdb:PATH[?database=DB]`: the tables `aea clickhouse load` wrote to a chdb data directory.
   */
  readonly clickhouseUrl?: string;
  /**
   * Temporary disk one export may take, e.g. '1GiB' (default 1 GiB): Parquet is written through a
   * temporary file. Past it the export fails with ExportTooLargeError (HTTP 413).
   */
  readonly exportTempLimit?: ByteSize;
  /** Temporary disk of all exports together (default 4 GiB); past it a new one fails with TempDiskBusyError (HTTP 503). */
  readonly tempLimit?: ByteSize;
}
