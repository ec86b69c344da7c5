import type { DuckDBConnection } from '@duckdb/node-api';
import { UnavailableError } from '../errors.ts';
import type { DuckDBPool } from '../engine/duckdb-pool.ts';
import { pathLiteral } from '../engine/literal.ts';
import { datasetIdentitySql, migrations } from './migrations.ts';
import { derivedViews } from './derived-views.ts';
import { attachSnapshot } from './snapshot.ts';

/** Tables the state store owns; reports read them through views of the same name. */
export const stateTables = [
  'prompts',
  'topics',
  'tags',
  'personas',
  'content_items',
  'agents',
  'agent_versions',
  'knowledge_bases',
  'kb_folders',
  'kb_documents',
] as const;

/** How long opening waits for another process (another `aea` command, `aea serve`) to release the file. */
const lockWaitMs = 15_000;

/** When another process holds the file: wait for it (then fail), or read a snapshot of it, refusing writes. */
export type WhenLocked = 'wait' | 'snapshot';

/**
 * The durable store: a DuckDB database file attached to the engine's instance as `state`, so reports
 * join the current prompts in the same query. DuckDB's write-ahead log makes each transaction atomic:
 * after a crash an edit is either whole or absent.
 */
export class StateStore {
  /** Writers queue here: one write transaction at a time, so edits never conflict or lose an update. */
  private writer: Promise<unknown> = Promise.resolve();
  private readonly promptVersions = new Map<string, number>();
  private commits = 0;

  private constructor(
    private readonly pool: DuckDBPool,
    readonly file: string,
    /** A snapshot of a file another process holds: reads work, every transaction is refused. */
    readonly readOnly: boolean,
  ) {}

  static async attach(pool: DuckDBPool, file: string, whenLocked: WhenLocked = 'wait'): Promise<StateStore> {
    const readOnly = await pool.use(async (conn) => {
      const snapshot = await attachWithRetry(conn, file, whenLocked);
      if (snapshot) await requireMigrated(conn, file);
      else await migrate(conn);
      await checkDataset(conn, file);
      for (const t of stateTables) await conn.run(`CREATE OR REPLACE VIEW "${t}" AS SELECT * FROM state."${t}"`);
      for (const view of derivedViews) await conn.run(view);
      return snapshot;
    });
    return new StateStore(pool, file, readOnly);
  }

  /** Counts committed transactions that changed what requests read, so a cache of state reads knows when it went stale. */
  get generation(): number {
    return this.commits;
  }

  async meta(key: string): Promise<string | undefined> {
    return this.read(async (conn) => {
      const rows = (await conn.runAndReadAll(`SELECT value FROM state.meta WHERE key = $key`, { key })).getRowsJS();
      return rows[0] ? String(rows[0][0]) : undefined;
    });
  }

  /**
   * Runs `fn` in one transaction: all of its writes land, or none do. Transactions run one after
   * another, so what `fn` reads stays true until it commits. A transaction that writes nothing leaves
   * the file untouched (dry runs rely on it). One that may change a category's prompts says so in
   * `promptsOf`, which bumps `promptVersion` once it commits. `bookkeeping` writes (rate-limit windows)
   * change nothing a request reads, so they leave `generation` as it is; so does a transaction whose
   * `changed` says its value shows it wrote nothing (a claim that found no queued run).
   */
  transaction<T>(
    fn: (conn: DuckDBConnection) => Promise<T>,
    options: {
      readonly promptsOf?: string;
      readonly bookkeeping?: boolean;
      readonly changed?: (value: T) => boolean;
    } = {},
  ): Promise<T> {
    if (this.readOnly) {
      return Promise.reject(
        new UnavailableError(
          `the state store ${this.file} is held by another process (such as aea serve), so this is a read-only snapshot of it: nothing was changed; send the request to that process, or stop it first`,
        ),
      );
    }
    const result = this.writer.then(() =>
      this.pool.use(async (conn) => {
        await conn.run('BEGIN TRANSACTION');
        try {
          const value = await fn(conn);
          await conn.run('COMMIT');
          if (options.promptsOf !== undefined)
            this.promptVersions.set(options.promptsOf, this.promptVersion(options.promptsOf) + 1);
          if (!options.bookkeeping && (options.changed?.(value) ?? true)) this.commits++;
          return value;
        } catch (error) {
          await conn.run('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }, 'light'),
    );
    this.writer = result.catch(() => undefined);
    return result;
  }

  /**
   * A number that grows whenever a transaction that declares it touches a category's prompts commits
   * (counted from 0 at open). What was read from the prompts at version v is current while the version
   * is still v: a check with no statement.
   */
  promptVersion(categoryId: string): number {
    return this.promptVersions.get(categoryId) ?? 0;
  }

  /** Reads on a connection of the light lane, outside the writers' queue: never behind a report's SQL. */
  read<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.pool.use(fn, 'light');
  }
}

/** Attaches the file for writing; true when, another process holding it, a read-only snapshot was attached instead. */
async function attachWithRetry(conn: DuckDBConnection, file: string, whenLocked: WhenLocked): Promise<boolean> {
  const deadline = Date.now() + lockWaitMs;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    try {
      await conn.run(file === ':memory:' ? `ATTACH ':memory:' AS state` : `ATTACH ${pathLiteral(file)} AS state`);
      return false;
    } catch (error) {
      const message = (error as Error).message.split('\n')[0]!;
      const locked = message.includes('Could not set lock');
      if (locked && whenLocked === 'snapshot') {
        await attachSnapshot(conn, file);
        return true;
      }
      if (locked && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      const hint = locked ? ' (another process has it open: stop it, or pass another --state file)' : '';
      throw new UnavailableError(`cannot open the state store ${file}: ${message}${hint}`);
    }
  }
}

/** A snapshot cannot be migrated: it must already have every migration this version knows. */
async function requireMigrated(conn: DuckDBConnection, file: string): Promise<void> {
  const applied = new Set(
    (await conn.runAndReadAll(`SELECT version FROM state.schema_migrations`)).getRowsJS().map((r) => Number(r[0])),
  );
  if (migrations.some((m) => !applied.has(m.version))) {
    throw new UnavailableError(
      `the state store ${file} is held by another process that runs an older version of aea: stop it, or query that process`,
    );
  }
}

async function migrate(conn: DuckDBConnection): Promise<void> {
  await conn.run(
    `CREATE TABLE IF NOT EXISTS state.schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL)`,
  );
  const applied = new Set(
    (await conn.runAndReadAll(`SELECT version FROM state.schema_migrations`)).getRowsJS().map((r) => Number(r[0])),
  );
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    await conn.run('BEGIN TRANSACTION');
    try {
      await m.up(conn);
      await conn.run(`INSERT INTO state.schema_migrations VALUES ($v, $n, now())`, { v: m.version, n: m.name });
      await conn.run('COMMIT');
    } catch (error) {
      await conn.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}

/** A store holds edits of one dataset's rows; opening it over another dataset would serve stale rows. */
async function checkDataset(conn: DuckDBConnection, file: string): Promise<void> {
  const rows = (
    await conn.runAndReadAll(
      `SELECT (SELECT value FROM state.meta WHERE key = 'dataset_identity'), (${datasetIdentitySql})`,
    )
  ).getRowsJS();
  const [stored, current] = rows[0]!.map(String);
  if (stored !== current) {
    throw new UnavailableError(
      `the state store ${file} was made from another dataset; remove it (its edits are lost) or pass another --state file`,
    );
  }
}
