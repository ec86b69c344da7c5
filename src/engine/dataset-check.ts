import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance } from './duckdb-api.ts';
import { DatasetError } from '../errors.ts';
import type { ColumnDef } from '../model/column.ts';
import { partitionedBy } from '../model/layout.ts';
import { tableNames, tables, type TableName } from '../model/tables.ts';
import { checkFileColumns, findTableFiles, missingTableMessage, type DatasetProblem } from './dataset.ts';
import { operationTables, tablesThatMayBeEmpty } from './operation-tables.ts';

/**
 * Every problem of a dataset folder at once, for `aea check`: missing tables (and the operations they
 * disable), unreadable files, missing columns, wrong types, values that do not fit, nulls in required
 * columns, and large tables whose rows are not in the order reports prune by.
 */
export async function checkDataset(dir: string): Promise<DatasetProblem[]> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await instance.connect();
  try {
    const problems: DatasetProblem[] = [];
    for (const table of tableNames) problems.push(...(await checkTable(conn, dir, table)));
    return problems;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function checkTable(conn: DuckDBConnection, dir: string, table: TableName): Promise<DatasetProblem[]> {
  let files: string[] | undefined;
  try {
    files = findTableFiles(dir, table);
  } catch (error) {
    if (!(error instanceof DatasetError)) throw error;
    return [{ severity: 'error', table, file: error.file, message: error.message }];
  }
  if (!files) return missing(dir, table);
  const problems: DatasetProblem[] = [];
  for (const file of files) {
    const checked = await checkFileColumns(conn, table, file);
    problems.push(...checked.problems);
    const present = new Set(checked.columns.map((c) => c.name));
    if (checked.problems.some((p) => !p.column)) continue;
    problems.push(...(await nulls(conn, table, file, present)));
    if (partitionedBy[table]) problems.push(...(await order(conn, table, file, present)));
  }
  return problems;
}

function missing(dir: string, table: TableName): DatasetProblem[] {
  if (table === 'organizations') return [{ severity: 'error', table, message: missingTableMessage(dir, table) }];
  if (tablesThatMayBeEmpty.includes(table)) return [];
  const operations = Object.entries(operationTables)
    .filter(([, needs]) => needs.includes(table))
    .map(([path]) => path);
  const n = operations.length;
  return [{ severity: 'warning', table, message: `missing table "${table}": ${n} operation${n > 1 ? 's refuse' : ' refuses'} without it (${operations.join(', ')})` }];
}

/** Rows without a value in a column the contract requires; a key column without a value makes a row unaddressable. */
async function nulls(conn: DuckDBConnection, table: TableName, file: string, present: ReadonlySet<string>): Promise<DatasetProblem[]> {
  const required = Object.entries(tables[table].columns as Record<string, ColumnDef>)
    .filter(([name, c]) => !c.nullable && present.has(name))
    .map(([name]) => name);
  if (required.length === 0) return [];
  const counts = (await conn.runAndReadAll(`SELECT ${required.map((c) => `count(*) FILTER (WHERE "${c}" IS NULL)`).join(', ')} FROM read_parquet($file)`, { file })).getRowsJS()[0]!;
  const keys: readonly string[] = tables[table].key;
  return required.flatMap((column, i) => {
    const n = Number(counts[i]);
    if (n === 0) return [];
    const role = keys.includes(column) ? 'a key column' : 'a required column';
    return [{ severity: 'error' as const, table, file, column, message: `${file}: ${n} row${n > 1 ? 's have' : ' has'} no "${column}" (${role} of table "${table}")` }];
  });
}

/**
 * Reports prune row groups by tenant and then time, so a large table's rows should be ordered by its
 * sort key up to the first instant column (facts: category_id, executed_at).
 */
async function order(conn: DuckDBConnection, table: TableName, file: string, present: ReadonlySet<string>): Promise<DatasetProblem[]> {
  const columns: Record<string, ColumnDef> = tables[table].columns;
  const sort: readonly string[] = tables[table].sort;
  const until = sort.findIndex((c) => columns[c]?.type === 'TIMESTAMPTZ');
  const keys = sort.slice(0, until + 1);
  if (keys.length === 0 || !keys.every((k) => present.has(k))) return [];
  const lags = keys.map((k, i) => `"${k}" AS c${i}, lag("${k}") OVER (ORDER BY file_row_number) AS p${i}`).join(', ');
  // TRICKY: lexicographic "previous row > this row" over the key: (p0 > c0) OR (p0 = c0 AND p1 > c1) …
  const later = keys.map((_, i) => [...keys.slice(0, i).map((__, j) => `p${j} = c${j}`), `p${i} > c${i}`].join(' AND ')).join(') OR (');
  const reader = await conn.runAndReadAll(`SELECT count(*) FROM (SELECT ${lags} FROM read_parquet($file, file_row_number = true)) WHERE (${later})`, { file });
  const descents = Number(reader.getRowsJS()[0]![0]);
  if (descents === 0) return [];
  return [{ severity: 'slow', table, file, message: `${file}: rows are not ordered by (${keys.join(', ')}) (${descents} step${descents > 1 ? 's' : ''} back): reports read every row group of it; write it sorted (docs/own-data.md)` }];
}
