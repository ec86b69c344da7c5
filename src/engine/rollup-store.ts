import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultRollupSegments } from '../limits.ts';

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

/**
 * Rows refolded after the base was written, for files the dataset gained: they replace every row of the
 * base and of earlier segments whose time key lies in `from`..`to` (timestamps, a DATE key compared as
 * its midnight).
 */
export interface StoredSegment {
  readonly from: string;
  readonly to: string;
  /** Per dataset table, the identities of the files this segment folded in (the key's files gained them). */
  readonly added: Readonly<Record<string, readonly string[]>>;
  readonly tables: Readonly<Record<string, StoredTable>>;
}

export interface StoredRollup extends RollupKey {
  readonly format: typeof storeFormat;
  readonly rollup: string;
  readonly builtAt: string;
  /** The base: each table's rows as built. */
  readonly tables: Readonly<Record<string, StoredTable>>;
  /** Oldest first; at most the store's `segmentLimit` (a lower limit is met by the next refresh). */
  readonly segments: readonly StoredSegment[];
}

/** One file of a table: the base (no span), or a segment and the span whose rows it replaces. */
export interface Layer {
  readonly file: string;
  readonly rows: number;
  readonly span: { readonly from: string; readonly to: string } | null;
}

/** `current`: read it as it is; `appended`: only files were added since, so it can be refreshed; else why it is stale. */
export type Verdict = 'current' | 'appended' | 'engine' | 'definition' | 'prompts' | 'dataset';

const storeFormat = 2;
const metaFile = 'rollup.json';
const pendingPrefix = '.pending-';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The rows of every file a stored rollup's record names (a segment's replace some of its base's). */
export const storedRows = (meta: StoredRollup): number => filesOf(meta).reduce((n, f) => n + f.rows, 0);

/** Every file a stored rollup's record names, base first. */
const filesOf = (meta: StoredRollup): StoredTable[] => [
  ...Object.values(meta.tables),
  ...meta.segments.flatMap((s) => Object.values(s.tables)),
];

/** Past this share of the limit, a write walks the store for its bytes instead of trusting the last walk. */
const walkAbove = 7 / 8;

const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?$/;

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

/** A new segment's span, the files it folded in, and per table its file's rows. */
export interface SegmentRows {
  readonly from: string;
  readonly to: string;
  readonly added: Readonly<Record<string, readonly string[]>>;
  readonly rows: Readonly<Record<string, number>>;
}

/** A write under way: its folder, where each table's new Parquet goes, and how it ends. */
export interface PendingRollup {
  readonly dir: string;
  fileOf(table: string): string;
  /** A new base: checks each file against the store's bound, records its rows and hash, and replaces the stored rollup. */
  commit(key: RollupKey, rollup: string, rows: Readonly<Record<string, number>>): Promise<void>;
  /**
   * A new segment of `after` (the files written are its tables): the stored rollup becomes `after`'s
   * files and record plus this segment, under `key`; null when the files added held no rows (the key alone changes).
   */
  commitSegment(after: StoredRollup, key: RollupKey, segment: SegmentRows | null): Promise<void>;
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
 * Rollups on disk: a folder per rollup and scope holding a base (one zstd Parquet file per table), up to
 * `segmentLimit` segments (one file per table each: the days refolded after an append) and
 * `rollup.json`, its key and each file's rows, bytes and SHA-256. A write goes to a `.pending-<pid>-…`
 * folder (files kept from the stored version are hard links, not copies) and is renamed into place once
 * complete, so a crash mid-write leaves only a pending folder, never read and removed by the next writer
 * once its process is gone. The store holds at most `limit` bytes, every base and segment counted once:
 * a write past it is discarded (the rollup still answers from memory).
 */
export class RollupStore {
  constructor(
    readonly dir: string,
    readonly limit: number,
    /** Segments a stored rollup holds at most; the refresh that would add one more writes a new base instead. */
    readonly segmentLimit = defaultRollupSegments,
  ) {}

