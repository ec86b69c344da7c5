import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { removeTempSync, tempFolderSync } from './temp-paths.ts';
import { join } from 'node:path';
import { DatasetError } from '../errors.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import { clickhouseParams, render, type Fragment } from '../query/sql.ts';
import type { ReportBackend, Snapshot } from './backend.ts';
import { acquireChdb, type ChdbHandle } from './chdb-session.ts';
import { wholeStatements } from './clickhouse-rows.ts';
import { clickhouseLiteral, clickhouseTables, type TableCopies } from './clickhouse-tables.ts';
import { keptRollups } from '../cluster/rollup-ddl.ts';
import type { RollupDef } from './rollups.ts';

export { requireOptional } from './chdb-session.ts';

/**
 * Reports on chdb, ClickHouse embedded in this process, over the same Parquet files: each dataset
 * table is a view over its files (`file(…, Parquet)`), and what DuckDB alone holds (Arrow tables, the
 * state store's tables) is copied to Parquet for it, again whenever the state changes. Statements run
 * one at a time on the process's chdb session (chdb answers each whole); a stream reads each slice
 * whole and hands it on 2,048 rows at a time, so a stream holds one slice (see `sliceUnits`).
 * No rollups: reports read the facts.
 *
 * `openLoaded` reads instead the tables `aea clickhouse load` wrote to a chdb data directory, as the
 * clickhouse backend reads a server's: nothing is created, and the state tables are the loaded copy.
 * It answers from the rollups the load created (`src/cluster/rollup-ddl.ts`) when the database has
 * every object of one; a database loaded before they existed reads the facts.
 */
export class ChdbBackend implements ReportBackend {
  readonly dialect = 'clickhouse';
  readonly rollups: boolean;
  readonly keptRollups: ReadonlySet<string> | undefined;
  private closed = false;

  private constructor(
    readonly name: 'chdb' | 'clickhouse',
    private readonly chdb: ChdbHandle,
    private readonly database: string,
    /** What to copy and where, for the views over the dataset's files; undefined over loaded tables, which the backend neither writes nor drops. */
    private readonly views: { readonly copies: TableCopies; readonly dir: string } | undefined,
    kept?: ReadonlySet<string>,
  ) {
    this.rollups = kept !== undefined && kept.size > 0;
    this.keptRollups = kept;
  }

  /** `maxMemoryBytes`: each statement's `max_memory_usage` (the engine's chdb share of the memory budget). */
  static async open(copies: TableCopies, maxMemoryBytes?: number): Promise<ChdbBackend> {
    const database = `aea_${randomBytes(6).toString('hex')}`;
    const dir = tempFolderSync('chdb');
    const backend = new ChdbBackend('chdb', acquireChdb(undefined, maxMemoryBytes), database, { copies, dir });
    try {
      await backend.run(`CREATE DATABASE ${database} ENGINE = Atomic`, false);
      for (const statement of await clickhouseTables(copies, backend.describe, dir, 'dataset'))
        await backend.run(statement);
      return backend;
    } catch (error) {
      await backend.close();
      throw error;
    }
  }

  /** Over the tables loaded in `database` of the chdb data directory `path`; a database without them is refused. */
  static async openLoaded(
    path: string,
    database: string,
    rollupCatalog: readonly RollupDef[],
    maxMemoryBytes?: number,
  ): Promise<ChdbBackend> {
    const chdb = acquireChdb(path, maxMemoryBytes);
    const probe = new ChdbBackend('clickhouse', chdb, database, undefined);
    try {
      const found = await probe.run(
        `SELECT count() AS n FROM system.tables WHERE database = {db:String} AND name IN ('organizations', 'prompts')`,
        false,
        { db: database },
      );
      if (Number(found.columns.n![0]) < 2)
        throw new DatasetError(
          `the chdb data directory ${path} has no dataset in database ${database}: load one with \`aea clickhouse load DIR --url chdb:${path}\``,
        );
      const tables = await probe.run(`SELECT name FROM system.tables WHERE database = {db:String}`, false, {
        db: database,
      });
      return new ChdbBackend(
        'clickhouse',
        chdb,
        database,
        undefined,
        keptRollups(new Set(tables.columns.name!.map(String)), rollupCatalog),
      );
    } catch (error) {
      await probe.close();
      throw error;
    }
  }

  private synced = -1;
  /** The copy under way, which concurrent statements of the same generation wait for rather than repeat. */
  private syncing: { readonly generation: number; readonly done: Promise<void> } | undefined;

  private readonly describe = async (source: string) => {
    const rows = await this.run(`DESCRIBE file(${clickhouseLiteral(source)}, Parquet)`, false);
    return new Map(rows.columns.name!.map((n, i) => [String(n), String(rows.columns.type![i])]));
  };

  /** Copies the state store's tables again when a transaction changed them since the last copy, then drops the older copy's files. */
  private syncState(): Promise<void> {
    if (!this.views) return Promise.resolve();
    const { copies, dir } = this.views;
    const generation = copies.generation();
    if (generation === this.synced) return Promise.resolve();
    if (this.syncing?.generation === generation) return this.syncing.done;
    const previous = this.synced;
    const done = (async () => {
      for (const statement of await clickhouseTables(copies, this.describe, dir, `state-${generation}`, true))
        await this.run(statement);
      this.synced = generation;
      for (const f of readdirSync(dir)) if (f.startsWith(`state-${previous}-`)) rmSync(join(dir, f), { force: true });
    })();
    this.syncing = { generation, done };
    return done.finally(() => {
      if (this.syncing?.done === done) this.syncing = undefined;
    });
  }

  /**
   * Runs one statement in this engine's database, after every statement queued before it.
   * TRICKY: over Parquet views, conditions stay out of PREWHERE. ClickHouse 26.7 moves a condition the
   * statement repeats (a filter's `tag is X` both alone and under an `or`) into the Parquet reader's
   * PREWHERE and then looks for it in the block by a name it no longer has: "Not found column
   * coalesce(hasAny(… tag_ids …)) in block (NOT_FOUND_COLUMN_IN_BLOCK)" on the prompts' copy
   * (`optimize_move_to_prewhere = 0` answers it; turning off Parquet filter push-down does not).
   * Loaded MergeTree tables keep PREWHERE.
   */
  private run(text: string, inDatabase = true, params: object = {}, signal?: AbortSignal): Promise<ColumnBatch> {
    if (this.closed && inDatabase) return Promise.reject(new Error('engine is closed'));
    return this.chdb.run(text, inDatabase ? this.database : undefined, params, signal, this.views === undefined);
  }

  async read(query: Fragment, signal?: AbortSignal): Promise<ColumnBatch> {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    await this.syncState();
    const q = render(query, 'clickhouse');
    return this.run(q.text, true, clickhouseParams(q.params), signal);
  }

  async snapshot(signal?: AbortSignal): Promise<Snapshot> {
    return wholeStatements((query: Fragment) => this.read(query, signal));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.views) {
      await this.run(`DROP DATABASE IF EXISTS ${this.database}`, false).catch(() => undefined);
      removeTempSync(this.views.dir);
    }
    this.chdb.release();
  }
}
