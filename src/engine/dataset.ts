import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DatasetError } from '../errors.ts';
import type { ColumnDef, ColumnType } from '../model/column.ts';
import { tables, type TableName } from '../model/tables.ts';
import { describeFile, type FileColumns } from './file-schemas.ts';

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

/**
 * Wider numbers an integer column takes when every value fits: BIGINT is the default integer of
 * pandas and DuckDB, and a pandas integer column with a missing value becomes DOUBLE.
 */
const acceptedIfFits: Partial<Record<ColumnType, readonly string[]>> = {
  INTEGER: ['BIGINT', 'UINTEGER', 'UBIGINT', 'HUGEINT', 'DOUBLE', 'FLOAT', 'DECIMAL'],
  BIGINT: ['UBIGINT', 'HUGEINT', 'DOUBLE', 'FLOAT', 'DECIMAL'],
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

/** One thing wrong with a dataset: `error` stops it opening, `warning` disables operations, `slow` costs time. */
export interface DatasetProblem {
  readonly severity: 'error' | 'warning' | 'slow';
  readonly table: TableName;
  readonly file?: string;
  readonly column?: string;
  readonly message: string;
}

/**
 * The files of one table: `<dir>/<table>.parquet`, or every `*.parquet` in `<dir>/<table>/` in name
 * order; undefined when the folder has neither.
 */
export function findTableFiles(dir: string, table: TableName): string[] | undefined {
  const single = resolve(dir, `${table}.parquet`);
  const folder = resolve(dir, table);
  for (const entry of [single, folder]) {
    const broken = brokenLink(entry);
    if (broken) throw new DatasetError(`table "${table}": ${entry} is ${broken}`, entry);
  }
  const hasFolder = existsSync(folder) && statSync(folder).isDirectory();
  if (existsSync(single) && hasFolder) {
    throw new DatasetError(`table "${table}" is ambiguous: both ${single} and ${folder}/ exist`, single);
  }
  if (existsSync(single)) return [single];
  if (!hasFolder) return undefined;
  const parts = readdirSync(folder)
    .filter((f) => f.endsWith('.parquet'))
    .sort();
  if (parts.length === 0) throw new DatasetError(`table "${table}" has no Parquet files in ${folder}/`, folder);
  return parts.map((f) => join(folder, f));
}

/** A link that is there but leads nowhere: `existsSync` calls it absent, which would pass for a table left out. */
function brokenLink(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  try {
    statSync(path);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ELOOP'
      ? 'a loop of symbolic links'
      : 'a symbolic link to nothing (dangling)';
  }
}

/** Like findTableFiles, for a table that must be there. */
export function tableFiles(dir: string, table: TableName): string[] {
  const files = findTableFiles(dir, table);
  if (!files) throw new DatasetError(missingTableMessage(dir, table), resolve(dir, `${table}.parquet`));
  return files;
}

export const missingTableMessage = (dir: string, table: TableName) =>
  `missing table "${table}": expected ${resolve(dir, `${table}.parquet`)} or a folder ${resolve(dir, table)}/ of Parquet files`;

/** Every problem of one file's columns: missing, of a wrong type, or holding values their contract type cannot. */
export async function checkFileColumns(
  conn: DuckDBConnection,
  table: TableName,
  file: string,
  known?: FileColumns,
): Promise<{ columns: ColumnSource[]; problems: DatasetProblem[] }> {
  const problem = (message: string, column?: string): DatasetProblem => ({
    severity: 'error',
    table,
    file,
    column,
    message,
  });
  let described: FileColumns;
  try {
    described = known ?? (await describeFile(conn, file));
  } catch (error) {
    return {
      columns: [],
      problems: [problem(`cannot read ${file} (table "${table}"): ${(error as Error).message.split('\n')[0]}`)],
    };
  }
  const columns: ColumnSource[] = [];
  const problems: DatasetProblem[] = [];
  const narrowed: { name: string; type: ColumnType }[] = [];
  for (const [name, column] of Object.entries(tables[table].columns as Record<string, ColumnDef>)) {
    const found = described.get(name);
    if (found === undefined) {
      problems.push(problem(`${file}: table "${table}" is missing column "${name}" (${column.type})`, name));
      continue;
    }
    const base = found.replace(/\(.*\)$/, '');
    if (acceptedIfFits[column.type]?.includes(base)) narrowed.push({ name, type: column.type });
    else if (!accepted[column.type].includes(base)) {
      problems.push(
        problem(`${file}: column "${name}" of table "${table}" has type ${found}, expected ${column.type}`, name),
      );
      continue;
    }
    columns.push({ name, cast: base !== column.type });
  }
  if (narrowed.length > 0)
    problems.push(
      ...(await misfits(conn, file, narrowed)).map(({ name, type, found, example }) =>
        problem(
          `${file}: column "${name}" of table "${table}" is ${found}; its value ${example} does not fit ${type}`,
          name,
        ),
      ),
    );
  return { columns, problems };
}

/** Columns of a wider number type holding a value their contract's integer type cannot (3e9, 1.5). */
async function misfits(conn: DuckDBConnection, file: string, columns: readonly { name: string; type: ColumnType }[]) {
  // TRICKY: TRY_CAST rounds 1.5 to 2, so a value fits only when the cast exists and equals it.
  const bad = (c: { name: string; type: ColumnType }) =>
    `"${c.name}" IS NOT NULL AND (TRY_CAST("${c.name}" AS ${c.type}) IS NULL OR TRY_CAST("${c.name}" AS ${c.type}) <> "${c.name}")`;
  const select = columns
    .map((c) => `CAST(any_value("${c.name}") FILTER (WHERE ${bad(c)}) AS VARCHAR), any_value(typeof("${c.name}"))`)
    .join(', ');
  const row = (await conn.runAndReadAll(`SELECT ${select} FROM read_parquet($file)`, { file })).getRowsJS()[0]!;
  return columns
    .map((c, i) => ({ ...c, example: row[2 * i], found: String(row[2 * i + 1]) }))
    .filter((c) => c.example !== null)
    .map((c) => ({ ...c, example: String(c.example) }));
}

/** Reads every file's footer, checks its columns and types against the contract, and fails on the first problem. */
export async function inspectFiles(
  conn: DuckDBConnection,
  table: TableName,
  files: readonly string[],
  described?: ReadonlyMap<string, FileColumns>,
): Promise<TableSource> {
  let casts: ColumnSource[] | undefined;
  for (const file of files) {
    const { columns, problems } = await checkFileColumns(conn, table, file, described?.get(file));
    const first = problems[0];
    if (first) throw new DatasetError(first.message, file, first.column);
    casts = casts ? casts.map((c, i) => ({ name: c.name, cast: c.cast || columns[i]!.cast })) : columns;
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

/** A table the dataset leaves out: no rows, the contract's columns and types. */
export function emptyRelation(table: TableName): string {
  const columns = Object.entries(tables[table].columns as Record<string, ColumnDef>).map(
    ([name, c]) => `CAST(NULL AS ${c.type}) AS "${name}"`,
  );
  return `SELECT ${columns.join(', ')} WHERE false`;
}
