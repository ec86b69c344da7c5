import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';
import { resolve } from 'node:path';
import { DatasetError } from '../errors.ts';
import { removeTempSync, tempFolderSync } from './temp-paths.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import { clickhouseSettings, compactBatch, type CompactJson } from './clickhouse-rows.ts';
import { defaultExportTempBytes } from '../limits.ts';

/** The part of chdb's API the engine uses. */
interface Session {
  readonly path: string;
  query(query: string, format?: string): string;
  queryAsync(query: string, opts?: { format?: string }): Promise<{ text(): string }>;
  queryBindAsync(
    query: string,
    params: object,
    opts?: { format?: string; signal?: AbortSignal },
  ): Promise<{ text(): string }>;
  close(): void;
}

type ChdbModule = { Session: new (path?: string) => Session };

/** An optional package, or a DatasetError that says how to install it. */
export function requireOptional<T>(name: string, what: string): T {
  try {
    return createRequire(import.meta.url)(name) as T;
  } catch (error) {
    throw new DatasetError(
      `${what} needs the optional package ${name}: run \`npm i ${name}\` (${(error as Error).message.split('\n')[0]})`,
    );
  }
}

const loadChdb = () => requireOptional<ChdbModule>('chdb', 'the chdb backend (ClickHouse embedded, about 550 MB)');

/**
 * chdb holds one session, so one data directory, per process: every user (engines, each in a database
 * of its own, and the loader) shares it and queues its statements on it. `path` is the persistent
 * directory when one was asked for, undefined for chdb's temporary one.
 */
let shared:
  | {
      session: Session;
      path: string | undefined;
      users: number;
      queue: Promise<unknown>;
      killer?: Session;
      scratch?: string;
      /** The process's RSS once the session had opened: what `purgeRetained` compares with. */
      openRss: number;
    }
  | undefined;

/**
 * chdb's allocator (jemalloc) keeps the memory a statement freed, per thread arena, and a later statement on
 * another thread allocates anew: one export's statement left the process 684 MiB above its idle RSS, and the
 * next took it past the budget and its documented overheads. Past this much above the RSS at open, the queue
 * purges the allocator between statements (`SYSTEM JEMALLOC PURGE`, off the event loop: 45–150 ms after a
 * large statement, about 1 ms otherwise).
 */
export const chdbRetainedBytes = 128 * 2 ** 20;

async function purgeRetained(chdb: NonNullable<typeof shared>): Promise<void> {
  if (process.memoryUsage.rss() - chdb.openRss <= chdbRetainedBytes) return;
  await chdb.session.queryAsync('SYSTEM JEMALLOC PURGE').catch(() => undefined);
}

/** How often a cancel asks again while its statement has not ended (it may not have reached chdb yet). */
const cancelRetryMs = 50;

/**
 * Stops the statement tagged `tag`. chdb's C interface cannot interrupt a statement, but ClickHouse can
 * kill one by its settings from another connection to the same data directory; `KILL … ASYNC` returns
 * at once and the statement ends with QUERY_WAS_CANCELLED at its next check, within milliseconds.
 */
async function cancelStatement(chdb: NonNullable<typeof shared>, tag: string, ended: { done: boolean }): Promise<void> {
  const killer = (chdb.killer ??= new (loadChdb().Session)(chdb.session.path));
  // The tag is a UUID made here, never a value from a request.
  const where = `Settings['log_comment'] = '${tag}'`;
  while (!ended.done) {
    await killer.queryAsync(`KILL QUERY WHERE ${where} ASYNC`, { format: 'CSV' }).catch(() => undefined);
    if (!ended.done) await delay(cancelRetryMs);
  }
}

/**
 * Statements of this process's chdb session running now, read from a second connection so it does not
 * queue behind them. A killed statement can stay listed in `system.processes` for a while, marked
 * cancelled, reading nothing more and using no CPU: it is not counted.
 */
export async function runningStatements(): Promise<number> {
  const chdb = shared;
  if (!chdb) return 0;
  chdb.killer ??= new (loadChdb().Session)(chdb.session.path);
  const answer = await chdb.killer.queryAsync(
    `SELECT count() FROM system.processes WHERE startsWith(Settings['log_comment'], 'aea-') AND is_cancelled = 0`,
    { format: 'CSV' },
  );
  return Number(answer.text().trim());
}

/**
 * A statement's memory settings under a budget of `maxMemoryBytes` (0: none). ClickHouse's default join,
 * `parallel_hash`, built hash tables that a three-year export with fill and compare could not fit in chdb's
 * share of a 1 GB budget (it failed at 767 MiB of 619); the plain `hash` join answered it within the share
 * (issue 28, docs/security.md). Group-bys and sorts spill to the session's directory past a third of the
 * budget, so two of them and a join's table fit, and the spill is bounded like one export's temporary disk.
 */
