import type { DuckDBConnection } from '@duckdb/node-api';
import type { DuckDBPool } from './duckdb-pool.ts';
import { engineVersion } from './engine-version.ts';
import { tableNames } from '../model/tables.ts';
import { pathListLiteral, pathLiteral } from './literal.ts';
import { inPlaceView, type RollupColumn, type ScopeLayers } from './rollup-views.ts';
import {
  addedFiles,
  RollupStore,
  sha256,
  storedRows,
  verdictOf,
  type RollupKey,
  type StoredRollup,
  type Verdict,
} from './rollup-store.ts';

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

/**
 * Rollups kept on disk (rollup-store.ts), keyed by the dataset's files: each dataset table's files with
 * their identities.
 */
export interface DurableRollups {
  readonly store: RollupStore;
  readonly files: ReadonlyMap<string, readonly { readonly path: string; readonly id: string }[]>;
}

/**
 * How a scope's rollup came to be current: read from disk, refreshed for added files, or built from the
 * facts; `kept`: current as stored and left on disk (`store`).
 */
export type RollupOutcome = 'loaded' | 'refreshed' | 'built' | 'kept' | 'none';

/**
 * Where a job leaves the rollup: `any` in memory, built when nothing stored is current; `stored` in
 * memory only from what is stored; `disk` current on disk, in memory only when a build or a compaction
 * needed it there.
 */
type Mode = 'any' | 'stored' | 'disk';

/** The days the added files hold, refolded into a temporary table per rollup table (null: they hold no rows). */
interface Refold {
  readonly added: Record<string, string[]>;
  readonly span: { readonly from: string; readonly to: string } | null;
}

/** A stored rollup as `aea rollups status` shows it. */
export interface StoredStatus {
  readonly folder: string;
  readonly rollup: string | null;
  readonly scope: string | null;
  readonly state: Verdict | 'damaged' | 'unknown';
  /** Rows of its files, base and segments (a segment's rows replace some of the base's). */
  readonly rows: number;
  readonly bytes: number;
  readonly builtAt: string | null;
}

/** What a rollup of one scope was built from: the category's prompt version, or nothing that changes. */
const versionOf = (def: RollupDef, versions: PromptVersions, scopeId: string) =>
  def.scope.kind === 'category' ? versions(scopeId) : 0;

/**
 * Builds rollups per scope (a category, an organization) on first use, in the background on a
 * connection of its own, and says whether a scope's rollup may answer a request: built, and built from
 * what is current. Until then requests read the facts; a stale rollup is rebuilt the same way.
 */
export class Rollups {
  private readonly built = new Map<string, number>();
  private readonly building = new Map<string, Promise<RollupOutcome>>();
  private restoring: Promise<void> | undefined;
  /** How many scopes' rollups were read from disk, refreshed, or built from the facts since open. */
  readonly counts = { loaded: 0, refreshed: 0, built: 0, kept: 0 };
  /** The last failure to write a rollup to disk (the store's bound, a full disk), for `aea rollups status`. */
  lastStoreError: string | undefined;
  private readonly connections = new Set<DuckDBConnection>();
  private readonly created = new Set<string>();
  /**
   * What every refresh of one open asks again: the span of a set of added files (one set per append, so
   * a handful; cleared past `spansKept`), each dataset table's columns and each rollup table's time key.
   */
  private readonly spans = new Map<string, Promise<{ lo: string | null; hi: string | null }>>();
  private readonly columns = new Map<string, Promise<string[]>>();
  private readonly timeKeys = new Map<string, Promise<string>>();
  private closed = false;
  private storage: Promise<void> | undefined;

  constructor(
    private readonly pool: DuckDBPool,
    readonly enabled: boolean,
    private readonly versions: PromptVersions,
    readonly durable?: DurableRollups,
    /** Read what is stored in place (`attachStored`) and build nothing: for a process that answers one request. */
    readonly storedOnly = false,
  ) {}

