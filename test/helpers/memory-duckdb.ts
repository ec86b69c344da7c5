import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll } from 'vitest';

/** An in-memory DuckDB connection for the enclosing file or describe block: opened before its tests, closed after. */
export function memoryDuckDb(): () => DuckDBConnection {
  let db: DuckDBInstance | undefined;
  let conn: DuckDBConnection | undefined;
  beforeAll(async () => {
    db = await DuckDBInstance.create(':memory:');
    conn = await db.connect();
  });
  afterAll(() => {
    conn?.closeSync();
    db?.closeSync();
  });
  return () => {
    if (!conn) throw new Error('the DuckDB connection is opened before the tests');
    return conn;
  };
}
