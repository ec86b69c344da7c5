import { TempDisk } from './temp-disk.ts';
import { ResultCache } from './result-cache.ts';
import { DatasetError } from '../errors.ts';
import { tableNames, type TableName } from '../model/tables.ts';
import { DatasetVersion, type TableSource } from './dataset-version.ts';
import { DuckDBPool } from './duckdb-pool.ts';
import { defaultMaxStreams, defaultTimeBudgetMs, leanAnswerRows } from '../limits.ts';
import { duckdbMemoryLimit, embeddedShares, planMemory } from './memory-budget.ts';
import { Slots } from './slots.ts';
import { Rollups, type DurableRollups, type RollupDef } from './rollups.ts';
import { BackendRollups } from './backend-rollups.ts';
import { RollupStore } from './rollup-store.ts';
import { parseBytes } from './memory-budget.ts';
import { defaultRollupSegments, defaultRollupStoreBytes } from '../limits.ts';
import { TenantCatalog } from './tenant-catalog.ts';
import { DimensionCache } from './dimension-cache.ts';
import { StateStore } from '../state/store.ts';
import type { EngineCore } from './core.ts';
import type { EngineOptions } from './engine-options.ts';
import { copyRelation, openBackend } from './open-backend.ts';
import { describeDataset, registerTable } from './register-tables.ts';
import { KnowledgeIndex } from '../knowledge/knowledge-index.ts';
import type { ReportBackend } from './backend.ts';

/** Opens the dataset: checks every table against the contract, then registers it as a DuckDB view. */
export async function openCore(
  options: EngineOptions,
  rollupCatalog: readonly RollupDef[] = [],
): Promise<Omit<EngineCore, 'runner'>> {
  if (!options.data && !options.tables)
    throw new DatasetError('openEngine needs `data` (a dataset folder) or `tables`');
  const maxStreams = options.maxStreams ?? defaultMaxStreams;
  const memory = planMemory(options.memoryLimit, maxStreams, options.resultCache);
  const chdbInProcess =
    options.backend === 'chdb' ||
    (options.backend === 'clickhouse' && options.clickhouseUrl?.startsWith('chdb:') === true);
  const shares = chdbInProcess ? embeddedShares(memory) : { duckdb: memory.database, chdb: 0 };
  const pool = await DuckDBPool.create({
    threads: options.threads,
    connections: options.connections,
    memoryLimit: duckdbMemoryLimit(memory, shares.duckdb),
  });
  const missingTables = new Set<TableName>();
  const sources: TableSource[] = [];
  const files = new Map<TableName, readonly string[] | null>();
  let backend: ReportBackend | undefined;
  try {
    await pool.use(async (conn) => {
      await conn.run(`SET GLOBAL TimeZone = 'UTC'`);
      await conn.run(`SET GLOBAL parquet_metadata_cache = true`);
      const described = options.verify === 'full' ? undefined : await describeDataset(conn, tableNames, options);
      for (const table of tableNames) {
        const source = await registerTable(conn, table, options, described);
        if (source) sources.push(source);
        else missingTables.add(table);
        files.set(table, source && 'files' in source ? source.files : null);
      }
      await conn.run(`CREATE OR REPLACE VIEW request_log AS
        SELECT organization_id, domain_id, domain, ts, host, path FROM bot_events
        UNION ALL SELECT organization_id, domain_id, domain, ts, host, path FROM referral_visits`);
    });
    const state = await StateStore.attach(pool, options.state ?? ':memory:', options.stateWhenLocked);
    const catalog = await pool.use((conn) => TenantCatalog.load(conn));
    const clock = options.clock ?? (() => new Date());
    const limits = {
      timeBudgetMs: options.timeBudgetMs ?? defaultTimeBudgetMs,
      leanAnswerRows: positive('leanAnswerRows', options.leanAnswerRows ?? leanAnswerRows),
      memory,
    };
    const version = new DatasetVersion(pool, options.data, sources, state);
    const rollupsOn = (options.rollups ?? true) !== false;
    backend = await openBackend(
      options,
      pool,
      { files, generation: () => state.generation, copy: (relation, file) => copyRelation(pool, relation, file) },
      rollupCatalog,
      shares.chdb,
    );
    return {
      pool,
      backend,
      stats: { activeStreams: 0, bufferedRows: 0, leanPages: 0, leanFallbacks: 0 },
      limits,
      streams: new Slots(maxStreams),
      state,
      catalog,
      rollups: backend.keptRollups
        ? new BackendRollups(pool, rollupsOn && backend.rollups, (id) => state.promptVersion(id), backend.keptRollups)
        : new Rollups(
            pool,
            rollupsOn && backend.rollups,
            (id) => state.promptVersion(id),
            durableRollups(options, version),
            options.rollups === 'stored',
          ),
      clock,
      dataDir: options.data,
      knowledge: new KnowledgeIndex(state),
      missingTables,
      version,
      tempDisk: new TempDisk(options.exportTempLimit, options.tempLimit),
      results: new ResultCache(memory.resultCache),
      dimensions: new DimensionCache(backend, () => state.generation),
      leanPages: options.leanPages ?? true,
    };
  } catch (error) {
    await backend?.close();
    pool.close();
    throw error;
  }
}

/**
 * Where rollups are kept on disk: `rollupStore`, else beside a state file (data/sample.state.duckdb →
 * data/sample.rollups), since a stored rollup of a category is as current as the prompts there. None
 * for an in-memory state, `rollupStore: false`, or tables given as Arrow (keyed by files only).
 */
export function rollupStorePath(options: Pick<EngineOptions, 'rollupStore' | 'state'>): string | null {
  if (options.rollupStore === false) return null;
  if (typeof options.rollupStore === 'string') return options.rollupStore;
  if (!options.state || options.state === ':memory:') return null;
  return options.state.endsWith('.state.duckdb')
    ? `${options.state.slice(0, -'.state.duckdb'.length)}.rollups`
    : `${options.state}.rollups`;
}

function durableRollups(options: EngineOptions, version: DatasetVersion): DurableRollups | undefined {
  const dir = rollupStorePath(options);
  const files = dir ? version.fileIdentities() : null;
  return dir && files
    ? {
        store: new RollupStore(
          dir,
          parseBytes(options.rollupStoreLimit ?? defaultRollupStoreBytes),
          options.rollupSegments ?? defaultRollupSegments,
        ),
        files,
      }
    : undefined;
}

function positive(option: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${option} must be a positive integer, got ${value}`);
  return value;
}
