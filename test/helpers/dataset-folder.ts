import { mkdir, symlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { findTableFiles } from '../../src/engine/dataset.ts';
import { sampleDir } from '../../src/generate/sample.ts';
import type { TableName } from '../../src/model/tables.ts';

/** A dataset folder `dir` holding only these tables of the sample (symlinked), and organizations. */
export async function linkTables(dir: string, keep: readonly TableName[]): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const table of new Set<TableName>(['organizations', ...keep])) {
    const files = findTableFiles(sampleDir, table)!;
    const source =
      files.length === 1 && basename(files[0]!) === `${table}.parquet` ? files[0]! : join(sampleDir, table);
    await symlink(source, join(dir, basename(source)));
  }
  return dir;
}