export function memorySettings(maxMemoryBytes: number): string {
  const limit = Math.max(0, Math.floor(maxMemoryBytes));
  const third = Math.floor(limit / 3);
  // All of them every time: the session is shared, and a user without a budget follows one with it.
  return [
    `max_memory_usage = ${limit}`,
    `join_algorithm = '${limit === 0 ? 'default' : 'hash'}'`,
    `max_bytes_before_external_group_by = ${third}`,
    `max_bytes_before_external_sort = ${third}`,
    `max_temporary_data_on_disk_size_for_query = ${limit === 0 ? 0 : defaultExportTempBytes}`,
  ].join(', ');
}

/** One user's handle on the process's chdb session. */
export interface ChdbHandle {
  /**
   * Runs one statement (in `database` when given) after every statement queued before it, and answers its rows.
   * `prewhere: false` keeps ClickHouse from moving the statement's conditions to PREWHERE (see ChdbBackend).
   */
  run(text: string, database?: string, params?: object, signal?: AbortSignal, prewhere?: boolean): Promise<ColumnBatch>;
  /** The last user's release closes the session. */
  release(): void;
}

/**
 * Joins the process's chdb session, opening it (at `path`, or a temporary directory) when there is none.
 * A user that needs its own directory (`path`) cannot join a session over another one: chdb would
 * not open a second, so that is an error rather than a silent read of the wrong data.
 *
 * Each statement runs with `memorySettings(maxMemoryBytes)` (0: no limit; statements run one at a time, so
 * this bounds chdb's working memory), and one whose `signal` aborts (its client left, its time budget ran out) is killed rather than left to finish: it rejects with the signal's reason.
 */
export function acquireChdb(path?: string, maxMemoryBytes = 0): ChdbHandle {
  const wanted = path === undefined ? undefined : resolve(path);
  if (shared && wanted !== undefined && shared.path !== wanted) {
    throw new DatasetError(
      `chdb holds one data directory per process, and this process already uses ${shared.path ?? 'a temporary one'}: cannot also open ${wanted}`,
    );
  }
  if (!shared) {
    // chdb's own temporary directory (chdb-node-*) carries no owner, so a killed process's could never be
    // told from a running one's: ours is named by this PID and swept like every other (temp-paths.ts).
    const scratch = wanted === undefined ? tempFolderSync('chdbdata') : undefined;
    shared = {
      session: new (loadChdb().Session)(wanted ?? scratch),
      path: wanted,
      users: 0,
      queue: Promise.resolve(),
      openRss: process.memoryUsage.rss(),
      ...(scratch ? { scratch } : {}),
    };
  }
  const chdb = shared;
  // Again for every user: the session's settings are its defaults, which another user may have changed since it opened.
  // Queued: a statement of another user may be running, and chdb runs one at a time.
  chdb.queue = chdb.queue.then(() => {
    for (const [name, value] of Object.entries(clickhouseSettings))
      chdb.session.query(`SET ${name} = ${typeof value === 'string' ? `'${value}'` : value}`);
  });
  chdb.users++;
  let released = false;
  return {
    run(text, database, params = {}, signal, prewhere = true) {
      const job = chdb.queue.then(async () => {
        if (released) throw new Error('chdb session released');
        signal?.throwIfAborted();
        if (database) chdb.session.query(`USE ${database}`);
        const tag = `aea-${randomUUID()}`;
        // Per statement: users of the shared session may have different budgets.
        chdb.session.query(
          `SET ${memorySettings(maxMemoryBytes)}, log_comment = '${tag}', optimize_move_to_prewhere = ${prewhere ? 1 : 0}`,
        );
        const ended = { done: false };
        let cancelled: Promise<void> | undefined;
        const cancel = () => {
          cancelled = cancelStatement(chdb, tag, ended);
        };
        signal?.addEventListener('abort', cancel, { once: true });
        try {
          const result = await chdb.session.queryBindAsync(text, params, { format: 'JSONCompact' });
          const answer = result.text();
          return answer === '' ? { length: 0, columns: {} } : compactBatch(JSON.parse(answer) as CompactJson);
        } catch (error) {
          ended.done = true;
          await cancelled;
          if (signal?.aborted) throw signal.reason ?? error;
          throw error;
        } finally {
          ended.done = true;
          signal?.removeEventListener('abort', cancel);
        }
      });
      chdb.queue = job.catch(() => undefined).then(() => purgeRetained(chdb));
      return job;
    },
    release() {
      if (released) return;
      released = true;
      if (--chdb.users === 0 && shared === chdb) {
        shared = undefined;
        chdb.killer?.close();
        chdb.session.close();
        if (chdb.scratch) removeTempSync(chdb.scratch);
      }
    },
  };
}