  /**
   * True when the rollup of this scope is current (for a category: built at its current prompt
   * version), checked without a statement. When it is missing or stale, starts building it.
   */
  current(def: RollupDef, scopeId: string): boolean {
    if (!this.enabled || this.closed) return false;
    if (this.isCurrent(def, scopeId)) return true;
    if (!this.storedOnly) this.build(def, scopeId, 'any').catch(() => undefined);
    return false;
  }

  /** The same check as `current`, starting no build. */
  isCurrent(def: RollupDef, scopeId: string): boolean {
    return (
      this.enabled &&
      !this.closed &&
      this.built.get(`${def.name}|${scopeId}`) === versionOf(def, this.versions, scopeId)
    );
  }

  /**
   * Makes the rollup of each scope current now, waiting for builds already under way: read from disk
   * when stored for what is current (refreshed when the dataset only gained files), else built from the
   * facts (and stored). Answers how, per scope.
   */
  async warm(def: RollupDef, scopeIds: readonly string[]): Promise<RollupOutcome[]> {
    const outcomes: RollupOutcome[] = [];
    for (const id of scopeIds) outcomes.push(await this.build(def, id, 'any'));
    return outcomes;
  }

  /**
   * Reads every stored rollup that matches the dataset and state (refreshing those the dataset only
   * gained files for) in the background, one at a time; never builds from the facts. `defs` are the
   * declarations a stored rollup may be of (by name). Resolves when done; `restored()` answers the same promise.
   */
  restore(defs: readonly RollupDef[]): Promise<void> {
    if (!this.enabled || !this.durable) return Promise.resolve();
    const byName = new Map(defs.map((d) => [d.name, d]));
    const durable = this.durable;
    this.restoring ??= (async () => {
      for (const { meta } of await durable.store.list()) {
        const def = meta && byName.get(meta.rollup);
        if (this.closed) return;
        if (!def || this.isCurrent(def, meta.scope)) continue;
        await this.build(def, meta.scope, 'stored').catch(() => undefined);
      }
    })().catch(() => undefined);
    return this.restoring;
  }

  /**
   * Makes the stored rollup of each scope current without reading it into memory where it can: current
   * as stored, it is left there (`kept`); when the dataset only gained files, the days they hold are
   * refolded from the facts and stored as a segment (`refreshed`; the rollup is read only when the
   * segments are at the store's limit and a new base is written); else it is built and stored.
   */
  async store(def: RollupDef, scopeIds: readonly string[]): Promise<RollupOutcome[]> {
    const outcomes: RollupOutcome[] = [];
    for (const id of scopeIds) outcomes.push(await this.build(def, id, 'disk'));
    return outcomes;
  }

