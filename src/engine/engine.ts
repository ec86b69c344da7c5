import { TempDisk } from './temp-disk.ts';
import { ResultCache } from './result-cache.ts';
import { randomBytes } from 'node:crypto';
import { CursorCodec } from '../query/cursor.ts';
import { OrgScope } from './org-scope.ts';
import { DatasetError } from '../errors.ts';
import { tableNames, type TableName } from '../model/tables.ts';
import { DatasetVersion, type TableSource } from './dataset-version.ts';
import { DuckDBPool } from './duckdb-pool.ts';
import { defaultMaxStreams, defaultTimeBudgetMs } from './limits.ts';
import { duckdbMemoryLimit, embeddedShares, planMemory } from './memory-budget.ts';
import { Slots } from './slots.ts';
import { listOrganizations, type OrganizationListing } from './organizations.ts';
import { Rollups } from './rollups.ts';
import { TenantCatalog, type OrgSummary } from './tenant-catalog.ts';
import { StateStore } from '../state/store.ts';
import { noBackgroundWork, type BackgroundWorker, type EngineCore } from './core.ts';
import type { Endpoint, EndpointInput, EndpointResult } from '../reports/endpoint.ts';
import { Routes } from '../reports/routes.ts';
import type { EngineOptions } from './engine-options.ts';
import { copyRelation, openBackend } from './open-backend.ts';
import { describeDataset, registerTable } from './register-tables.ts';
import { KnowledgeIndex } from '../knowledge/knowledge-index.ts';
import type { ReportBackend } from './backend.ts';

export type { EngineCore, EngineStats, BackgroundWorker } from './core.ts';

export type { EngineOptions, TableInput } from './engine-options.ts';

/** Calls an operation as an organization, exactly as `engine.org(id).call` does. */
export type EngineCall = (organizationId: string, method: string, path: string, input: EndpointInput) => Promise<EndpointResult>;

/**
 * What the host that opens the engine brings: the operations it serves (the registry) and its
 * background work (the agent runner), so the core imports neither.
 */
export interface EngineHost {
  readonly endpoints: readonly Endpoint[];
  readonly background?: (core: Omit<EngineCore, 'runner'>, call: EngineCall) => BackgroundWorker;
}

/** Opens the dataset: checks every table against the contract, then registers it as a DuckDB view. */
export async function openCore(options: EngineOptions): Promise<Omit<EngineCore, 'runner'>> {
  if (!options.data && !options.tables) throw new DatasetError('openEngine needs `data` (a dataset folder) or `tables`');
  const maxStreams = options.maxStreams ?? defaultMaxStreams;
  const memory = planMemory(options.memoryLimit, maxStreams, options.resultCache);
  const chdbInProcess = options.backend === 'chdb' || (options.backend === 'clickhouse' && options.clickhouseUrl?.startsWith('chdb:') === true);
  const shares = chdbInProcess ? embeddedShares(memory) : { duckdb: memory.database, chdb: 0 };
  const pool = await DuckDBPool.create({ threads: options.threads, connections: options.connections, memoryLimit: duckdbMemoryLimit(memory, shares.duckdb) });
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
    const limits = { timeBudgetMs: options.timeBudgetMs ?? defaultTimeBudgetMs, memory };
    backend = await openBackend(options, pool, { files, generation: () => state.generation, copy: (relation, file) => copyRelation(pool, relation, file) }, shares.chdb);
    return {
      pool,
      backend,
      stats: { activeStreams: 0, bufferedRows: 0 },
      limits,
      streams: new Slots(maxStreams),
      state,
      catalog,
      rollups: new Rollups(pool, (options.rollups ?? true) && backend.rollups, (id) => state.promptVersion(id)),
      clock,
      dataDir: options.data,
      knowledge: new KnowledgeIndex(state),
      missingTables,
      version: new DatasetVersion(pool, options.data, sources, state),
      tempDisk: new TempDisk(options.exportTempLimit, options.tempLimit),
      results: new ResultCache(memory.resultCache),
    };
  } catch (error) {
    await backend?.close();
    pool.close();
    throw error;
  }
}

/** The opened dataset. Hand out org-scoped handles with `engine.org(id)`; close it when done. */
export class Engine {
  private readonly cursors: CursorCodec;

  private constructor(
    readonly core: EngineCore,
    private readonly routes: Routes,
    cursorSecret: string,
  ) {
    this.cursors = new CursorCodec(cursorSecret);
  }

  static async open(options: EngineOptions, host: EngineHost): Promise<Engine> {
    const opened = await openCore(options);
    const call: EngineCall = (organizationId, method, path, input) => engine.org(organizationId).call(method, path, input);
    const runner = host.background?.(opened, call) ?? noBackgroundWork;
    const core: EngineCore = { ...opened, runner };
    const engine: Engine = new Engine(core, new Routes(host.endpoints), options.cursorSecret ?? (await core.state.meta('cursor_secret')) ?? randomBytes(32).toString('base64url'));
    try {
      if (!core.state.readOnly) await runner.start();
    } catch (error) {
      core.pool.close();
      throw error;
    }
    return engine;
  }

  /** A handle that runs every report and resource as this organization. */
  org(organizationId: string): OrgScope {
    return new OrgScope(this.core, this.routes, organizationId, this.cursors);
  }

  get organizations(): readonly OrgSummary[] {
    return this.core.catalog.organizations;
  }

  listOrganizations(): Promise<OrganizationListing[]> {
    return this.core.pool.use(listOrganizations);
  }

  /** Resolves when every queued agent run has finished. */
  runsSettled(): Promise<void> {
    return this.core.runner.idle();
  }

  /**
   * Stops rollup builds and the agent runner, then closes DuckDB. When a run is executing, its current
   * step finishes and the run goes back to the queue (it resumes when the state store is opened again);
   * a rollup build under way is interrupted. Await the promise before exiting. When neither is under
   * way, everything is closed before this returns.
   */
  close(): Promise<void> {
    const waits = [this.core.rollups.close(), this.core.runner.stop(), this.core.knowledge.close()].filter((w) => w !== undefined);
    const backend = this.core.backend.close();
    if (backend) waits.push(backend);
    if (waits.length === 0) return this.core.pool.close() ?? Promise.resolve();
    return Promise.all(waits).then(() => this.core.pool.close());
  }
}

