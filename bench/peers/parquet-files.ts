import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The Parquet source of a table for a peer: the single file, or a glob over its folder of parts. */
export const parquetSource = (dir: string, table: string): string =>
  existsSync(join(dir, `${table}.parquet`)) ? join(dir, `${table}.parquet`) : join(dir, table, '*.parquet');
