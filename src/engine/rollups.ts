import type { DuckDBConnection } from '@duckdb/node-api';
import type { DuckDBPool } from './duckdb-pool.ts';

/**
 * A rollup: fact rows of one category pre-aggregated per day (and a few keys), counting only the facts
 * of the prompts a predicate selects. Facts never change; prompts do (they are edited through the state
 * store), so a category's rollup is current only while its selected prompts are exactly those it was
 * built from. Each table's SELECT reads facts `f` joined to the selected prompts `p` of `$category`.
 */
export interface RollupDef {
  /** Tables are named `rollup_<name>_<table>`. */
  readonly name: string;
  /** A predicate over `prompts` (besides the category) choosing whose facts the rollup folds in. */
  readonly prompts: string;
  readonly tables: Readonly<Record<string, string>>;
}

export const rollupTable = (def: RollupDef, table: string) => `rollup_${def.name}_${table}`;

const selectedPrompts = (def: RollupDef) => `SELECT id FROM prompts WHERE category_id = $category AND (${def.prompts})`;

/** The prompt version of a category (see StateStore.promptVersion). */
export type PromptVersions = (categoryId: string) => number;

/**
 * Builds rollups per category on first use, in the background on a connection of its own, and says
 * whether a category's rollup may answer a request: built, and built from the prompts selected now.
 * Until then requests read the facts; a stale rollup is rebuilt the same way.
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
   * True when the rollup of this category is current: built from the prompts of the category's current
   * prompt version, checked without a statement. When it is missing or stale, starts building it.
   */
  current(def: RollupDef, categoryId: string): boolean {
    if (!this.enabled || this.closed) return false;
    if (this.built.get(`${def.name}|${categoryId}`) === this.versions(categoryId)) return true;
    this.build(def, categoryId).catch(() => undefined);
    return false;
  }

  /** Builds (or rebuilds) the rollup of each category now, waiting for builds already under way. */
  async warm(def: RollupDef, categoryIds: readonly string[]): Promise<void> {
    for (const id of categoryIds) await this.build(def, id);
  }

  private build(def: RollupDef, categoryId: string): Promise<void> {
    const key = `${def.name}|${categoryId}`;
    const running = this.building.get(key);
    if (running) return running;
    const job = this.rebuild(def, categoryId).finally(() => this.building.delete(key));
    this.building.set(key, job);
    return job;
  }

  private async rebuild(def: RollupDef, categoryId: string): Promise<void> {
    if (this.closed) return;
    const conn = await this.pool.instance.connect();
    this.connections.add(conn);
    try {
      if (this.closed) return;
      const params = { category: categoryId };
      for (const [table, select] of Object.entries(def.tables)) {
        const name = rollupTable(def, table);
        if (this.created.has(name)) continue;
        await conn.run(`CREATE TABLE IF NOT EXISTS "${name}" AS SELECT * FROM (${rollupSelect(def, select)}) LIMIT 0`, params);
        this.created.add(name);
      }
      // TRICKY: the version is read before the build's snapshot, so an edit committed meanwhile leaves the
      // rollup marked older than what it holds, and it is rebuilt once more; never the other way round.
      const version = this.versions(categoryId);
      await conn.run('BEGIN TRANSACTION');
      try {
        for (const [table, select] of Object.entries(def.tables)) {
          if (this.closed) throw new Error('engine closed');
          const name = rollupTable(def, table);
          await conn.run(`DELETE FROM "${name}" WHERE category_id = $category`, params);
          await conn.run(`INSERT INTO "${name}" ${rollupSelect(def, select)}`, params);
        }
        await conn.run('COMMIT');
        this.built.set(`${def.name}|${categoryId}`, version);
      } catch (error) {
        if (!this.closed) await conn.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      this.connections.delete(conn);
      conn.closeSync();
    }
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

const rollupSelect = (def: RollupDef, select: string) => `WITH p AS (SELECT * FROM prompts WHERE id IN (${selectedPrompts(def)})) ${select}`;
