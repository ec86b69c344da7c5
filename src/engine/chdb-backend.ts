import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetError } from '../errors.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import { clickhouseParams, render, type Fragment } from '../query/sql.ts';
import type { ReportBackend, Snapshot } from './backend.ts';
import { sliceBatch } from './column-reads.ts';
import { clickhouseSettings, compactBatch, type CompactJson } from './clickhouse-rows.ts';
import { clickhouseLiteral, clickhouseTables, type TableCopies } from './clickhouse-tables.ts';

/** The part of chdb's API the backend uses. */
interface ChdbSession {
  query(query: string, format?: string): string;
  queryBindAsync(query: string, params: object, opts?: { format?: string; signal?: AbortSignal }): Promise<{ text(): string }>;
  close(): void;
}

type ChdbModule = { Session: new (path?: string) => ChdbSession };

/** Rows a stream hands on at a time, as DuckDB's chunks. */
const batchRows = 2048;

/** chdb holds one data directory per process: engines share its session, each in a database of its own. */
let shared: { session: ChdbSession; users: number; queue: Promise<unknown> } | undefined;

/** An optional package, or a DatasetError that says how to install it. */
export function requireOptional<T>(name: string, what: string): T {
  try {
    return createRequire(import.meta.url)(name) as T;
  } catch (error) {
    throw new DatasetError(`${what} needs the optional package ${name}: run \`npm i ${name}\` (${(error as Error).message.split('\n')[0]})`);
  }
}

const loadChdb = () => requireOptional<ChdbModule>('chdb', 'the chdb backend (ClickHouse embedded, about 550 MB)');

function acquireSession(): NonNullable<typeof shared> {
  if (!shared) {
    const session = new (loadChdb().Session)();
    for (const [name, value] of Object.entries(clickhouseSettings)) session.query(`SET ${name} = ${typeof value === 'string' ? `'${value}'` : value}`);
    shared = { session, users: 0, queue: Promise.resolve() };
  }
  shared.users++;
  return shared;
}

/**
 * Reports on chdb, ClickHouse embedded in this process, over the same Parquet files: each dataset
 * table is a view over its files (`file(…, Parquet)`), and what DuckDB alone holds (Arrow tables, the
 * state store's tables) is copied to Parquet for it, again whenever the state changes. Statements run
 * one at a time on the process's chdb session (chdb answers each whole); a stream reads each slice
 * whole and hands it on 2,048 rows at a time, so a stream holds one slice (see `sliceUnits`).
 * No rollups: reports read the facts.
 */
export class ChdbBackend implements ReportBackend {
  readonly name = 'chdb';
  readonly dialect = 'clickhouse';
  readonly rollups = false;
  private closed = false;

  private constructor(
    private readonly chdb: NonNullable<typeof shared>,
    private readonly database: string,
    private readonly copies: TableCopies,
    private readonly dir: string,
  ) {}

  static async open(copies: TableCopies): Promise<ChdbBackend> {
    const chdb = acquireSession();
    const database = `aea_${randomBytes(6).toString('hex')}`;
    const dir = mkdtempSync(join(tmpdir(), 'aea-chdb-'));
    const backend = new ChdbBackend(chdb, database, copies, dir);
    try {
      await backend.run(`CREATE DATABASE ${database} ENGINE = Atomic`, false);
      for (const statement of await clickhouseTables(copies, backend.describe, dir, 'dataset')) await backend.run(statement);
      return backend;
    } catch (error) {
      await backend.close();
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
    const generation = this.copies.generation();
    if (generation === this.synced) return Promise.resolve();
    if (this.syncing?.generation === generation) return this.syncing.done;
    const previous = this.synced;
    const done = (async () => {
      for (const statement of await clickhouseTables(this.copies, this.describe, this.dir, `state-${generation}`, true)) await this.run(statement);
      this.synced = generation;
      for (const f of readdirSync(this.dir)) if (f.startsWith(`state-${previous}-`)) rmSync(join(this.dir, f), { force: true });
    })();
    this.syncing = { generation, done };
    return done.finally(() => {
      if (this.syncing?.done === done) this.syncing = undefined;
    });
  }

  /** Runs one statement in this engine's database, after every statement queued before it. */
  private run(text: string, inDatabase = true, params: object = {}, signal?: AbortSignal): Promise<ColumnBatch> {
    const job = this.chdb.queue.then(async () => {
      if (this.closed && inDatabase) throw new Error('engine is closed');
      if (inDatabase) this.chdb.session.query(`USE ${this.database}`);
      const result = await this.chdb.session.queryBindAsync(text, params, { format: 'JSONCompact', signal });
      const answer = result.text();
      return answer === '' ? { length: 0, columns: {} } : compactBatch(JSON.parse(answer) as CompactJson);
    });
    this.chdb.queue = job.catch(() => undefined);
    return job;
  }

  async read(query: Fragment, signal?: AbortSignal): Promise<ColumnBatch> {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    await this.syncState();
    const q = render(query, 'clickhouse');
    return this.run(q.text, true, clickhouseParams(q.params), signal);
  }

  async snapshot(signal?: AbortSignal): Promise<Snapshot> {
    const read = (query: Fragment) => this.read(query, signal);
    return {
      read,
      batches: async function* (query) {
        const whole = await read(query);
        for (let from = 0; from < whole.length; from += batchRows) yield sliceBatch(whole, from, from + batchRows);
      },
      close: async () => undefined,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.run(`DROP DATABASE IF EXISTS ${this.database}`, false).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
    if (--this.chdb.users === 0 && shared === this.chdb) {
      shared = undefined;
      this.chdb.session.close();
    }
  }
}
