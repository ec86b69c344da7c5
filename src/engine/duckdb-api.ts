import { createRequire } from 'node:module';
import type * as Api from '@duckdb/node-api';

// Required, not imported: Node's ESM loader lexes each of the package's some 180 CommonJS files for its
// export names before running them, which costs every `aea` command more than a short query does.
const api = createRequire(import.meta.url)('@duckdb/node-api') as typeof Api;

/** The values of @duckdb/node-api the engine uses; its types come from the package itself (`import type`). */
export const {
  DuckDBInstance,
  JSDuckDBValueConverter,
  DuckDBDataChunk,
  DuckDBDateValue,
  DuckDBTimestampTZValue,
  BIGINT,
  BOOLEAN,
  DATE,
  DOUBLE,
  INTEGER,
  LIST,
  TIMESTAMPTZ,
  VARCHAR,
  STRUCT,
  listValue,
  structValue,
} = api;
export type DuckDBInstance = Api.DuckDBInstance;
export type DuckDBDataChunk = Api.DuckDBDataChunk;
