import type { DuckDBConnection } from '@duckdb/node-api';
import { UnavailableError } from '../errors.ts';
import type { DuckDBPool } from '../engine/duckdb-pool.ts';
import { pathLiteral } from '../engine/literal.ts';
import { migrations } from './migrations.ts';

/** Tables the state store owns; reports read them through views of the same name. */
export const stateTables = ['prompts', 'topics', 'tags'] as const;

/**
 * The durable store: a DuckDB database file attached to the engine's instance as `state`, so reports
 * join the current prompts in the same query. DuckDB's write-ahead log makes each transaction atomic:
 * after a crash an edit is either whole or absent.
 */
export class StateStore {
  private constructor(
    private readonly pool: DuckDBPool,
    readonly file: string,
  ) {}

  static async attach(pool: DuckDBPool, file: string): Promise<StateStore> {
    await pool.use(async (conn) => {
      try {
        await conn.run(file === ':memory:' ? `ATTACH ':memory:' AS state` : `ATTACH ${pathLiteral(file)} AS state`);
      } catch (error) {
        throw new UnavailableError(`cannot open the state store ${file}: ${(error as Error).message.split('\n')[0]}`);
      }
      await migrate(conn);
      for (const t of stateTables) await conn.run(`CREATE OR REPLACE VIEW "${t}" AS SELECT * FROM state."${t}"`);
    });
    return new StateStore(pool, file);
  }

  async meta(key: string): Promise<string | undefined> {
    return this.pool.use(async (conn) => {
      const rows = (await conn.runAndReadAll(`SELECT value FROM state.meta WHERE key = $key`, { key })).getRowsJS();
      return rows[0] ? String(rows[0][0]) : undefined;
    });
  }

  /** Runs a read on a pooled connection. */
  read<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.pool.use(fn);
  }

  /** Runs `fn` in one transaction: all of its writes land, or none do. */
  async transaction<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.pool.use(async (conn) => {
      await conn.run('BEGIN TRANSACTION');
      try {
        const result = await fn(conn);
        await conn.run('COMMIT');
        return result;
      } catch (error) {
        await conn.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }
}

async function migrate(conn: DuckDBConnection): Promise<void> {
  await conn.run(`CREATE TABLE IF NOT EXISTS state.schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL)`);
  const applied = new Set((await conn.runAndReadAll(`SELECT version FROM state.schema_migrations`)).getRowsJS().map((r) => Number(r[0])));
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    await conn.run('BEGIN TRANSACTION');
    try {
      await m.up(conn);
      await conn.run(`INSERT INTO state.schema_migrations VALUES ($v, $n, now())`, { v: m.version, n: m.name });
      await conn.run('COMMIT');
    } catch (error) {
      await conn.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}
