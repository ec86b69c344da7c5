import { join } from 'node:path';
import { derivedStateViews } from '../engine/clickhouse-tables.ts';
import { findTableFiles } from '../engine/dataset.ts';
import type { DuckDBPool } from '../engine/duckdb-pool.ts';
import { pathListLiteral, pathLiteral } from '../engine/literal.ts';
import type { TableName } from '../model/tables.ts';
import type { DatasetSource } from './load.ts';

const isDerived = (table: string) => (derivedStateViews as readonly string[]).includes(table);

/**
 * A dataset folder as the loader reads it: the contract's tables from their Parquet files, as they are
 * (the server converts them to the tables' types as it reads them), and the state store's derived views
 * (knowledge-base sections and claim evidence) computed by the engine's DuckDB and written to `scratch`.
 */
export function datasetSource(dir: string, pool: DuckDBPool, scratch: string): DatasetSource {
  const count = async (from: string) =>
    Number((await pool.use((c) => c.runAndReadAll(`SELECT count(*) FROM ${from}`))).getRowsJS()[0]![0]);
  return {
    async files(table) {
      if (!isDerived(table)) return findTableFiles(dir, table as TableName);
      const file = join(scratch, `${table}.parquet`);
      await pool.use((c) => c.run(`COPY (SELECT * FROM "${table}") TO ${pathLiteral(file)} (FORMAT parquet)`));
      return [file];
    },
    async rows(table) {
      if (isDerived(table)) return count(`"${table}"`);
      const files = findTableFiles(dir, table as TableName);
      return files ? count(`read_parquet(${pathListLiteral(files)})`) : 0;
    },
  };
}