  /**
   * Makes every stored rollup that is current for the dataset and state answer as it lies on disk: each
   * rollup table becomes a view over its scopes' files (rollup-views.ts), read by the request that needs
   * it, with nothing loaded into memory or built. Damaged or stale ones are left out and left alone, since
   * another process may be writing the store. `scopes`: only these categories' and organizations'
   * rollups (each stored file is checked against its hash, so a request of one organization checks its own).
   * Answers how many scopes are read in place.
   */
  async attachStored(defs: readonly RollupDef[], scopes?: ReadonlySet<string>): Promise<number> {
    if (!this.enabled || !this.durable) return 0;
    const durable = this.durable;
    const byName = new Map(defs.map((d) => [d.name, d]));
    const found: { def: RollupDef; stored: StoredRollup }[] = [];
    let attached = 0;
    await this.pool.use(async (conn) => {
      // One statement per prompt predicate rather than one per stored category.
      const hashes = new Map<string, Promise<Map<string, string>>>();
      const hashOf = async (def: RollupDef, scope: string) => {
        if (def.scope.kind !== 'category') return undefined;
        const predicate = def.scope.prompts;
        if (!hashes.has(predicate)) hashes.set(predicate, promptHashes(conn, predicate));
        return (await hashes.get(predicate)!).get(scope) ?? '0:0';
      };
      for (const { meta } of await durable.store.list()) {
        const def = meta ? byName.get(meta.rollup) : undefined;
        if (!meta || !def || (scopes && !scopes.has(meta.scope))) continue;
        const key = await this.keyOf(conn, def, meta.scope, durable, await hashOf(def, meta.scope));
        if (verdictOf(meta, key) !== 'current') continue;
        const stored = await durable.store.verified(meta, Object.keys(def.tables), false);
        if (stored && verdictOf(stored, key) === 'current') found.push({ def, stored });
      }
      const defsFound = [...new Set(found.map((f) => f.def))];
      const shapes = await shapesOf(
        conn,
        defsFound.map((def) => ({ def, scope: found.find((f) => f.def === def)!.stored.scope })),
      );
      for (const def of defsFound) {
        const mine = found.filter((f) => f.def === def);
        try {
          for (const table of Object.keys(def.tables)) {
            const columns = shapes.get(rollupTable(def, table)) ?? [];
            const time = columns.find((c) => c.name === 'day' || c.name === 'ts')?.name ?? null;
            const layered: ScopeLayers[] = mine.map(({ stored }) => ({
              layers: durable.store.layers(stored, table),
              time,
            }));
            await conn.run(inPlaceView(rollupTable(def, table), columns, layered));
          }
        } catch {
          // A file replaced or removed meanwhile: this rollup's requests read the facts.
          for (const table of Object.keys(def.tables))
            await conn.run(`DROP VIEW IF EXISTS "${rollupTable(def, table)}"`);
          continue;
        }
        for (const { stored } of mine)
          this.built.set(`${def.name}|${stored.scope}`, versionOf(def, this.versions, stored.scope));
        attached += mine.length;
      }
    });
    return attached;
  }

  /** Resolves once `restore` is done (at once when it never started). */
  restored(): Promise<void> {
    return this.restoring ?? Promise.resolve();
  }

  private build(def: RollupDef, scopeId: string, mode: Mode): Promise<RollupOutcome> {
    // A job for the disk alone may leave memory as it was: it is never taken for one that fills it.
    const key = `${def.name}|${scopeId}${mode === 'disk' ? '|disk' : ''}`;
    const running = this.building.get(key);
    // A read of the stored rollup under way may find none current: a build then follows it.
    if (running)
      return mode === 'stored' ? running : running.then((o) => (o === 'none' ? this.build(def, scopeId, mode) : o));
    const job = this.rebuild(def, scopeId, mode).finally(() => this.building.delete(key));
    this.building.set(key, job);
    return job;
  }

  /**
   * Each stored rollup and how it compares with what would be built now (`current`, `appended`, or why
   * it is stale); `damaged` when its record cannot be read, `unknown` when no declaration has its name.
   */
  async storedStatus(defs: readonly RollupDef[]): Promise<StoredStatus[]> {
    if (!this.durable) return [];
    const durable = this.durable;
    const byName = new Map(defs.map((d) => [d.name, d]));
    const out: StoredStatus[] = [];
    for (const { folder, meta } of await durable.store.list()) {
      const def = meta ? byName.get(meta.rollup) : undefined;
      if (!meta || !def) {
        out.push({
          folder,
          rollup: meta?.rollup ?? null,
          scope: meta?.scope ?? null,
          state: meta ? 'unknown' : 'damaged',
          rows: 0,
          bytes: 0,
          builtAt: meta?.builtAt ?? null,
        });
        continue;
      }
      const key = await this.pool.use((conn) => this.keyOf(conn, def, meta.scope, durable));
      out.push({
        folder,
        rollup: meta.rollup,
        scope: meta.scope,
        state: verdictOf(meta, key),
        rows: storedRows(meta),
        bytes: RollupStore.bytesOf(meta),
        builtAt: meta.builtAt,
      });
    }
    return out;
  }

  // A stored rollup whose files pass their hashes yet fail to read is removed and the build starts over.
  private async rebuild(def: RollupDef, scopeId: string, mode: Mode): Promise<RollupOutcome> {
    try {
      return await this.rebuildOnce(def, scopeId, mode);
    } catch (error) {
      if (!(error instanceof DamagedRollupError) || this.closed) throw error;
      return this.rebuildOnce(def, scopeId, mode);
    }
  }

