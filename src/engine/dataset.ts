import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DatasetError } from '../errors.ts';
import type { ColumnDef, ColumnType } from '../model/column.ts';
import { tables, type TableName } from '../model/tables.ts';

/** Physical types a file may carry for a contract type; the view casts where they differ. */
const accepted: Record<ColumnType, readonly string[]> = {
  VARCHAR: ['VARCHAR'],
  BOOLEAN: ['BOOLEAN'],
  INTEGER: ['INTEGER', 'SMALLINT', 'TINYINT', 'USMALLINT', 'UTINYINT'],
  BIGINT: ['BIGINT', 'INTEGER', 'SMALLINT', 'TINYINT', 'UINTEGER', 'USMALLINT', 'UTINYINT'],
  DOUBLE: ['DOUBLE', 'FLOAT', 'DECIMAL', 'INTEGER', 'BIGINT', 'SMALLINT'],
  DATE: ['DATE'],
  TIMESTAMPTZ: ['TIMESTAMP WITH TIME ZONE', 'TIMESTAMP', 'TIMESTAMP_MS', 'TIMESTAMP_S', 'TIMESTAMP_NS'],
  UUID: ['UUID', 'VARCHAR'],
  'VARCHAR[]': ['VARCHAR[]'],
};

export interface ColumnSource {
  readonly name: string;
  readonly cast: boolean;
}

export interface TableSource {
  readonly table: TableName;
  readonly files: readonly string[];
  readonly columns: readonly ColumnSource[];
}

/** Finds the files of one table: `<dir>/<table>.parquet`, or every `*.parquet` in `<dir>/<table>/` in name order. */
export function tableFiles(dir: string, table: TableName): string[] {
  const single = resolve(dir, `${table}.parquet`);
  const folder = resolve(dir, table);
  const hasFolder = existsSync(folder) && statSync(folder).isDirectory();
  if (existsSync(single) && hasFolder) {
    throw new DatasetError(`table "${table}" is ambiguous: both ${single} and ${folder}/ exist`, single);
  }
  if (existsSync(single)) return [single];
  if (hasFolder) {
    const parts = readdirSync(folder).filter((f) => f.endsWith('.parquet')).sort();
    if (parts.length === 0) throw new DatasetError(`table "${table}" has no Parquet files in ${folder}/`, folder);
    return parts.map((f) => join(folder, f));
  }
  throw new DatasetError(`missing table "${table}": expected ${single} or a folder ${folder}/ of Parquet files`, single);
}

/** Reads every file's footer and checks its columns and types against the contract. */
export async function inspectFiles(conn: DuckDBConnection, table: TableName, files: readonly string[]): Promise<TableSource> {
  const def = tables[table];
  let casts: ColumnSource[] | undefined;
  for (const file of files) {
    let described: Map<string, string>;
    try {
      const reader = await conn.runAndReadAll(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet($file))`, { file });
      described = new Map(reader.getRowsJS().map((r) => [String(r[0]), String(r[1])]));
    } catch (error) {
      throw new DatasetError(`cannot read ${file} (table "${table}"): ${(error as Error).message.split('\n')[0]}`, file);
    }
    const fileCasts: ColumnSource[] = [];
    for (const [name, column] of Object.entries(def.columns)) {
      const found = described.get(name);
      if (found === undefined) throw new DatasetError(`${file}: table "${table}" is missing column "${name}" (${column.type})`, file, name);
      const base = found.replace(/\(.*\)$/, '');
      if (!accepted[column.type].includes(base)) {
        throw new DatasetError(`${file}: column "${name}" of table "${table}" has type ${found}, expected ${column.type}`, file, name);
      }
      fileCasts.push({ name, cast: base !== column.type });
    }
    casts = casts ? casts.map((c, i) => ({ name: c.name, cast: c.cast || fileCasts[i]!.cast })) : fileCasts;
  }
  return { table, files, columns: casts ?? [] };
}

export function projection(table: TableName, columns: readonly ColumnSource[]): string {
  const defs: Record<string, ColumnDef> = tables[table].columns;
  return columns
    .map((c) => {
      const type = defs[c.name]!.type;
      return c.cast ? `CAST("${c.name}" AS ${type}) AS "${c.name}"` : `"${c.name}"`;
    })
    .join(', ');
}
