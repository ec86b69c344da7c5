import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { DatasetError } from '../errors.ts';
import { removeTempSync, tempFolderSync } from './temp-paths.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import { clickhouseSettings, compactBatch, type CompactJson } from './clickhouse-rows.ts';

/** The part of chdb's API the engine uses. */
interface Session {
  query(query: string, format?: string): string;
  queryBindAsync(query: string, params: object, opts?: { format?: string; signal?: AbortSignal }): Promise<{ text(): string }>;
  close(): void;
}

type ChdbModule = { Session: new (path?: string) => Session };

/** An optional package, or a DatasetError that says how to install it. */
export function requireOptional<T>(name: string, what: string): T {
  try {
    return createRequire(import.meta.url)(name) as T;
  } catch (error) {
    throw new DatasetError(`${what} needs the optional package ${name}: run \`npm i ${name}\` (${(error as Error).message.split('\n')[0]})`);
  }
}

const loadChdb = () => requireOptional<ChdbModule>('chdb', 'the chdb backend (ClickHouse embedded, about 550 MB)');

/**
 * chdb holds one session, so one data directory, per process: every user (engines, each in a database
 * of its own, and the loader) shares it and queues its statements on it. `path` is the persistent
 * directory when one was asked for, undefined for chdb's temporary one.
 */
let shared: { session: Session; path: string | undefined; users: number; queue: Promise<unknown>; scratch?: string } | undefined;

/** One user's handle on the process's chdb session. */
export interface ChdbHandle {
  /** Runs one statement (in `database` when given) after every statement queued before it, and answers its rows. */
  run(text: string, database?: string, params?: object, signal?: AbortSignal): Promise<ColumnBatch>;
  /** The last user's release closes the session. */
  release(): void;
}

/**
 * Joins the process's chdb session, opening it (at `path`, or a temporary directory) when there is none.
 * A user that needs its own directory (`path`) cannot join a session over another one: chdb would
 * not open a second, so that is an error rather than a silent read of the wrong data.
 */
export function acquireChdb(path?: string): ChdbHandle {
  const wanted = path === undefined ? undefined : resolve(path);
  if (shared && wanted !== undefined && shared.path !== wanted) {
    throw new DatasetError(`chdb holds one data directory per process, and this process already uses ${shared.path ?? 'a temporary one'}: cannot also open ${wanted}`);
  }
  if (!shared) {
    // chdb's own temporary directory (chdb-node-*) carries no owner, so a killed process's could never be
    // told from a running one's: ours is named by this PID and swept like every other (temp-paths.ts).
    const scratch = wanted === undefined ? tempFolderSync('chdbdata') : undefined;
    shared = { session: new (loadChdb().Session)(wanted ?? scratch), path: wanted, users: 0, queue: Promise.resolve(), ...(scratch ? { scratch } : {}) };
  }
  const chdb = shared;
  // Again for every user: the session's settings are its defaults, which another user may have changed since it opened.
  // Queued: a statement of another user may be running, and chdb runs one at a time.
  chdb.queue = chdb.queue.then(() => {
    for (const [name, value] of Object.entries(clickhouseSettings)) chdb.session.query(`SET ${name} = ${typeof value === 'string' ? `'${value}'` : value}`);
  });
  chdb.users++;
  let released = false;
  return {
    run(text, database, params = {}, signal) {
      const job = chdb.queue.then(async () => {
        if (released) throw new Error('chdb session released');
        if (database) chdb.session.query(`USE ${database}`);
        const result = await chdb.session.queryBindAsync(text, params, { format: 'JSONCompact', signal });
        const answer = result.text();
        return answer === '' ? { length: 0, columns: {} } : compactBatch(JSON.parse(answer) as CompactJson);
      });
      chdb.queue = job.catch(() => undefined);
      return job;
    },
    release() {
      if (released) return;
      released = true;
      if (--chdb.users === 0 && shared === chdb) {
        shared = undefined;
        chdb.session.close();
        if (chdb.scratch) removeTempSync(chdb.scratch);
      }
    },
  };
}
