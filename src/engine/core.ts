import type { TempDisk } from './temp-disk.ts';
import type { DuckDBPool } from './duckdb-pool.ts';
import type { ReportBackend } from './backend.ts';
import type { Rollups } from './rollups.ts';
import type { TenantCatalog } from './tenant-catalog.ts';
import type { StateStore } from '../state/store.ts';
import type { KnowledgeIndex } from '../knowledge/knowledge-index.ts';
import type { MemoryPlan } from './memory-budget.ts';
import type { Slots } from './slots.ts';
import type { TableName } from '../model/tables.ts';
import type { DatasetVersion } from './dataset-version.ts';
import type { ResultCache } from './result-cache.ts';
import type { DimensionCache } from './dimension-cache.ts';

export interface EngineLimits {
  readonly timeBudgetMs: number;
  /** Answer rows a lean page reads before the one-statement form answers instead (`leanAnswerRows`). */
  readonly leanAnswerRows: number;
  readonly memory: MemoryPlan;
}

export interface EngineStats {
  /** Streams currently holding a DuckDB connection. */
  activeStreams: number;
  /** Rows streams have fetched from DuckDB and not yet handed on: at most one chunk per stream. */
  bufferedRows: number;
  /** Pages read in their report's lean form. */
  leanPages: number;
  /** Lean pages read again through the one-statement form (too many groups, or an edit meanwhile). */
  leanFallbacks: number;
}

/**
 * Work the host attaches to an opened engine (the agent runner): started once the engine can take
 * calls, woken after a write queues work, awaited by `runsSettled`, stopped before DuckDB closes.
 */
export interface BackgroundWorker {
  start(): Promise<void>;
  notify(): void;
  idle(): Promise<void>;
  /** Resolves when the work in progress is put away; undefined when idle. */
  stop(): Promise<void> | undefined;
}

/** What every call reads: the opened dataset, the state store and the engine's services. Types only, so reports and resources can name it without importing the engine. */
export interface EngineCore {
  readonly pool: DuckDBPool;
  /** Where the reports' SQL runs (DuckDB by default: then it is `pool`). */
  readonly backend: ReportBackend;
  readonly stats: EngineStats;
  readonly limits: EngineLimits;
  /** One slot per open stream, whoever reads it; `limits.memory` reserves a buffer for each. */
  readonly streams: Slots;
  readonly state: StateStore;
  readonly catalog: TenantCatalog;
  readonly rollups: Rollups;
  readonly clock: () => Date;
  readonly dataDir: string | undefined;
  /** Full-text search over the knowledge bases of the state store. */
  readonly knowledge: KnowledgeIndex;
  /** Executes queued agent runs in the background (idle when the host attaches none). */
  readonly runner: BackgroundWorker;
  /** Dataset tables given neither in the folder nor in `tables`: registered empty, refused by the operations that read them. */
  readonly missingTables: ReadonlySet<TableName>;
  /** The temporary disk of exports (Parquet): a bound per export and one for the process. */
  readonly tempDisk: TempDisk;
  /** The identity of what reports read (dataset and state store content), for answers' fingerprints. */
  readonly version: DatasetVersion;
  /** Report pages kept by their fingerprint (`resultCache`; off when its bound is 0). */
  readonly results: ResultCache;
  /** The small dimension tables in memory, current with the state store (lean pages name and rank from them). */
  readonly dimensions: DimensionCache;
  /** Whether pages read a report's lean form when it has one (`leanPages`). */
  readonly leanPages: boolean;
}

export const noBackgroundWork: BackgroundWorker = {
  start: async () => undefined,
  notify: () => undefined,
  idle: async () => undefined,
  stop: () => undefined,
};
