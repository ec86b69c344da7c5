import type { DuckDBConnection } from '@duckdb/node-api';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Runs inside the migration's transaction. Dataset tables are readable as `dataset_<table>`. */
  up(conn: DuckDBConnection): Promise<void>;
}

const run = (statements: string[]) => async (conn: DuckDBConnection) => {
  for (const s of statements) await conn.run(s);
};

/**
 * The state store's schema, in order. A migration never changes once released: add a new one.
 * Editable copies of dataset tables start as copies of the dataset.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'editable prompts, topics and tags; service metadata',
    up: run([
      `CREATE TABLE state.meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,
      `INSERT INTO state.meta VALUES ('cursor_secret', replace(gen_random_uuid()::VARCHAR || gen_random_uuid()::VARCHAR, '-', ''))`,
      `CREATE TABLE state.prompts AS SELECT * FROM dataset_prompts`,
      `CREATE TABLE state.topics AS SELECT * FROM dataset_topics`,
      `CREATE TABLE state.tags AS SELECT * FROM dataset_tags`,
    ]),
  },
  {
    version: 10,
    name: 'API keys: hashes and metadata only',
    up: run([
      `CREATE TABLE state.api_keys (
         id VARCHAR PRIMARY KEY,
         organization_id VARCHAR NOT NULL,
         name VARCHAR NOT NULL,
         prefix VARCHAR NOT NULL,
         hash VARCHAR NOT NULL UNIQUE,
         created_at TIMESTAMPTZ NOT NULL,
         expires_on DATE NOT NULL,
         revoked_at TIMESTAMPTZ
       )`,
    ]),
  },
];
