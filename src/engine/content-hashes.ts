import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { DatasetError } from '../errors.ts';
import { manifestFileName } from '../model/layout.ts';

/** `dataset.json`'s `files`: each data file's path (relative, with `/`) and the SHA-256 of its bytes. */
export type FileHashes = Record<string, string>;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const relativeName = (dir: string, file: string) => relative(dir, file).split(sep).join('/');

/** The files of `table` a manifest names: `<table>.parquet`, or the parts under `<table>/`. */
const ofTable = (hashes: FileHashes, table: string) =>
  Object.keys(hashes).filter((f) => f === `${table}.parquet` || f.startsWith(`${table}/`));

/**
 * Checks a dataset's files against the content hashes its manifest records, so a damaged page fails at
 * open even where its bytes still decode. A manifest without hashes (a dataset made by hand or by
 * another tool) checks nothing here.
 */
export class ContentHashes {
  constructor(
    private readonly dir: string,
    private readonly hashes: FileHashes | undefined,
    private readonly rows: Readonly<Record<string, number>> = {},
  ) {}

  /** Why the manifest says `table` is part of the dataset (its files or its rows), or undefined when it does not. */
  recorded(table: string): string | undefined {
    const files = this.hashes ? ofTable(this.hashes, table) : [];
    if (files.length > 0)
      return `${manifestFileName} records ${files.length} file${files.length > 1 ? 's' : ''} of it (${files[0]})`;
    const rows = this.rows[table] ?? 0;
    return rows > 0 ? `${manifestFileName} records ${rows} rows of it` : undefined;
  }

  /** A table the dataset leaves out must not be one its manifest records: a deleted table fails here, not in a later report. */
  checkAbsent(table: string): void {
    const why = this.recorded(table);
    if (why)
      throw new DatasetError(
        `missing table "${table}": ${why}, but neither ${join(this.dir, `${table}.parquet`)} nor a folder ${join(this.dir, table)}/ is there`,
        join(this.dir, `${table}.parquet`),
      );
  }

  async check(table: string, files: readonly string[]): Promise<void> {
    if (!this.hashes) return;
    const names = files.map((f) => relativeName(this.dir, f));
    const missing = ofTable(this.hashes, table).filter((f) => !names.includes(f));
    if (missing.length > 0)
      throw new DatasetError(
        `${join(this.dir, missing[0]!)} is recorded in ${manifestFileName} but missing (table "${table}")`,
        join(this.dir, missing[0]!),
      );
    for (const [i, file] of files.entries()) {
      const expected = this.hashes[names[i]!];
      if (expected === undefined)
        throw new DatasetError(
          `${file} is not recorded in ${manifestFileName}, so it cannot be verified (table "${table}")`,
          file,
        );
      if ((await sha256File(file)) !== expected) {
        throw new DatasetError(
          `cannot read ${file} (table "${table}"): its content does not match the hash ${manifestFileName} records; the file is damaged or was replaced`,
          file,
        );
      }
    }
  }
}

/** The hashes the manifest of the dataset in `dir` records (a small file, read per table checked). */
export function contentHashes(dir: string): ContentHashes {
  const manifest = join(dir, manifestFileName);
  const parsed = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { files?: FileHashes; rows?: Record<string, number> })
    : {};
  return new ContentHashes(dir, parsed.files, parsed.rows);
}

/** The hashes of every Parquet file under `dir`, for the manifest a generator writes. */
export async function hashDataset(dir: string, files: readonly string[]): Promise<FileHashes> {
  const out: FileHashes = {};
  for (const file of [...files].sort()) out[relativeName(dir, file)] = await sha256File(file);
  return out;
}
