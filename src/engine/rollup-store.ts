import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a stored rollup was built from; it is read only when every part equals the engine's own. */
export interface RollupKey {
  /** The engine's version (engine-version.ts): a new version may fold differently. */
  readonly engine: string;
  /** A hash of the rollup's declaration (its name, prompt predicate and every table's SQL). */
  readonly definition: string;
  readonly scope: string;
  /** A hash of the rows of the scope's selected prompts (category rollups), null for an organization's. */
  readonly prompts: string | null;
  /** Per dataset table the rollup reads, the identity of each of its files (dataset-version.ts). */
  readonly files: Readonly<Record<string, readonly string[]>>;
}

export interface StoredTable {
  readonly file: string;
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
}

export interface StoredRollup extends RollupKey {
  readonly format: typeof storeFormat;
  readonly rollup: string;
  readonly builtAt: string;
  readonly tables: Readonly<Record<string, StoredTable>>;
}

/** `current`: read it as it is; `appended`: only files were added since, so it can be refreshed; else why it is stale. */
export type Verdict = 'current' | 'appended' | 'engine' | 'definition' | 'prompts' | 'dataset';

const storeFormat = 1;
const metaFile = 'rollup.json';
const pendingPrefix = '.pending-';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** How a stored rollup compares with what the engine would build now. */
export function verdictOf(stored: RollupKey, wanted: RollupKey): Verdict {
  if (stored.engine !== wanted.engine) return 'engine';
  if (stored.definition !== wanted.definition || stored.scope !== wanted.scope) return 'definition';
  if (stored.prompts !== wanted.prompts) return 'prompts';
  const tables = Object.keys(wanted.files);
  if (Object.keys(stored.files).length !== tables.length) return 'dataset';
  let appended = false;
  for (const table of tables) {
    const before = stored.files[table];
    const now = wanted.files[table]!;
    if (!before) return 'dataset';
    const present = new Set(now);
    if (before.some((f) => !present.has(f))) return 'dataset';
    if (now.length > before.length) appended = true;
  }
  return appended ? 'appended' : 'current';
}

