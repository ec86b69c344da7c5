import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import type { Table as ArrowTable } from 'apache-arrow';
import { CursorCodec } from '../query/cursor.ts';
import { OrgScope } from './org-scope.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DatasetError } from '../errors.ts';
import { tableNames, tables, type TableName } from '../model/tables.ts';
import { loadArrowTable } from './arrow-tables.ts';
import { DatasetVersion, type TableSource } from './dataset-version.ts';
import { emptyRelation, findTableFiles, inspectFiles, missingTableMessage, projection } from './dataset.ts';
import { DuckDBPool } from './duckdb-pool.ts';
import { contentHashes } from './content-hashes.ts';
import { defaultMaxStreams, defaultTimeBudgetMs, smallTableBytes } from './limits.ts';
import { duckdbMemoryLimit, planMemory, type ByteSize } from './memory-budget.ts';
import { Slots } from './slots.ts';
import { pathListLiteral, pathLiteral } from './literal.ts';
import { listOrganizations, type OrganizationListing } from './organizations.ts';
import { Rollups } from './rollups.ts';
import { TenantCatalog, type OrgSummary } from './tenant-catalog.ts';
import { StateStore, stateTables, type WhenLocked } from '../state/store.ts';
import { noBackgroundWork, type BackgroundWorker, type EngineCore } from './core.ts';
import type { Endpoint, EndpointInput, EndpointResult } from '../reports/endpoint.ts';
import { Routes } from '../reports/routes.ts';
import { KnowledgeIndex } from '../knowledge/knowledge-index.ts';
import type { BackendName, ReportBackend } from './backend.ts';
import { DuckDBBackend } from './duckdb-backend.ts';
import { ChdbBackend } from './chdb-backend.ts';
import type { TableCopies } from './clickhouse-tables.ts';
import { parseTargetUrl } from '../cluster/target-url.ts';