  /** The store's bytes at this process's last walk plus what it wrote since: never less than its own share. */
  private upperBound: number | undefined;

  private entryDir(rollup: string, scope: string): string {
    return join(this.dir, `${rollup}.${sha256(scope).slice(0, 20)}`);
  }

  /** The stored rollup of a scope, or null when there is none or its record is damaged (a damaged one is removed). */
  async read(rollup: string, scope: string): Promise<StoredRollup | null> {
    const dir = this.entryDir(rollup, scope);
    if (!existsSync(dir)) return null;
    try {
      const meta = JSON.parse(await readFile(join(dir, metaFile), 'utf8')) as StoredRollup;
      if (
        meta.format !== storeFormat ||
        meta.rollup !== rollup ||
        meta.scope !== scope ||
        typeof meta.tables !== 'object' ||
        !Array.isArray(meta.segments) ||
        // The spans enter the SQL that reads the layers: only timestamps as the refresh writes them.
        !meta.segments.every((s) => timestamp.test(s.from) && timestamp.test(s.to) && typeof s.tables === 'object')
      )
        throw new Error('not this rollup');
      return meta;
    } catch {
      await this.remove(rollup, scope);
      return null;
    }
  }

  /**
   * The stored rollup once every file of `tables` has the size and SHA-256 recorded. A damaged base
   * removes the entry (null); a damaged segment is dropped with every later one, and the record answered
   * names the files folded before it, so the days it held are refreshed again (its files go with the next write).
   * A reader that never writes the store (`repair: false`) removes nothing: another process may be writing it.
   */
  async verified(meta: StoredRollup, tables: readonly string[], repair = true): Promise<StoredRollup | null> {
    const dir = this.entryDir(meta.rollup, meta.scope);
    const sound = async (entry: StoredTable | undefined) => {
      try {
        const file = entry && join(dir, entry.file);
        return !!file && (await stat(file)).size === entry.bytes && (await fileSha256(file)) === entry.sha256;
      } catch {
        return false;
      }
    };
    for (const table of tables) {
      if (!(await sound(meta.tables[table]))) {
        if (repair) await this.remove(meta.rollup, meta.scope);
        return null;
      }
    }
    for (const [i, segment] of meta.segments.entries()) {
      for (const table of tables) {
        if (await sound(segment.tables[table])) continue;
        const dropped = meta.segments.slice(i);
        const files: Record<string, readonly string[]> = {};
        for (const [name, ids] of Object.entries(meta.files)) {
          const gone = new Set(dropped.flatMap((s) => s.added[name] ?? []));
          files[name] = ids.filter((id) => !gone.has(id));
        }
        return { ...meta, files, segments: meta.segments.slice(0, i) };
      }
    }
    return meta;
  }

