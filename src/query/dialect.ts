import { sql, type Fragment } from './sql.ts';

/**
 * The few SQL pieces that differ between backends. DuckDB's for now; a report that needs one asks here,
 * never spells it itself, so another dialect is one more implementation of this interface.
 */
export interface Dialect {
  /** The JSON text of a value (a list or a struct), for a column that crosses as JSON (see `Wire`). */
  jsonText(value: Fragment): Fragment;
}

export const duckdb: Dialect = {
  jsonText: (value) => sql`CAST(to_json(${value}) AS VARCHAR)`,
};