export type { EngineCore, EngineStats, BackgroundWorker } from './core.ts';

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
   * memory_limit is the budget less one buffer bound per stream that may be open. Default: 80% of
   * physical memory.
   */
  readonly memoryLimit?: ByteSize;
  /** Streams open at once, library iterators and HTTP streams together (default 16); one more is refused. */
  readonly maxStreams?: number;
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
   */
  readonly rollups?: boolean;
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
}

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
  const memory = planMemory(options.memoryLimit, maxStreams);
  const pool = await DuckDBPool.create({ threads: options.threads, connections: options.connections, memoryLimit: duckdbMemoryLimit(memory) });
  const missingTables = new Set<TableName>();
  const sources: TableSource[] = [];
  const files = new Map<TableName, readonly string[] | null>();
  let backend: ReportBackend | undefined;
  try {
    await pool.use(async (conn) => {
      await conn.run(`SET GLOBAL TimeZone = 'UTC'`);
      await conn.run(`SET GLOBAL parquet_metadata_cache = true`);
      for (const table of tableNames) {
        const source = await registerTable(conn, table, options);
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
    backend = await openBackend(options, pool, { files, generation: () => state.generation, copy: (relation, file) => copyRelation(pool, relation, file) });
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
    };
  } catch (error) {
    await backend?.close();
    pool.close();
    throw error;
  }
}

const isDimension = (table: TableName) => !(tables[table].sort as readonly string[]).some((c) => c === 'executed_at' || c === 'ts');

const bytesOf = (files: readonly string[]) => files.reduce((sum, f) => sum + statSync(f).size, 0);

async function openBackend(options: EngineOptions, pool: DuckDBPool, copies: TableCopies): Promise<ReportBackend> {
  const name = options.backend ?? 'duckdb';
  if (name === 'chdb') return ChdbBackend.open(copies);
  if (name === 'clickhouse') {
    if (!options.clickhouseUrl) throw new DatasetError('the clickhouse backend needs `clickhouseUrl` (--clickhouse-url), the HTTP URL of the server');
    if (options.clickhouseUrl.startsWith('chdb:')) {
      // Tables `aea clickhouse load` wrote to a chdb data directory, read in this process.
      const target = parseTargetUrl(options.clickhouseUrl);
      if (target.kind === 'chdb') return ChdbBackend.openLoaded(target.path, target.database);
    }
    // Loaded only by engines that use it: most never talk to a ClickHouse server.
    const { ClickHouseBackend } = await import('./clickhouse-backend.ts');
    return ClickHouseBackend.open(options.clickhouseUrl);
  }
  if (name !== 'duckdb') throw new DatasetError(`unknown backend ${JSON.stringify(name)}: use duckdb, chdb or clickhouse`);
  return new DuckDBBackend(pool);
}

/** Writes a relation of the engine's DuckDB to a Parquet file, for a ClickHouse backend to read. */
async function copyRelation(pool: DuckDBPool, relation: string, file: string): Promise<void> {
  await pool.use((conn) => conn.run(`COPY (SELECT * FROM "${relation}") TO ${pathLiteral(file)} (FORMAT parquet)`), 'light');
}

/** Editable tables are registered as `dataset_<table>`; the state store serves `<table>`. */
const viewName = (table: TableName) => ((stateTables as readonly string[]).includes(table) ? `dataset_${table}` : table);

/** Registers one table as a view, saying where its rows come from; null when the dataset leaves it out (then the view is empty). */
async function registerTable(conn: DuckDBConnection, table: TableName, options: EngineOptions): Promise<TableSource | null> {
  const view = viewName(table);
  const input = options.tables?.[table];
  if (input !== undefined && typeof input !== 'string' && !Array.isArray(input)) {
    const staging = await loadArrowTable(conn, table, input as ArrowTable);
    const source = await inspectTable(conn, table, staging);
    await conn.run(`CREATE OR REPLACE VIEW "${view}" AS SELECT ${source} FROM "${staging}"`);
    return { table, relation: view };
  }
  const files = input === undefined ? (options.data ? findTableFiles(options.data, table) : undefined) : typeof input === 'string' ? [input] : [...(input as readonly string[])];
  if (!files) {
    if (table === 'organizations') throw new DatasetError(options.data ? missingTableMessage(options.data, table) : 'missing table "organizations": pass it in `tables` or give a `data` folder');
    await conn.run(`CREATE OR REPLACE VIEW "${view}" AS ${emptyRelation(table)}`);
    return null;
  }
  const source = await inspectFiles(conn, table, files);
  if (options.verify === 'full') {
    if (input === undefined) await contentHashes(options.data!).check(table, files);
    await readEveryValue(conn, table, files);
  }
  // A small dimension table is read once into memory: every report joins the dimensions several times,
  // and each read of a Parquet file, however small, costs about half a millisecond of opening and
  // decoding. Facts (ordered by time) are always read from their files.
  const kind = isDimension(table) && bytesOf(files) <= smallTableBytes ? 'TABLE' : 'VIEW';
  await conn.run(`CREATE OR REPLACE ${kind} "${view}" AS SELECT ${projection(table, source.columns)} FROM read_parquet(${pathListLiteral(files)})`);
  return { table, files };
}

async function inspectTable(conn: DuckDBConnection, table: TableName, staging: string): Promise<string> {
  const reader = await conn.runAndReadAll(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "${staging}")`);
  const types = new Map(reader.getRowsJS().map((r) => [String(r[0]), String(r[1])]));
  const columns = [...types.keys()].map((name) => ({ name, cast: types.get(name) === 'VARCHAR' && isUuidColumn(table, name) }));
  return projection(table, columns);
}

function isUuidColumn(table: TableName, column: string): boolean {
  const columns: Record<string, { type: string }> = tables[table].columns;
  return columns[column]?.type === 'UUID';
}

async function readEveryValue(conn: DuckDBConnection, table: TableName, files: readonly string[]): Promise<void> {
  for (const file of files) {
    try {
      await conn.run(`SELECT count(*), max(hash(COLUMNS(*))) FROM read_parquet(${pathListLiteral([file])})`);
    } catch (error) {
      throw new DatasetError(`cannot read ${file} (table "${table}"): ${(error as Error).message.split('\n')[0]}`, file);
    }
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