  /** A table's files in the order they apply: the base, then each segment with the span it replaces. */
  layers(meta: StoredRollup, table: string): Layer[] {
    const dir = this.entryDir(meta.rollup, meta.scope);
    const base = meta.tables[table]!;
    return [
      { file: join(dir, base.file), rows: base.rows, span: null },
      ...meta.segments.map((s) => ({
        file: join(dir, s.tables[table]!.file),
        rows: s.tables[table]!.rows,
        span: { from: s.from, to: s.to },
      })),
    ];
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
        const meta = JSON.parse(await readFile(join(this.dir, folder, metaFile), 'utf8')) as StoredRollup;
        out.push({ folder, meta: meta.format === storeFormat ? meta : null });
      } catch {
        out.push({ folder, meta: null });
      }
    }
    return out;
  }

  /** Bytes of every file in the store, pending writes included, a file linked twice counted once; none under `except`. */
  async bytes(except?: string): Promise<number> {
    if (!existsSync(this.dir)) return 0;
    let total = 0;
    const seen = new Set<number>();
    for (const entry of await readdir(this.dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || (except && entry.parentPath === except)) continue;
      const info = await stat(join(entry.parentPath, entry.name)).catch(() => undefined);
      if (!info || seen.has(info.ino)) continue;
      seen.add(info.ino);
      total += info.size;
    }
    return total;
  }

  /** Bytes of a stored rollup's files, base and segments. */
  static bytesOf(meta: StoredRollup): number {
    return filesOf(meta).reduce((n, f) => n + f.bytes, 0);
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

  /**
   * Starts a write: the caller puts each table's new Parquet at `fileOf(table)`, then commits a base or
   * a segment of `after` (whose segment number names the files), or discards.
   */
  async begin(after?: StoredRollup): Promise<PendingRollup> {
    await mkdir(this.dir, { recursive: true });
    await this.sweep();
    const dir = join(this.dir, `${pendingPrefix}${process.pid}-${randomBytes(6).toString('hex')}`);
    await mkdir(dir);
    const discard = () => rm(dir, { recursive: true, force: true });
    const nameOf = (table: string) => (after ? `${table}.${after.segments.length + 1}.parquet` : `${table}.parquet`);
    const written = async (table: string, rows: number): Promise<StoredTable> => {
      const file = nameOf(table);
      const path = join(dir, file);
      return { file, rows, bytes: (await stat(path)).size, sha256: await fileSha256(path) };
    };
    const install = async (meta: StoredRollup, fresh: readonly StoredTable[]) => {
      const target = this.entryDir(meta.rollup, meta.scope);
      const text = JSON.stringify(meta, null, 2);
      const adding = fresh.reduce((n, f) => n + f.bytes, 0) + Buffer.byteLength(text);
      // Walking the store is what a segment cost most: the last walk plus this process's writes since
      // (what they replaced never taken off) stands for it until that nears the limit, then it is walked.
      let total = this.upperBound === undefined ? Infinity : this.upperBound + adding;
      if (total > this.limit * walkAbove) total = (await this.bytes(target)) + Buffer.byteLength(text);
      if (total > this.limit) throw new RollupStoreFullError(this.limit, total);
      this.upperBound = total;
      await writeFile(join(dir, metaFile), text);
      // TRICKY: rename cannot replace a non-empty folder; the old one is renamed aside first. A crash
      // between the two renames leaves no entry (rebuilt on use) and a retired folder swept later.
      const retired = join(this.dir, `.retired-${process.pid}-${randomBytes(6).toString('hex')}`);
      if (existsSync(target)) await rename(target, retired);
      await rename(dir, target);
      await rm(retired, { recursive: true, force: true });
    };
    const ending = async (write: () => Promise<void>) => {
      try {
        await write();
      } catch (error) {
        await discard();
        throw error;
      }
    };
    return {
      dir,
      fileOf: (table) => join(dir, nameOf(table)),
      discard,
      commit: (key, rollup, rows) =>
        ending(async () => {
          const tables: Record<string, StoredTable> = {};
          for (const [table, count] of Object.entries(rows)) tables[table] = await written(table, count);
          await install(
            {
              format: storeFormat,
              rollup,
              builtAt: new Date().toISOString(),
              ...key,
              tables,
              segments: [],
            },
            Object.values(tables),
          );
        }),
      commitSegment: (stored, key, segment) =>
        ending(async () => {
          const from = this.entryDir(stored.rollup, stored.scope);
          for (const kept of filesOf(stored)) {
            await link(join(from, kept.file), join(dir, kept.file));
            // Another writer may have replaced the entry since `stored` was read: its files are not these.
            if ((await stat(join(dir, kept.file))).size !== kept.bytes)
              throw new Error(`${kept.file} changed meanwhile`);
          }
          const segments = [...stored.segments];
          const tables: Record<string, StoredTable> = {};
          if (segment) {
            for (const [table, rows] of Object.entries(segment.rows)) tables[table] = await written(table, rows);
            segments.push({ from: segment.from, to: segment.to, added: segment.added, tables });
          }
          await install({ ...stored, ...key, format: storeFormat, segments }, Object.values(tables));
        }),
    };
  }
}
