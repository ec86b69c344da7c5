import type { DuckDBPool } from './duckdb-pool.ts';
import { Rollups, type PromptVersions, type RollupDef, type RollupOutcome } from './rollups.ts';

/**
 * Rollups a backend keeps itself (ClickHouse's, fed by materialized views as facts arrive and keyed by
 * prompt so a prompt edit needs no rebuild): always current when the backend keeps them, never built
 * here. A rollup the backend does not keep is never current: the engine's DuckDB rollups hold nothing
 * the backend can read.
 */
export class BackendRollups extends Rollups {
  constructor(
    pool: DuckDBPool,
    enabled: boolean,
    versions: PromptVersions,
    private readonly kept: ReadonlySet<string>,
  ) {
    super(pool, enabled, versions);
  }

  override current(def: RollupDef): boolean {
    return this.isCurrent(def);
  }

  override isCurrent(def: RollupDef): boolean {
    return this.enabled && this.kept.has(def.name);
  }

  override async warm(): Promise<RollupOutcome[]> {
    return [];
  }
}
