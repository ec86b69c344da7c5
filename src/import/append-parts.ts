import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '../engine/duckdb-api.ts';
import { sha256File } from '../engine/content-hashes.ts';
import { findTableFiles } from '../engine/dataset.ts';
import { pathListLiteral, pathLiteral } from '../engine/literal.ts';
import { DatasetError } from '../errors.ts';
import { manifestFileName } from '../model/layout.ts';
import { tableNames, tables, type TableName } from '../model/tables.ts';

/** Tables ordered by time (facts): the only ones a day can be appended to. */
const timeOrdered = (table: TableName) =>
  (tables[table].sort as readonly string[]).some((c) => c === 'executed_at' || c === 'ts');

export interface AppendedPart {
  readonly table: string;
  readonly file: string;
  readonly rows: number;
}

const partName = (n: number) => `part-${String(n).padStart(4, '0')}.parquet`;

/**
 * Adds the fact rows in `from` (a folder laid out like a dataset, holding only fact tables, such as a
 * new day's) to the dataset in `dataDir` as one new part per table, sorted as the contract says, and
 * records them in its manifest (their SHA-256 and rows). Files already there are never rewritten, so
 * stored rollups refresh only the days the new parts hold. Each part is written under a temporary name
 * and renamed; the manifest last, the same way.
 */
export async function appendParts(dataDir: string, from: string): Promise<AppendedPart[]> {
  const incoming = tableNames
    .map((table) => ({ table, files: findTableFiles(from, table) }))
    .filter((t): t is { table: TableName; files: string[] } => t.files !== undefined);
  if (incoming.length === 0)
    throw new DatasetError(
      `${from} holds no table of the contract to append (<table>.parquet or <table>/*.parquet)`,
      from,
    );
  for (const { table } of incoming) {
    if (!timeOrdered(table))
      throw new DatasetError(
        `${join(from, table)}: only tables ordered by time (facts such as mentions or bot_events) can be appended; "${table}" is not one`,
        from,
      );
    if (!findTableFiles(dataDir, table))
      throw new DatasetError(`${join(dataDir, table)}: the dataset has no table "${table}" to append to`, dataDir);
  }
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await instance.connect();
  const written: AppendedPart[] = [];
  const pending: string[] = [];
  try {
    await conn.run(`SET TimeZone = 'UTC'`);
    for (const { table, files } of incoming) {
      const existing = findTableFiles(dataDir, table)!;
      const columnsOf = async (paths: readonly string[]) =>
        (
          await conn.runAndReadAll(
            `SELECT column_name || ' ' || column_type FROM (DESCRIBE SELECT * FROM read_parquet(${pathListLiteral(paths)}))`,
          )
        )
          .getRowsJS()
          .map((r) => String(r[0]));
      const [have, bring] = [await columnsOf(existing.slice(0, 1)), await columnsOf(files)];
      if (have.join(',') !== bring.join(','))
        throw new DatasetError(
          `${join(from, table)}: its columns (${bring.join(', ')}) are not the dataset's (${have.join(', ')})`,
          from,
        );
      const count = Number(
        (await conn.runAndReadAll(`SELECT count(*) FROM read_parquet(${pathListLiteral(files)})`)).getRowsJS()[0]![0],
      );
      if (count === 0) continue;
      const folder = join(dataDir, table);
      if (!existsSync(folder)) {
        // A one-file table becomes a folder of parts: its file is the first part.
        mkdirSync(folder);
        renameSync(join(dataDir, `${table}.parquet`), join(folder, partName(0)));
        renameInManifest(dataDir, `${table}.parquet`, `${table}/${partName(0)}`);
      }
      const numbers = readdirSync(folder)
        .map((f) => /^part-(\d+)\.parquet$/.exec(f)?.[1])
        .filter((n) => n !== undefined)
        .map(Number);
      const name = partName(numbers.length === 0 ? 0 : Math.max(...numbers) + 1);
      const temp = join(folder, `.${name}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
      pending.push(temp);
      const order = (tables[table].sort as readonly string[]).join(', ');
      await conn.run(
        `COPY (SELECT * FROM read_parquet(${pathListLiteral(files)}) ORDER BY ${order}) TO ${pathLiteral(temp)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`,
      );
      renameSync(temp, join(folder, name));
      pending.pop();
      written.push({ table, file: `${table}/${name}`, rows: count });
    }
  } finally {
    for (const temp of pending) rmSync(temp, { force: true });
    conn.closeSync();
    instance.closeSync();
  }
  await recordInManifest(dataDir, written);
  return written;
}

function readManifest(dataDir: string): Record<string, unknown> | undefined {
  const file = join(dataDir, manifestFileName);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined;
}

function writeManifest(dataDir: string, manifest: Record<string, unknown>): void {
  const file = join(dataDir, manifestFileName);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(temp, file);
}

function renameInManifest(dataDir: string, before: string, after: string): void {
  const manifest = readManifest(dataDir);
  const files = manifest?.files as Record<string, string> | undefined;
  if (!manifest || !files || files[before] === undefined) return;
  files[after] = files[before]!;
  delete files[before];
  writeManifest(dataDir, manifest);
}

/** A dataset with a manifest (a generated one) records each new part's hash and rows, so it still opens verified. */
async function recordInManifest(dataDir: string, parts: readonly AppendedPart[]): Promise<void> {
  const manifest = readManifest(dataDir);
  if (!manifest || parts.length === 0) return;
  const files = (manifest.files ?? {}) as Record<string, string>;
  const rows = (manifest.rows ?? {}) as Record<string, number>;
  for (const part of parts) {
    if (manifest.files) files[part.file] = await sha256File(join(dataDir, part.file));
    rows[part.table] = (rows[part.table] ?? 0) + part.rows;
  }
  // `appended` says which parts the generator (whose fingerprint the manifest keeps) did not write.
  const appended = [...((manifest.appended as string[] | undefined) ?? []), ...parts.map((p) => p.file)];
  writeManifest(dataDir, { ...manifest, ...(manifest.files ? { files } : {}), rows, appended });
}