  private async rebuildOnce(def: RollupDef, scopeId: string, mode: Mode): Promise<RollupOutcome> {
    if (this.closed) return 'none';
    const conn = await this.pool.instance.connect();
    this.connections.add(conn);
    try {
      if (this.closed) return 'none';
      const params = { scope: scopeId };
      for (const [table, select] of Object.entries(def.tables)) {
        const name = rollupTable(def, table);
        if (this.created.has(name)) continue;
        await this.attachStorage(conn);
        await conn.run(
          `CREATE TABLE IF NOT EXISTS ${storedTable(name)} AS SELECT * FROM (${rollupSelect(def, select)}) LIMIT 0`,
          params,
        );
        await conn.run(`CREATE VIEW IF NOT EXISTS "${name}" AS SELECT * FROM ${storedTable(name)}`);
        this.created.add(name);
      }
      // TRICKY: the version is read before the build's snapshot, so an edit committed meanwhile leaves the
      // rollup marked older than what it holds, and it is rebuilt once more; never the other way round.
      const version = versionOf(def, this.versions, scopeId);
      const store = this.durable?.store;
      const read = store ? await store.read(def.name, scopeId) : null;
      let stored: StoredRollup | null = null;
      let outcome: RollupOutcome = 'none';
      let key: RollupKey | undefined;
      let refold: Refold | undefined;
      let inMemory = false;
      let compact = false;
      await conn.run('BEGIN TRANSACTION');
      try {
        // Read in the transaction: the prompts hashed are those of the snapshot the rollup is built from.
        key = this.durable ? await this.keyOf(conn, def, scopeId, this.durable) : undefined;
        const matches = read && key && ['current', 'appended'].includes(verdictOf(read, key));
        // Only a stored rollup that matches is checked file by file; a damaged segment leaves it appended.
        stored = matches ? await store!.verified(read, Object.keys(def.tables)) : null;
        const verdict = stored && key ? verdictOf(stored, key) : undefined;
        // The segments are at the store's limit: the refresh writes a new base from the rollup in memory.
        compact = !!stored && stored.segments.length >= store!.segmentLimit;
        if (verdict === 'current') {
          inMemory = mode !== 'disk';
          if (inMemory) await this.load(conn, def, stored!);
          outcome = inMemory ? 'loaded' : 'kept';
        } else if (verdict === 'appended') {
          refold = await this.refold(conn, def, scopeId, addedFiles(stored!, key!));
          inMemory = mode !== 'disk' || compact;
          if (inMemory) {
            await this.load(conn, def, stored!);
            await this.apply(conn, def, scopeId, refold);
          }
          outcome = 'refreshed';
        } else if (mode !== 'stored') {
          for (const [table, select] of Object.entries(def.tables)) {
            if (this.closed) throw new Error('engine closed');
            const name = rollupTable(def, table);
            await conn.run(`DELETE FROM ${storedTable(name)} WHERE ${scopeColumn(def)} = $scope`, params);
            await conn.run(`INSERT INTO ${storedTable(name)} ${rollupSelect(def, select)}`, params);
          }
          inMemory = true;
          outcome = 'built';
        }
        await conn.run('COMMIT');
        if (inMemory) this.built.set(`${def.name}|${scopeId}`, version);
        if (outcome !== 'none') this.counts[outcome]++;
      } catch (error) {
        if (!this.closed) await conn.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
      if (key && !this.closed) {
        // A new base after a build or a compaction (the rollup is in memory); else only the refolded days.
        if (outcome === 'built' || (outcome === 'refreshed' && compact)) await this.persist(conn, def, key);
        else if (outcome === 'refreshed') await this.persistSegment(conn, def, stored!, key, refold!);
      }
      return outcome;
    } finally {
      this.connections.delete(conn);
      conn.closeSync();
    }
  }

  /** `known`: the category's prompt hash when the caller read it already (`promptHashes`). */
  private async keyOf(
    conn: DuckDBConnection,
    def: RollupDef,
    scopeId: string,
    durable: DurableRollups,
    known?: string,
  ): Promise<RollupKey> {
    const prompts =
      def.scope.kind === 'category'
        ? (known ??
          String(
            (
              await conn.runAndReadAll(
                `WITH p AS (SELECT * FROM prompts WHERE category_id = $scope AND (${def.scope.prompts})) SELECT ${promptHash} FROM p`,
                { scope: scopeId },
              )
            ).getRowsJS()[0]![0],
          ))
        : null;
    const files: Record<string, string[]> = {};
    for (const table of tablesRead(def)) files[table] = (durable.files.get(table) ?? []).map((f) => f.id);
    return { engine: engineVersion, definition: definitionHash(def), scope: scopeId, prompts, files };
  }

  /**
   * Reads a stored rollup (its base and segments, checked by `verified`) into its tables, in the caller's
   * transaction: the base, then each segment in turn in place of the rows in its span, each file's rows
   * counted against the record. A file that fails to read, or holds other rows, removes it: the build
   * starts over.
   */
  private async load(conn: DuckDBConnection, def: RollupDef, stored: StoredRollup): Promise<void> {
    const store = this.durable!.store;
    const scope = { scope: stored.scope };
    try {
      for (const table of Object.keys(def.tables)) {
        const name = rollupTable(def, table);
        await conn.run(`DELETE FROM ${storedTable(name)} WHERE ${scopeColumn(def)} = $scope`, scope);
        for (const layer of store.layers(stored, table)) {
          if (layer.span)
            await conn.run(
              `DELETE FROM ${storedTable(name)} WHERE ${scopeColumn(def)} = $scope AND ${spanOf(await this.timeKey(conn, name))}`,
              { ...scope, ...layer.span },
            );
          // The stored columns are the table's, in its order, or the read fails and the rollup is rebuilt.
          const inserted = await conn.run(
            `INSERT INTO ${storedTable(name)} BY NAME SELECT * FROM read_parquet(${pathLiteral(layer.file)})`,
          );
          if (Number(inserted.rowsChanged) !== layer.rows)
            throw new Error(`${layer.file} holds other rows than recorded`);
        }
      }
    } catch (error) {
      await store.remove(stored.rollup, stored.scope);
      throw new DamagedRollupError(
        `the stored rollup ${stored.rollup} of ${stored.scope} could not be read (${String(error)}): it was removed`,
      );
    }
  }

  /**
   * Refolds the days the added files hold into a temporary table per rollup table (`refold_<table>`, on
   * this connection): every rollup row whose time key lies in their span (a day more each side, for
   * rollups keyed by a zone's day), folded again from every file.
   */
  private async refold(
    conn: DuckDBConnection,
    def: RollupDef,
    scopeId: string,
    added: Record<string, string[]>,
  ): Promise<Refold> {
    const id = JSON.stringify(Object.entries(added).sort());
    if (this.spans.size >= spansKept) this.spans.clear();
    const { lo, hi } = await remembered(this.spans, id, () => this.spanOfFiles(conn, added));
    if (lo === null || hi === null) return { added, span: null };
    // TRICKY: the span is widened to whole days and a day more each side: a rollup keyed by a zone's day
    // (traffic_daily's ET day, a DATE compared as its midnight) holds a UTC instant's rows under the day
    // before or after. Refolding more rows than the added files touch is exact: each is folded again.
    const [from, to] = (
      await conn.runAndReadAll(
        `SELECT strftime(date_trunc('day', CAST($lo AS TIMESTAMP)) - INTERVAL 1 DAY, '%Y-%m-%d %H:%M:%S.%f'), strftime(CAST($hi AS TIMESTAMP) + INTERVAL 1 DAY, '%Y-%m-%d %H:%M:%S.%f')`,
        { lo, hi },
      )
    ).getRowsJS()[0]! as [string, string];
    // TRICKY: each fact table the SQL reads is shadowed by a CTE of its rows within two days of the span,
    // so the refold reads the row groups of those days only (a filter on traffic_daily's ET day, an
    // expression of ts, prunes nothing by itself). A rollup row's time key is its facts' time truncated
    // to an hour, a day or a zone's day, less than a day from it, so no row of the span loses a fact.
    const nearby: string[] = [];
    for (const table of tablesRead(def)) {
      const cols = await this.columnsOf(conn, table);
      const near = cols.includes('day')
        ? `day BETWEEN CAST($lo AS DATE) - 2 AND CAST($hi AS DATE) + 2`
        : cols.includes('ts')
          ? `ts BETWEEN CAST($lo AS TIMESTAMP) - INTERVAL 2 DAY AND CAST($hi AS TIMESTAMP) + INTERVAL 2 DAY`
          : null;
      if (near) nearby.push(`"${table}" AS (SELECT * FROM main."${table}" WHERE ${near})`);
    }
    for (const [table, select] of Object.entries(def.tables)) {
      const time = await this.timeKey(conn, rollupTable(def, table));
      await conn.run(`DROP TABLE IF EXISTS temp."refold_${table}"`);
      await conn.run(
        `CREATE TEMP TABLE "refold_${table}" AS SELECT * FROM (${rollupSelect(def, select, nearby)}) WHERE ${spanOf(time)}`,
        { scope: scopeId, lo, hi, from, to },
      );
    }
    return { added, span: { from, to } };
  }

  /** The earliest and latest time the added files hold (null when they hold no rows). */
  private async spanOfFiles(
    conn: DuckDBConnection,
    added: Record<string, string[]>,
  ): Promise<{ lo: string | null; hi: string | null }> {
    const paths = Object.entries(added).flatMap(([table, ids]) => {
      const byId = new Map((this.durable!.files.get(table) ?? []).map((f) => [f.id, f.path]));
      return ids.map((id) => ({ table, path: byId.get(id)! }));
    });
    let lo: string | null = null;
    let hi: string | null = null;
    for (const table of new Set(paths.map((p) => p.table))) {
      const files = paths.filter((p) => p.table === table).map((p) => p.path);
      const cols = (
        await conn.runAndReadAll(
          `SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet(${pathListLiteral(files)}))`,
        )
      )
        .getRowsJS()
        .map((r) => String(r[0]));
      const column = cols.includes('day') ? 'day' : cols.includes('ts') ? 'ts' : null;
      if (!column) throw new Error(`${table} has no time column: its added files cannot be refreshed by day`);
      const [min = null, max = null] = (
        await conn.runAndReadAll(
          `SELECT strftime(min(${column})::TIMESTAMP, '%Y-%m-%d %H:%M:%S.%f'), strftime(max(${column})::TIMESTAMP, '%Y-%m-%d %H:%M:%S.%f') FROM read_parquet(${pathListLiteral(files)})`,
        )
      ).getRowsJS()[0]! as (string | null)[];
      if (min !== null && (lo === null || min < lo)) lo = min;
      if (max !== null && (hi === null || max > hi)) hi = max;
    }
    return { lo, hi };
  }

  /** A dataset table's columns, asked once per open (the dataset's files do not change while it is open). */
  private columnsOf(conn: DuckDBConnection, table: string): Promise<string[]> {
    return remembered(this.columns, table, async () =>
      (await conn.runAndReadAll(`SELECT column_name FROM (DESCRIBE SELECT * FROM main."${table}")`))
        .getRowsJS()
        .map((row) => String(row[0])),
    );
  }

  /** The database the rollups' rows live in, attached once per instance (see `rollupStorage`). */
  private attachStorage(conn: DuckDBConnection): Promise<void> {
    this.storage ??= conn.run(`ATTACH IF NOT EXISTS ':memory:' AS ${rollupStorage} (COMPRESS)`).then(
      () => undefined,
      (error: unknown) => {
        this.storage = undefined;
        throw error;
      },
    );
    return this.storage;
  }

  /** The time key a rollup table is refreshed by (`day` or `ts`), asked once per open. */
  private timeKey(conn: DuckDBConnection, name: string): Promise<string> {
    return remembered(this.timeKeys, name, () => timeKey(conn, name));
  }

  /** Replaces the scope's rows in the refolded span with the refolded ones, in the caller's transaction. */
  private async apply(conn: DuckDBConnection, def: RollupDef, scopeId: string, refold: Refold): Promise<void> {
    if (!refold.span) return;
    for (const table of Object.keys(def.tables)) {
      const name = rollupTable(def, table);
      await conn.run(
        `DELETE FROM ${storedTable(name)} WHERE ${scopeColumn(def)} = $scope AND ${spanOf(await this.timeKey(conn, name))}`,
        { scope: scopeId, ...refold.span },
      );
      await conn.run(`INSERT INTO ${storedTable(name)} BY NAME SELECT * FROM temp."refold_${table}"`);
    }
  }

  /**
   * Stores the refolded days as a segment of the stored rollup (each table's rows once applied counted
   * from the stored files and the refold); a failure leaves the store as it was.
   */
  private async persistSegment(
    conn: DuckDBConnection,
    def: RollupDef,
    stored: StoredRollup,
    key: RollupKey,
    refold: Refold,
  ): Promise<void> {
    const store = this.durable!.store;
    const pending = await store.begin(stored);
    try {
      const span = refold.span;
      if (!span) {
        await pending.commitSegment(stored, key, null);
      } else {
        const rows: Record<string, number> = {};
        for (const table of Object.keys(def.tables)) {
          const copied = await conn.run(
            `COPY temp."refold_${table}" TO ${pathLiteral(pending.fileOf(table))} (FORMAT parquet, COMPRESSION zstd)`,
          );
          rows[table] = Number(copied.rowsChanged);
        }
        await pending.commitSegment(stored, key, { ...span, added: refold.added, rows });
      }
      this.lastStoreError = undefined;
    } catch (error) {
      await pending.discard();
      this.lastStoreError = error instanceof Error ? error.message : String(error);
    } finally {
      for (const table of Object.keys(def.tables))
        await conn.run(`DROP TABLE IF EXISTS temp."refold_${table}"`).catch(() => undefined);
    }
  }

  /** Writes the scope's rows of each table to the store, after the build committed; a failure leaves the rollup in memory only. */
  private async persist(conn: DuckDBConnection, def: RollupDef, key: RollupKey): Promise<void> {
    const store = this.durable!.store;
    const pending = await store.begin();
    try {
      const rows: Record<string, number> = {};
      for (const table of Object.keys(def.tables)) {
        const name = rollupTable(def, table);
        // DuckDB binds no parameter in COPY: the scope id comes from the dataset, quoted as a literal.
        const copied = await conn.run(
          `COPY (SELECT * FROM "${name}" WHERE ${scopeColumn(def)} = ${pathLiteral(key.scope)}) TO ${pathLiteral(pending.fileOf(table))} (FORMAT parquet, COMPRESSION zstd)`,
        );
        rows[table] = Number(copied.rowsChanged);
      }
      await pending.commit(key, def.name, rows);
      this.lastStoreError = undefined;
    } catch (error) {
      await pending.discard();
      this.lastStoreError = error instanceof Error ? error.message : String(error);
    }
  }

  /** Resolves when every build under way now has finished, built or failed. */
  settled(): Promise<void> {
    return Promise.allSettled([...this.building.values(), ...(this.restoring ? [this.restoring] : [])]).then(
      () => undefined,
    );
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

/** A table's SELECT for one scope; `ctes` first (named after the tables they stand in for). */
function rollupSelect(def: RollupDef, select: string, ctes: readonly string[] = []): string {
  const all = [
    ...ctes,
    ...(def.scope.kind === 'category'
      ? [`p AS (SELECT * FROM prompts WHERE category_id = $scope AND (${def.scope.prompts}))`]
      : []),
  ];
  return all.length === 0 ? select : `WITH ${all.join(', ')} ${select}`;
}

/** The answer `map` holds for `key`, else `ask`'s, kept once it succeeds (a failure is asked again next time). */
function remembered<T>(map: Map<string, Promise<T>>, key: string, ask: () => Promise<T>): Promise<T> {
  let answer = map.get(key);
  if (!answer) {
    answer = ask();
    map.set(key, answer);
    answer.catch(() => map.delete(key));
  }
  return answer;
}

/** The prompts a category rollup folds, as its key records them: their count and the sum of their rows' hashes. */
const promptHash = `count(*)::VARCHAR || ':' || coalesce(sum(hash(p)::HUGEINT), 0)::VARCHAR`;

/** Sets of added files whose span one open remembers (a set per append refreshed). */
const spansKept = 16;

/** A rollup row's time key in the span `$from`..`$to` (timestamps; a DATE key compared as its midnight). */
/**
 * Rollup rows live in an in-memory database of their own that DuckDB compresses (dictionary and FSST for
 * text, bit-packing for counts), reached through a view of the table's name in the main database, which
 * reports read. At scale 1 the video platforms' rollup took 221 MiB in the main database and 40 MiB here.
 * A transaction writes to one database only: a build writes rollup rows (and temporary tables), nothing else.
 */
const rollupStorage = 'aea_rollups';
const storedTable = (name: string) => `${rollupStorage}.main."${name}"`;

const spanOf = (time: string) => `"${time}" BETWEEN CAST($from AS TIMESTAMP) AND CAST($to AS TIMESTAMP)`;

/** The time key a rollup table is refreshed by: `day` or `ts`. */
async function timeKey(conn: DuckDBConnection, name: string): Promise<string> {
  const time = (
    await conn.runAndReadAll(
      `SELECT column_name FROM duckdb_columns() WHERE table_name = $name AND column_name IN ('day', 'ts')`,
      { name },
    )
  ).getRowsJS()[0]?.[0];
  if (time === undefined) throw new Error(`${name} has no time key to refresh by`);
  return String(time);
}

/** Each rollup table's columns and types as a build makes them, from the types of its SELECT over no rows. */
async function shapesOf(
  conn: DuckDBConnection,
  wanted: readonly { readonly def: RollupDef; readonly scope: string }[],
): Promise<Map<string, RollupColumn[]>> {
  const shapes = new Map<string, RollupColumn[]>();
  for (const { def, scope } of wanted)
    for (const [table, select] of Object.entries(def.tables)) {
      const empty = await conn.runAndReadAll(`SELECT * FROM (${rollupSelect(def, select)}) LIMIT 0`, { scope });
      const types = empty.columnTypes();
      shapes.set(
        rollupTable(def, table),
        empty.columnNames().map((name, i) => ({ name, type: types[i]!.toString() })),
      );
    }
  return shapes;
}

/** Every category's prompt hash under one prompt predicate (categories without such prompts are absent). */
async function promptHashes(conn: DuckDBConnection, predicate: string): Promise<Map<string, string>> {
  const rows = await conn.runAndReadAll(
    `WITH p AS (SELECT * FROM prompts WHERE (${predicate})) SELECT category_id, ${promptHash} FROM p GROUP BY category_id`,
  );
  return new Map(rows.getRowsJS().map(([category, hash]) => [String(category), String(hash)]));
}

/** A hash of everything in a declaration that decides its rows. */
export const definitionHash = (def: RollupDef) =>
  sha256(JSON.stringify({ name: def.name, scope: def.scope, tables: def.tables }));

class DamagedRollupError extends Error {}

/** The dataset tables a declaration's SQL reads (FROM or JOIN), whose files key its stored rollup. */
export function tablesRead(def: RollupDef): string[] {
  const text = Object.values(def.tables).join('\n');
  return tableNames.filter((t) => new RegExp(`\\b(?:FROM|JOIN)\\s+"?${t}"?\\b`, 'i').test(text));
}
