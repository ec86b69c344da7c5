import { DatasetError } from '../errors.ts';
import { parseTargetUrl } from '../cluster/target-url.ts';
import type { ReportBackend } from './backend.ts';
import { ChdbBackend } from './chdb-backend.ts';
import type { TableCopies } from './clickhouse-tables.ts';
import { DuckDBBackend } from './duckdb-backend.ts';
import type { DuckDBPool } from './duckdb-pool.ts';
import type { EngineOptions } from './engine-options.ts';
import { pathLiteral } from './literal.ts';
import type { RollupDef } from './rollups.ts';

/** The backend that runs the reports' statements, as the options name it; a ClickHouse database may keep rollups of `rollupCatalog`. */
export async function openBackend(
  options: EngineOptions,
  pool: DuckDBPool,
  copies: TableCopies,
  rollupCatalog: readonly RollupDef[],
  chdbMemoryBytes?: number,
): Promise<ReportBackend> {
  const name = options.backend ?? 'duckdb';
  if (name === 'chdb') return ChdbBackend.open(copies, chdbMemoryBytes);
  if (name === 'clickhouse') {
    if (!options.clickhouseUrl)
      throw new DatasetError(
        'the clickhouse backend needs `clickhouseUrl` (--clickhouse-url), the HTTP URL of the server',
      );
    if (options.clickhouseUrl.startsWith('chdb:')) {
      // Tables `aea clickhouse load` wrote to a chdb data directory, read in this process.
      const target = parseTargetUrl(options.clickhouseUrl);
      if (target.kind === 'chdb')
        return ChdbBackend.openLoaded(target.path, target.database, rollupCatalog, chdbMemoryBytes);
    }
    // Loaded only by engines that use it: most never talk to a ClickHouse server.
    const { ClickHouseBackend } = await import('./clickhouse-backend.ts');
    return ClickHouseBackend.open(options.clickhouseUrl, rollupCatalog);
  }
  if (name !== 'duckdb')
    throw new DatasetError(`unknown backend ${JSON.stringify(name)}: use duckdb, chdb or clickhouse`);
  return new DuckDBBackend(pool);
}

/** Writes a relation of the engine's DuckDB to a Parquet file, for a ClickHouse backend to read. */
export async function copyRelation(pool: DuckDBPool, relation: string, file: string): Promise<void> {
  await pool.use(
    (conn) => conn.run(`COPY (SELECT * FROM "${relation}") TO ${pathLiteral(file)} (FORMAT parquet)`),
    'light',
  );
}