/** The identities present now that were not when the rollup was stored, per table. */
export function addedFiles(stored: RollupKey, wanted: RollupKey): Record<string, string[]> {
  const added: Record<string, string[]> = {};
  for (const [table, now] of Object.entries(wanted.files)) {
    const before = new Set(stored.files[table] ?? []);
    const fresh = now.filter((f) => !before.has(f));
    if (fresh.length > 0) added[table] = fresh;
  }
  return added;
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  // Streamed in 64 KiB chunks: hashing a large file at once would hold the event loop.
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const isPidAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** A write under way: its folder, where each table's Parquet goes, and how it ends. */
export interface PendingRollup {
  readonly dir: string;
  fileOf(table: string): string;
  /** Checks each file against the store's bound, records its rows and hash, and puts it in place of the old one. */
  commit(key: RollupKey, rollup: string, rows: Readonly<Record<string, number>>): Promise<void>;
  discard(): Promise<void>;
}

export class RollupStoreFullError extends Error {
  constructor(limit: number, wanted: number) {
    super(
      `the rollup store would hold ${wanted} bytes, past its limit of ${limit} bytes (rollupStoreLimit): this rollup answers from memory only`,
    );
  }
}

/**
 * Rollups on disk: a folder per rollup and scope holding one zstd Parquet file per table and
 * `rollup.json`, its key and each file's rows, bytes and SHA-256. A write goes to a `.pending-<pid>-…`
 * folder and is renamed into place once complete, so a crash mid-write leaves only a pending folder,
 * never read and removed by the next writer once its process is gone. The store holds at most `limit`
 * bytes: a write past it is discarded (the rollup still answers from memory).
 */
export class RollupStore {
  constructor(
    readonly dir: string,
    readonly limit: number,
  ) {}

  private entryDir(rollup: string, scope: string): string {
    return join(this.dir, `${rollup}.${sha256(scope).slice(0, 20)}`);
  }

  /** The stored rollup of a scope, or null when there is none or it is damaged (a damaged one is removed). */
  async read(rollup: string, scope: string): Promise<StoredRollup | null> {
    const dir = this.entryDir(rollup, scope);
    if (!existsSync(dir)) return null;
    try {
      const meta = JSON.parse(await readFile(join(dir, metaFile), 'utf8')) as StoredRollup;
      if (
        meta.format !== storeFormat ||
        meta.rollup !== rollup ||
        meta.scope !== scope ||
        typeof meta.tables !== 'object'
      )
        throw new Error('not this rollup');
      return meta;
    } catch {
      await this.remove(rollup, scope);
      return null;
    }
  }

  /** The Parquet file of a stored table, once its size and SHA-256 are those recorded; else null (and the entry is removed). */
  async verified(meta: StoredRollup, table: string): Promise<string | null> {
    const entry = meta.tables[table];
    const file = entry ? join(this.entryDir(meta.rollup, meta.scope), entry.file) : undefined;
    try {
      if (!entry || !file || (await stat(file)).size !== entry.bytes || (await fileSha256(file)) !== entry.sha256)
        throw new Error('damaged');
      return file;
    } catch {
      await this.remove(meta.rollup, meta.scope);
      return null;
    }
  }

  async remove(rollup: string, scope: string): Promise<void> {
    await rm(this.entryDir(rollup, scope), { recursive: true, force: true });
  }

  /** Every stored rollup, damaged ones as `{ rollup, scope: null }` with their folder's name. */
  async list(): Promise<{ readonly folder: string; readonly meta: StoredRollup | null }[]> {
    if (!existsSync(this.dir)) return [];
    const out: { folder: string; meta: StoredRollup | null }[] = [];
    for (const folder of (await readdir(this.dir)).sort()) {
      if (folder.startsWith('.')) continue;
      try {
        out.push({
          folder,
          meta: JSON.parse(await readFile(join(this.dir, folder, metaFile), 'utf8')) as StoredRollup,
        });
      } catch {
        out.push({ folder, meta: null });
      }
    }
    return out;
  }

  /** Bytes of every file in the store, pending writes included. */
  async bytes(): Promise<number> {
    if (!existsSync(this.dir)) return 0;
    let total = 0;
    for (const entry of await readdir(this.dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
    }
    return total;
  }

  /** Removes the whole store. */
  async drop(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Removes pending folders whose writer is gone (a crash or kill mid-write). */
  private async sweep(): Promise<void> {
    for (const folder of await readdir(this.dir)) {
      const pid = Number(/^\.(?:pending|retired)-(\d+)-/.exec(folder)?.[1]);
      if (pid && (pid === process.pid ? false : !isPidAlive(pid)))
        await rm(join(this.dir, folder), { recursive: true, force: true });
    }
  }

  /** Starts a write: the caller puts each table's Parquet at `fileOf(table)`, then commits or discards. */
  async begin(): Promise<PendingRollup> {
    await mkdir(this.dir, { recursive: true });
    await this.sweep();
    const dir = join(this.dir, `${pendingPrefix}${process.pid}-${randomBytes(6).toString('hex')}`);
    await mkdir(dir);
    const discard = () => rm(dir, { recursive: true, force: true });
    return {
      dir,
      fileOf: (table) => join(dir, `${table}.parquet`),
      discard,
      commit: async (key, rollup, rows) => {
        try {
          const tables: Record<string, StoredTable> = {};
          for (const [table, count] of Object.entries(rows)) {
            const file = `${table}.parquet`;
            const path = join(dir, file);
            tables[table] = { file, rows: count, bytes: (await stat(path)).size, sha256: await fileSha256(path) };
          }
          const target = this.entryDir(rollup, key.scope);
          const replaced = existsSync(target) ? await this.bytesOf(target) : 0;
          const total = (await this.bytes()) - replaced;
          if (total > this.limit) throw new RollupStoreFullError(this.limit, total);
          const meta: StoredRollup = { format: storeFormat, rollup, builtAt: new Date().toISOString(), ...key, tables };
          await writeFile(join(dir, metaFile), JSON.stringify(meta, null, 2));
          // TRICKY: rename cannot replace a non-empty folder; the old one is renamed aside first. A crash
          // between the two renames leaves no entry (rebuilt on use) and a retired folder swept later.
          const retired = join(this.dir, `.retired-${process.pid}-${randomBytes(6).toString('hex')}`);
          if (existsSync(target)) await rename(target, retired);
          await rename(dir, target);
          await rm(retired, { recursive: true, force: true });
        } catch (error) {
          await discard();
          throw error;
        }
      },
    };
  }

  private async bytesOf(folder: string): Promise<number> {
    let total = 0;
    for (const name of await readdir(folder)) total += (await stat(join(folder, name)).catch(() => ({ size: 0 }))).size;
    return total;
  }
}
