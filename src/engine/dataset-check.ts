import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance, listValue } from './duckdb-api.ts';
import { DatasetError } from '../errors.ts';
import type { ColumnDef } from '../model/column.ts';
import { partitionedBy } from '../model/layout.ts';
import { tableNames, tables, type TableName } from '../model/tables.ts';
import { checkFileColumns, findTableFiles, missingTableMessage, type DatasetProblem } from './dataset.ts';
import { operationTables, optionalTablesOf, tablesThatMayBeEmpty } from './operation-tables.ts';
import { contentHashes } from './content-hashes.ts';

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
  let keyed = true;
  for (const file of files) {
    const checked = await checkFileColumns(conn, table, file);
    problems.push(...checked.problems);
    const present = new Set(checked.columns.map((c) => c.name));
    keyed &&=
      tables[table].key.every((k) => present.has(k)) &&
      !checked.problems.some((p) => !p.column || (tables[table].key as readonly string[]).includes(p.column));
    if (checked.problems.some((p) => !p.column)) continue;
    problems.push(...(await nulls(conn, table, file, present)));
    if (partitionedBy[table]) problems.push(...(await order(conn, table, file, present)));
  }
  if (keyed && !partitionedBy[table]) problems.push(...(await duplicateKeys(conn, table, files)));
  return problems;
}

/** Keys shown of a table whose rows repeat a key; the rest are counted. */
const keysShown = 5;

/**
 * A dimension table (models, regions, prompts, …) holds one row per key across all its files: a key
 * twice would list that object twice and count its facts twice wherever reports join it.
 */
async function duplicateKeys(
  conn: DuckDBConnection,
  table: TableName,
  files: readonly string[],
): Promise<DatasetProblem[]> {
  const key: readonly string[] = tables[table].key;
  const keyText = key.map((k) => `CAST("${k}" AS VARCHAR)`).join(` || ', ' || `);
  const reader = await conn.runAndReadAll(
    `SELECT ${keyText} AS k, count(*) AS n, count(*) OVER () AS keys FROM read_parquet($files, union_by_name = true) GROUP BY 1 HAVING count(*) > 1 ORDER BY k LIMIT ${keysShown}`,
    { files: listValue([...files]) },
  );
  const rows = reader.getRowsJS();
  if (rows.length === 0) return [];
  const total = Number(rows[0]![2]);
  const shown = rows.map((r) => `${String(r[0])} (${Number(r[1])} rows)`).join(', ');
  const more = total > rows.length ? ` and ${total - rows.length} more` : '';
  const where = files.length > 1 ? `the ${files.length} files of table "${table}"` : files[0]!;
  return [
    {
      severity: 'error',
      table,
      file: files[0],
      column: key.join(', '),
      message: `${where}: ${total} ${key.join(', ')} value${total > 1 ? 's' : ''} on more than one row: ${shown}${more}; table "${table}" holds one row per ${key.join(', ')}`,
    },
  ];
}

function missing(dir: string, table: TableName): DatasetProblem[] {
  if (table === 'organizations') return [{ severity: 'error', table, message: missingTableMessage(dir, table) }];
  const recorded = contentHashes(dir).recorded(table);
  if (recorded)
    return [
      {
        severity: 'error',
        table,
        message: `${missingTableMessage(dir, table)}; ${recorded}, so the dataset is incomplete`,
      },
    ];
  if (tablesThatMayBeEmpty.includes(table)) return [];
  const operations = Object.entries(operationTables)
    .filter(([path, needs]) => needs.includes(table) && !optionalTablesOf[path]?.includes(table))
    .map(([path]) => path);
  const partly = Object.keys(optionalTablesOf).filter((path) => optionalTablesOf[path]!.includes(table));
  const n = operations.length;
  const without =
    partly.length > 0
      ? `; ${partly.join(', ')} answer${partly.length > 1 ? '' : 's'} without it, with empty lists`
      : '';
  return [
    {
      severity: 'warning',
      table,
      message: `missing table "${table}": ${n} operation${n === 1 ? ' refuses' : 's refuse'} without it (${operations.join(', ')})${without}`,
    },
  ];
}

/** Rows without a value in a column the contract requires; a key column without a value makes a row unaddressable. */
async function nulls(
  conn: DuckDBConnection,
  table: TableName,
  file: string,
  present: ReadonlySet<string>,
): Promise<DatasetProblem[]> {
  const required = Object.entries(tables[table].columns as Record<string, ColumnDef>)
    .filter(([name, c]) => !c.nullable && present.has(name))
    .map(([name]) => name);
  if (required.length === 0) return [];
  const counts = (
    await conn.runAndReadAll(
      `SELECT ${required.map((c) => `count(*) FILTER (WHERE "${c}" IS NULL)`).join(', ')} FROM read_parquet($file)`,
      { file },
    )
  ).getRowsJS()[0]!;
  const keys: readonly string[] = tables[table].key;
  return required.flatMap((column, i) => {
    const n = Number(counts[i]);
    if (n === 0) return [];
    const role = keys.includes(column) ? 'a key column' : 'a required column';
    return [
      {
        severity: 'error' as const,
        table,
        file,
        column,
        message: `${file}: ${n} row${n > 1 ? 's have' : ' has'} no "${column}" (${role} of table "${table}")`,
      },
    ];
  });
}

/**
 * Reports prune row groups by tenant and then time, so a large table's rows should be ordered by its
 * sort key up to the first instant column (facts: category_id, executed_at).
 */
async function order(
  conn: DuckDBConnection,
  table: TableName,
  file: string,
  present: ReadonlySet<string>,
): Promise<DatasetProblem[]> {
  const columns: Record<string, ColumnDef> = tables[table].columns;
  const sort: readonly string[] = tables[table].sort;
  const until = sort.findIndex((c) => columns[c]?.type === 'TIMESTAMPTZ');
  const keys = sort.slice(0, until + 1);
  if (keys.length === 0 || !keys.every((k) => present.has(k))) return [];
  const lags = keys.map((k, i) => `"${k}" AS c${i}, lag("${k}") OVER (ORDER BY file_row_number) AS p${i}`).join(', ');
  // TRICKY: lexicographic "previous row > this row" over the key: (p0 > c0) OR (p0 = c0 AND p1 > c1) …
  const later = keys
    .map((_, i) => [...keys.slice(0, i).map((__, j) => `p${j} = c${j}`), `p${i} > c${i}`].join(' AND '))
    .join(') OR (');
  const reader = await conn.runAndReadAll(
    `SELECT count(*) FROM (SELECT ${lags} FROM read_parquet($file, file_row_number = true)) WHERE (${later})`,
    { file },
  );
  const descents = Number(reader.getRowsJS()[0]![0]);
  if (descents === 0) return [];
  return [
    {
      severity: 'slow',
      table,
      file,
      message: `${file}: rows are not ordered by (${keys.join(', ')}) (${descents} step${descents > 1 ? 's' : ''} back): reports read every row group of it; write it sorted (docs/own-data.md)`,
    },
  ];
}
