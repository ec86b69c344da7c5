import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { ColumnDef } from '../model/column.ts';
import { columnList } from '../model/layout.ts';
import { tables, type TableName } from '../model/tables.ts';

export type Params = Record<string, DuckDBValue>;

/**
 * Writes one contract table: its columns in contract order and type, sorted by its sort key, then every column.
 * A source 'in order' reads one table already in that order through order-preserving clauses only
 * (SELECT, WHERE, CTEs of those: DuckDB keeps insertion order there), so it is written without a sort.
 */
export async function copyTable(
  conn: DuckDBConnection,
  table: TableName,
  sql: string,
  params: Params,
  file: string,
  source: 'in order' | 'unordered' = 'unordered',
): Promise<number> {
  const def = tables[table];
  const defs: Record<string, ColumnDef> = def.columns;
  const columns = columnList(table);
  const projection = columns.map((c) => `CAST("${c}" AS ${defs[c]!.type}) AS "${c}"`).join(', ');
  const order = [...def.sort, ...columns.filter((c) => !def.sort.includes(c as never))].map((c) => `"${c}"`).join(', ');
  const result = await conn.runAndReadAll(
    `COPY (SELECT ${projection} FROM (${sql})${source === 'in order' ? '' : ` ORDER BY ${order}`}) TO $path (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`,
    { ...params, path: file },
  );
  return Number(result.getRows()[0]?.[0] ?? 0);
}
