import type { DuckDBConnection } from '@duckdb/node-api';
import type { DuckDBPool } from './duckdb-pool.ts';

/**
 * A rollup: fact rows pre-aggregated per day or hour (and a few keys), built for one scope at a time.
 * Facts never change; prompts do (they are edited through the state store). A `category` rollup counts
 * only the facts of the prompts a predicate selects, so it is current only while the category's prompts
 * are those it was built from; its tables' SELECTs read facts `f` joined to the selected prompts `p` of
 * `$scope`. An `organization` rollup folds an organization's facts alone (traffic), which never go stale.
 * Each table holds its scope's id column (`category_id` or `organization_id`).
 */
export interface RollupDef {
  /** Tables are named `rollup_<name>_<table>`. */
  readonly name: string;
  /** `prompts`: a predicate over `prompts` (besides the category) choosing whose facts are folded in. */
  readonly scope: { readonly kind: 'category'; readonly prompts: string } | { readonly kind: 'organization' };
  readonly tables: Readonly<Record<string, string>>;
}

export const rollupTable = (def: RollupDef, table: string) => `rollup_${def.name}_${table}`;

const scopeColumn = (def: RollupDef) => (def.scope.kind === 'category' ? 'category_id' : 'organization_id');

/** The prompt version of a category (see StateStore.promptVersion). */
export type PromptVersions = (scopeId: string) => number;

/** What a rollup of one scope was built from: the category's prompt version, or nothing that changes. */
const versionOf = (def: RollupDef, versions: PromptVersions, scopeId: string) => (def.scope.kind === 'category' ? versions(scopeId) : 0);

/**
 * Builds rollups per scope (a category, an organization) on first use, in the background on a
 * connection of its own, and says whether a scope's rollup may answer a request: built, and built from
 * what is current. Until then requests read the facts; a stale rollup is rebuilt the same way.
 */
export class Rollups {
  private readonly built = new Map<string, number>();
  private readonly building = new Map<string, Promise<void>>();
  private readonly connections = new Set<DuckDBConnection>();
  private readonly created = new Set<string>();
  private closed = false;

  constructor(
    private readonly pool: DuckDBPool,
    readonly enabled: boolean,
    private readonly versions: PromptVersions,
  ) {}

  /**
   * True when the rollup of this scope is current (for a category: built at its current prompt
   * version), checked without a statement. When it is missing or stale, starts building it.
   */
  current(def: RollupDef, scopeId: string): boolean {
    if (!this.enabled || this.closed) return false;
    if (this.isCurrent(def, scopeId)) return true;
    this.build(def, scopeId).catch(() => undefined);
    return false;
  }

  /** The same check as `current`, starting no build. */
  isCurrent(def: RollupDef, scopeId: string): boolean {
    return this.enabled && !this.closed && this.built.get(`${def.name}|${scopeId}`) === versionOf(def, this.versions, scopeId);
  }

  /** Builds (or rebuilds) the rollup of each scope now, waiting for builds already under way. */
  async warm(def: RollupDef, scopeIds: readonly string[]): Promise<void> {
    for (const id of scopeIds) await this.build(def, id);
  }

  private build(def: RollupDef, scopeId: string): Promise<void> {
    const key = `${def.name}|${scopeId}`;
    const running = this.building.get(key);
    if (running) return running;
    const job = this.rebuild(def, scopeId).finally(() => this.building.delete(key));
    this.building.set(key, job);
    return job;
  }

  private async rebuild(def: RollupDef, scopeId: string): Promise<void> {
    if (this.closed) return;
    const conn = await this.pool.instance.connect();
    this.connections.add(conn);
    try {
      if (this.closed) return;
      const params = { scope: scopeId };
      for (const [table, select] of Object.entries(def.tables)) {
        const name = rollupTable(def, table);
        if (this.created.has(name)) continue;
        await conn.run(`CREATE TABLE IF NOT EXISTS "${name}" AS SELECT * FROM (${rollupSelect(def, select)}) LIMIT 0`, params);
        this.created.add(name);
      }
      // TRICKY: the version is read before the build's snapshot, so an edit committed meanwhile leaves the
      // rollup marked older than what it holds, and it is rebuilt once more; never the other way round.
      const version = versionOf(def, this.versions, scopeId);
      await conn.run('BEGIN TRANSACTION');
      try {
        for (const [table, select] of Object.entries(def.tables)) {
          if (this.closed) throw new Error('engine closed');
          const name = rollupTable(def, table);
          await conn.run(`DELETE FROM "${name}" WHERE ${scopeColumn(def)} = $scope`, params);
          await conn.run(`INSERT INTO "${name}" ${rollupSelect(def, select)}`, params);
        }
        await conn.run('COMMIT');
        this.built.set(`${def.name}|${scopeId}`, version);
      } catch (error) {
        if (!this.closed) await conn.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      this.connections.delete(conn);
      conn.closeSync();
    }
  }

  /** Resolves when every build under way now has finished, built or failed. */
  settled(): Promise<void> {
    return Promise.allSettled([...this.building.values()]).then(() => undefined);
  }

  /**
   * Stops builds under way: their queries are interrupted and each closes its own connection as it
   * unwinds (closing a connection under a running query would block). Resolves once every build has
   * unwound, or returns undefined when none was under way: closing DuckDB before then left the
   * interrupted query pending forever, and the process could not exit.
   */
  close(): Promise<void> | undefined {
    this.closed = true;
    for (const conn of this.connections) conn.interrupt();
    if (this.building.size === 0) return undefined;
    return Promise.allSettled([...this.building.values()]).then(() => undefined);
  }
}

const rollupSelect = (def: RollupDef, select: string) =>
  def.scope.kind === 'category' ? `WITH p AS (SELECT * FROM prompts WHERE category_id = $scope AND (${def.scope.prompts})) ${select}` : select;
