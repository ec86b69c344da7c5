import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { listValue } from '../engine/duckdb-api.ts';
import { findTableFiles } from '../engine/dataset.ts';
import { DatasetError } from '../errors.ts';
import { columnList, manifestFileName } from '../model/layout.ts';
import type { TableName } from '../model/tables.ts';

/** Where an import writes, and how: `replace` empties it first, `append` adds an organization to the dataset there. */
export interface OutOptions {
  readonly out: string;
  readonly replace?: boolean;
  readonly append?: boolean;
}

/** Refuses an `out` the import may not write, before reading any input. */
export function checkOut(options: OutOptions): void {
  const { out } = options;
  const occupied = existsSync(out) && readdirSync(out).length > 0;
  if (options.append) {
    if (options.replace)
      throw new DatasetError('--append adds to the dataset in --out, --replace removes it: give one of them');
    if (!occupied || !existsSync(join(out, 'organizations.parquet')))
      throw new DatasetError(`${out} holds no dataset to append to: import the first organization without --append`);
    if (existsSync(join(out, manifestFileName)))
      throw new DatasetError(
        `${out} is a generated dataset (it has ${manifestFileName}, whose hashes an append would break): --append adds to folders made by aea import`,
      );
    return;
  }
  if (occupied && !options.replace)
    throw new DatasetError(
      `${out} is not empty: pass --replace to overwrite it, or --append to add an organization to it`,
    );
}

/**
 * The tables of the dataset already in `out` joined to this import's: rows of other organizations are
 * kept, models and regions (shared by every organization, ids made from their names) once each. The
 * organization must not be there yet.
 */
export async function mergeExisting(
  conn: DuckDBConnection,
  out: string,
  organizationId: string,
  written: readonly TableName[],
): Promise<void> {
  const files = (table: TableName) => findTableFiles(out, table);
  const present = await conn.runAndReadAll(`SELECT count(*) FROM read_parquet($files) WHERE id = $id`, {
    files: listValue(files('organizations')!),
    id: organizationId,
  });
  if (Number(present.getRowsJS()[0]![0]) > 0)
    throw new DatasetError(
      `${out} already holds this organization (${organizationId}): import it again into a new folder, or with --replace`,
    );
  for (const table of written) {
    const existing = files(table);
    if (!existing) continue;
    const columns = columnList(table)
      .map((c) => `"${c}"`)
      .join(', ');
    const shared = !columnList(table).includes('organization_id');
    const before = `SELECT ${columns} FROM read_parquet($files, union_by_name = true)`;
    const added = shared
      ? `SELECT ${columns} FROM "out_${table}" WHERE id NOT IN (SELECT id FROM (${before}))`
      : `SELECT ${columns} FROM "out_${table}"`;
    await conn.run(`CREATE OR REPLACE TABLE "out_${table}" AS ${before} UNION ALL ${added}`, {
      files: listValue(existing),
    });
  }
}

/**
 * Writes the tables into a fresh folder beside `out` and then moves them in, so a failure midway leaves
 * `out` as it was (and no folder where there was none).
 */
export async function writeTables(options: OutOptions, write: (dir: string) => Promise<void>): Promise<void> {
  const { out } = options;
  const existed = existsSync(out);
  await mkdir(out, { recursive: true });
  const staging = await mkdtemp(join(out, '.aea-import-'));
  try {
    await write(staging);
    if (options.replace)
      for (const f of readdirSync(out))
        if (join(out, f) !== staging) await rm(join(out, f), { recursive: true, force: true });
    for (const f of readdirSync(staging)) {
      const table = basename(f, '.parquet');
      await rm(join(out, table), { recursive: true, force: true });
      await rename(join(staging, f), join(out, f));
    }
  } catch (error) {
    if (!existed) await rm(out, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
