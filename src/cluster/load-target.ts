import { createReadStream } from 'node:fs';
import { acquireChdb } from '../engine/chdb-session.ts';
import { clickhouseLiteral } from '../engine/clickhouse-tables.ts';
import type { TargetUrl } from './target-url.ts';

/** What the loader needs of a target; table names come qualified with the database. */
export interface LoadTarget {
  execute(statement: string): Promise<void>;
  /** Appends a Parquet file's rows, read by ClickHouse's Parquet input format into the table's types. */
  insertFile(table: string, file: string): Promise<void>;
  count(table: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Opens a target. A server is checked as the clickhouse backend checks it (24.3 or later) before
 * anything is written; on a cluster, inserts into a Distributed table wait until every shard holds
 * its rows, so the counts that follow see them.
 */
export async function openTarget(target: TargetUrl, cluster?: string): Promise<LoadTarget> {
  if (target.kind === 'chdb') return chdbTarget(target.path);
  const { ClickHouseLogLevel, createClient } = await import('@clickhouse/client');
  const { checkServer } = await import('../engine/clickhouse-backend.ts');
  const url = new URL(target.url);
  // The database may not exist yet, and the client would send the URL's with every statement: every name is qualified instead.
  url.pathname = '/';
  const client = createClient({ url: url.toString(), log: { level: ClickHouseLogLevel.OFF } });
  try {
    await checkServer(client, target.url);
  } catch (error) {
    await client.close();
    throw error;
  }
  const settings = cluster ? { insert_distributed_sync: 1 as const } : {};
  return {
    execute: async (query) => void (await client.command({ query })),
    insertFile: async (table, file) =>
      void (await client.insert({
        table,
        values: createReadStream(file),
        format: 'Parquet',
        clickhouse_settings: settings,
      })),
    count: async (table) => {
      const rows = await (
        await client.query({ query: `SELECT count() AS n FROM ${table}`, format: 'JSONEachRow' })
      ).json<{ n: string | number }>();
      return Number(rows[0]?.n ?? 0);
    },
    close: () => client.close(),
  };
}

/**
 * chdb's data directory, on the process's one chdb session. `FROM INFILE … FORMAT Parquet` reads the
 * file through the same Parquet input format a server's `INSERT … FORMAT Parquet` does.
 */
function chdbTarget(path: string): LoadTarget {
  const chdb = acquireChdb(path);
  return {
    execute: async (statement) => void (await chdb.run(statement)),
    insertFile: async (table, file) =>
      void (await chdb.run(`INSERT INTO ${table} FROM INFILE ${clickhouseLiteral(file)} FORMAT Parquet`)),
    count: async (table) => Number((await chdb.run(`SELECT count() AS n FROM ${table}`)).columns.n![0]),
    close: async () => chdb.release(),
  };
}
