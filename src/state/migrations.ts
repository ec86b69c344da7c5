import type { DuckDBConnection } from '@duckdb/node-api';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Runs inside the migration's transaction. Dataset tables are readable as `dataset_<table>`. */
  up(conn: DuckDBConnection): Promise<void>;
}

/** Ids of every dataset row the store copied: a store made from another dataset is refused at open. */
export const datasetIdentitySql = `SELECT md5(coalesce(string_agg(k, ',' ORDER BY k), '')) FROM (
  SELECT 'prompt:' || id AS k FROM dataset_prompts
  UNION ALL SELECT 'topic:' || id FROM dataset_topics
  UNION ALL SELECT 'tag:' || id FROM dataset_tags
  UNION ALL SELECT 'persona:' || id FROM dataset_personas
  UNION ALL SELECT 'content:' || id FROM dataset_content_items
  UNION ALL SELECT 'agent:' || id FROM dataset_agents
  UNION ALL SELECT 'version:' || agent_id || ':' || version FROM dataset_agent_versions)`;

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
    version: 2,
    name: 'editable personas, content items, agents and agent versions',
    up: run([
      `CREATE TABLE state.personas AS SELECT * FROM dataset_personas`,
      `CREATE TABLE state.content_items AS SELECT * FROM dataset_content_items`,
      `CREATE TABLE state.agents AS SELECT * FROM dataset_agents`,
      `CREATE TABLE state.agent_versions AS SELECT * FROM dataset_agent_versions`,
    ]),
  },
  {
    version: 3,
    name: 'agent runs',
    up: run([
      `CREATE TABLE state.agent_runs (
         id VARCHAR NOT NULL,
         organization_id VARCHAR NOT NULL,
         agent_id VARCHAR NOT NULL,
         version INTEGER NOT NULL,
         status VARCHAR NOT NULL,
         inputs VARCHAR NOT NULL,
         outputs VARCHAR NOT NULL,
         error VARCHAR,
         created_at TIMESTAMPTZ NOT NULL,
         started_at TIMESTAMPTZ,
         finished_at TIMESTAMPTZ
       )`,
    ]),
  },
  {
    version: 4,
    name: 'languages each organization has enabled for prompts',
    up: run([
      `CREATE TABLE state.organization_languages (organization_id VARCHAR NOT NULL, language VARCHAR NOT NULL)`,
      `INSERT INTO state.organization_languages
       SELECT DISTINCT o.id, l.language
       FROM organizations o,
            (SELECT unnest(['en-US', 'en-GB', 'es-ES', 'fr-FR', 'de-DE']) AS language) l
       UNION
       SELECT DISTINCT organization_id, language FROM dataset_prompts`,
    ]),
  },
  {
    version: 5,
    name: 'the identity of the dataset the store was made from',
    up: run([`INSERT INTO state.meta VALUES ('dataset_identity', (${datasetIdentitySql}))`]),
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
  {
    version: 17,
    name: 'knowledge bases, their folders and documents',
    up: run([
      `CREATE TABLE state.knowledge_bases AS SELECT * FROM dataset_knowledge_bases`,
      `CREATE TABLE state.kb_folders AS SELECT * FROM dataset_kb_folders`,
      `CREATE TABLE state.kb_documents AS SELECT * FROM dataset_kb_documents`,
    ]),
  },
  {
    version: 20,
    name: 'rate-limit windows, so a limited key stays limited across a restart',
    up: run([
      `CREATE TABLE state.rate_windows (key VARCHAR PRIMARY KEY, window_start_ms BIGINT NOT NULL, count INTEGER NOT NULL)`,
    ]),
  },
];
