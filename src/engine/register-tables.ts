import { statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Table as ArrowTable } from 'apache-arrow';
import { DatasetError } from '../errors.ts';
import { tables, type TableName } from '../model/tables.ts';
import { stateTables } from '../state/store.ts';
import { contentHashes } from './content-hashes.ts';
import type { TableSource } from './dataset-version.ts';
import { emptyRelation, findTableFiles, inspectFiles, missingTableMessage, projection } from './dataset.ts';
import type { EngineOptions } from './engine-options.ts';
import { smallTableBytes } from '../limits.ts';
import { pathListLiteral } from './literal.ts';
import { describeFiles, type FileColumns } from './file-schemas.ts';

const isDimension = (table: TableName) =>
  !(tables[table].sort as readonly string[]).some((c) => c === 'executed_at' || c === 'ts');

const bytesOf = (files: readonly string[]) => files.reduce((sum, f) => sum + statSync(f).size, 0);

/** Editable tables are registered as `dataset_<table>`; the state store serves `<table>`. */
const viewName = (table: TableName) =>
  (stateTables as readonly string[]).includes(table) ? `dataset_${table}` : table;

const isArrow = (input: unknown) => input !== undefined && typeof input !== 'string' && !Array.isArray(input);

/** The Parquet files a table reads: given in `tables`, or found in the dataset folder; undefined for an Arrow table or one left out. */
function filesOf(table: TableName, options: EngineOptions): string[] | undefined {
  const input = options.tables?.[table];
  if (isArrow(input)) return undefined;
  return input === undefined
    ? options.data
      ? findTableFiles(options.data, table)
      : undefined
    : typeof input === 'string'
      ? [input]
      : [...(input as readonly string[])];
}

/** Every Parquet file the tables read, described in one statement (see `describeFiles`). */
export const describeDataset = (
  conn: DuckDBConnection,
  names: readonly TableName[],
  options: EngineOptions,
): Promise<Map<string, FileColumns>> =>
  describeFiles(
    conn,
    names.flatMap((t) => filesOf(t, options) ?? []),
  );

/**
 * Registers one table as a view, saying where its rows come from; null when the dataset leaves it out
 * (then the view is empty). `described` holds files' columns read ahead; a file not in it is described here.
 */
export async function registerTable(
  conn: DuckDBConnection,
  table: TableName,
  options: EngineOptions,
  described?: ReadonlyMap<string, FileColumns>,
): Promise<TableSource | null> {
  const view = viewName(table);
  const input = options.tables?.[table];
  if (isArrow(input)) {
    // Only Arrow inputs load apache-arrow; a dataset folder never does.
    const { loadArrowTable } = await import('./arrow-tables.ts');
    const staging = await loadArrowTable(conn, table, input as ArrowTable);
    const source = await inspectTable(conn, table, staging);
    await conn.run(`CREATE OR REPLACE VIEW "${view}" AS SELECT ${source} FROM "${staging}"`);
    return { table, relation: view };
  }
  const files = filesOf(table, options);
  if (!files) {
    if (table === 'organizations')
      throw new DatasetError(
        options.data
          ? missingTableMessage(options.data, table)
          : 'missing table "organizations": pass it in `tables` or give a `data` folder',
      );
    if (options.verify === 'full' && input === undefined && options.data)
      contentHashes(options.data).checkAbsent(table);
    await conn.run(`CREATE OR REPLACE VIEW "${view}" AS ${emptyRelation(table)}`);
    return null;
  }
  const source = await inspectFiles(conn, table, files, described);
  if (options.verify === 'full') {
    if (input === undefined) await contentHashes(options.data!).check(table, files);
    await readEveryValue(conn, table, files);
  }
  // A small dimension table is read once into memory: every report joins the dimensions several times,
  // and each read of a Parquet file, however small, costs about half a millisecond of opening and
  // decoding. Facts (ordered by time) are always read from their files.
  const kind =
    options.smallTablesInMemory !== false && isDimension(table) && bytesOf(files) <= smallTableBytes ? 'TABLE' : 'VIEW';
  await conn.run(
    `CREATE OR REPLACE ${kind} "${view}" AS SELECT ${projection(table, source.columns)} FROM read_parquet(${pathListLiteral(files)})`,
  );
  return { table, files };
}

async function inspectTable(conn: DuckDBConnection, table: TableName, staging: string): Promise<string> {
  const reader = await conn.runAndReadAll(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "${staging}")`);
  const types = new Map(reader.getRowsJS().map((r) => [String(r[0]), String(r[1])]));
  const columns = [...types.keys()].map((name) => ({
    name,
    cast: types.get(name) === 'VARCHAR' && isUuidColumn(table, name),
  }));
  return projection(table, columns);
}

function isUuidColumn(table: TableName, column: string): boolean {
  const columns: Record<string, { type: string }> = tables[table].columns;
  return columns[column]?.type === 'UUID';
}

async function readEveryValue(conn: DuckDBConnection, table: TableName, files: readonly string[]): Promise<void> {
  for (const file of files) {
    try {
      await conn.run(`SELECT count(*), max(hash(COLUMNS(*))) FROM read_parquet(${pathListLiteral([file])})`);
    } catch (error) {
      throw new DatasetError(
        `cannot read ${file} (table "${table}"): ${(error as Error).message.split('\n')[0]}`,
        file,
      );
    }
  }
}
