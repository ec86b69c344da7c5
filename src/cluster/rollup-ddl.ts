import { rollupTable, type RollupDef } from '../engine/rollups.ts';
import type { Catalog } from './catalog.ts';

/**
 * A column of a ClickHouse rollup's store: `from` is its expression over the facts `f` (a key, or the
 * insert's aggregate), `read` the expression the rollup's view gives it (over the store `s` and the
 * prompts `p`), `type` its type there (a key's is the facts' column's when left out).
 */
export interface Key {
  readonly name: string;
  readonly from?: string;
  readonly type?: string;
}

export interface Measure {
  readonly name: string;
  /** The store's column type: `SimpleAggregateFunction(sum, Int64)`, `AggregateFunction(uniqExact, String)`, … */
  readonly stored: string;
  readonly from: string;
  /** The view's expression, re-aggregating the store's rows (merges are eventual, so a key may have several). */
  readonly read: string;
  /** Its value read with FINAL (one row per key), for a rollup without prompts; undefined when it is a state to merge. */
  readonly final?: string;
}

/**
 * One table of a DuckDB rollup (`rollup_<name>_<table>`) as ClickHouse keeps it: a store
 * (AggregatingMergeTree) filled by a materialized view on the facts as rows are inserted, and a view
 * under the DuckDB table's name with the same columns, in the same order and of the same types, which
 * report SQL reads unchanged. A category rollup's store is keyed by `prompt_id` instead of the prompt's
 * attributes, and the view joins the current prompts: the prompt predicate, the prompt's topic and the
 * visibility flag are read at query time, so a prompt edit on the server is in the next answer and the
 * store never goes stale. An organization rollup (traffic) involves no prompt.
 */
export interface ClickHouseRollup {
  readonly def: RollupDef;
  readonly table: string;
  readonly facts: string;
  readonly keys: readonly Key[];
  readonly measures: readonly Measure[];
  /** The view's columns, in the DuckDB table's order: each a key's name, a measure's name, or `[name, expression]`. */
  readonly columns: readonly (string | readonly [string, string])[];
  /** A category rollup's prompt predicate over `p` (besides its category), as ClickHouse spells it. */
  readonly prompts?: string;
}

export const count = (name: string, condition?: string): Measure => ({
  name,
  stored: 'SimpleAggregateFunction(sum, Int64)',
  from: condition ? `toInt64(countIf(${condition}))` : 'toInt64(count())',
  read: `CAST(sum(s.${name}) AS Int64)`,
  final: `CAST(s.${name} AS Int64)`,
});

export const instantOf = (name: string, fn: 'min' | 'max', column: string): Measure => ({
  name,
  stored: `SimpleAggregateFunction(${fn}, DateTime64(6, 'UTC'))`,
  from: `${fn}(f.${column})`,
  read: `CAST(${fn}(s.${name}) AS DateTime64(6, 'UTC'))`,
  final: `CAST(s.${name} AS DateTime64(6, 'UTC'))`,
});

/** The objects that keep one rollup table on ClickHouse: the view reports read, its store and the feed filling it. */
const objectsOf = (def: RollupDef, table: string) => {
  const view = rollupTable(def, table);
  return { view, store: `${view}_store`, feed: `${view}_feed` };
};

/** The feed's SELECT: the rollup of the facts it reads, keyed by prompt. */
function feedSelect(r: ClickHouseRollup, db: string, facts: string): string {
  const select = [
    ...r.keys.map((k) => `${k.from ?? `f.${k.name}`} AS "${k.name}"`),
    ...r.measures.map((m) => `${m.from} AS "${m.name}"`),
  ].join(', ');
  return `SELECT ${select} FROM ${db}.${facts} AS f GROUP BY ${r.keys.map((k) => `"${k.name}"`).join(', ')} SETTINGS aggregate_functions_null_for_empty = 0`;
}

/**
 * For `schema` run on a database whose facts were loaded before its rollups existed: fills each empty
 * store from the facts already there (its feed sees only later inserts), once per store, so the backend
 * never reads an empty rollup beside full facts. One server only: a cluster's stores fill from inserts.
 */
export async function fillEmptyRollups(
  rollups: readonly ClickHouseRollup[],
  db: string,
  target: { execute(statement: string): Promise<void>; count(table: string): Promise<number> },
): Promise<string[]> {
  const filled: string[] = [];
  for (const r of rollups) {
    const { store } = rollupObjects(r);
    if ((await target.count(`${db}.${store}`)) > 0 || (await target.count(`${db}.${r.facts}`)) === 0) continue;
    await target.execute(`INSERT INTO ${db}.${store} ${feedSelect(r, db, r.facts)}`);
    filled.push(store);
  }
  return filled;
}

/** Every object the rollups create in a database, for `schema` and for checks. */
export const rollupObjects = (r: ClickHouseRollup) => objectsOf(r.def, r.table);

/**
 * The DDL of the rollups whose facts the catalog holds: per rollup table, the store, the materialized
 * view feeding it from the facts, and the view the reports read. Run before the facts are loaded, the
 * feed fills the store during the load as it does for every later insert. With a cluster, each shard
 * keeps the rollup of its own facts (the feed watches `<facts>_local`) and the view reads them through a
 * Distributed table; a tenant's facts are all on one shard, so its rollup rows are too.
 */
export function rollupStatements(
  catalog: Catalog,
  db: string,
  rollups: readonly ClickHouseRollup[],
  cluster?: string,
): string[] {
  const tables = new Map(catalog.tables.map((t) => [t.name, new Map(t.columns.map((c) => [c.name, c.type]))]));
  const on = cluster ? ` ON CLUSTER ${cluster}` : '';
  const out: string[] = [];
  for (const r of rollups) {
    const facts = tables.get(r.facts);
    if (!facts || (r.prompts !== undefined && !tables.has('prompts'))) continue;
    const { view, store, feed } = rollupObjects(r);
    const local = cluster ? `${store}_local` : store;
    const keyType = (k: Key) => k.type ?? facts.get(k.name)!;
    const columns = [
      ...r.keys.map((k) => `"${k.name}" ${keyType(k)}`),
      ...r.measures.map((m) => `"${m.name}" ${m.stored}`),
    ].join(', ');
    // Nullable keys (a bot's provider, a citation's category) must stay keys: AggregatingMergeTree merges the rows of one sorting key.
    out.push(
      `CREATE TABLE IF NOT EXISTS ${db}.${local}${on} (${columns}) ENGINE = AggregatingMergeTree ORDER BY (${r.keys.map((k) => `"${k.name}"`).join(', ')}) SETTINGS allow_nullable_key = 1`,
    );
    if (cluster)
      out.push(
        `CREATE TABLE IF NOT EXISTS ${db}.${store}${on} AS ${db}.${local} ENGINE = Distributed(${cluster}, ${db}, ${local})`,
      );
    out.push(
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.${feed}${on} TO ${db}.${local} AS ${feedSelect(r, db, cluster ? `${r.facts}_local` : r.facts)}`,
    );
    if (r.prompts === undefined && r.measures.every((m) => m.final !== undefined)) {
      // TRICKY: FINAL merges the store's rows of one sorting key (all the rollup's keys) at read, as a merge would: one row per key
      // without a GROUP BY, which cost ten times as much (traffic_daily at scale 1: 78 ms grouped, 8 ms with FINAL).
      const finals = new Map(r.measures.map((m) => [m.name, m.final!]));
      const cols = r.columns.map((c) =>
        typeof c === 'string'
          ? finals.has(c)
            ? `${finals.get(c)} AS "${c}"`
            : `s."${c}" AS "${c}"`
          : `${c[1]} AS "${c[0]}"`,
      );
      out.push(
        `CREATE VIEW IF NOT EXISTS ${db}.${view}${on} AS SELECT ${cols.join(', ')} FROM ${db}.${store} AS s FINAL`,
      );
      continue;
    }
    const measures = new Map(r.measures.map((m) => [m.name, m.read]));
    const keys = new Set(r.keys.map((k) => k.name));
    const outs = r.columns.map((c) =>
      typeof c === 'string'
        ? measures.has(c)
          ? `${measures.get(c)} AS "${c}"`
          : `s."${c}" AS "${c}"`
        : `${c[1]} AS "${c[0]}"`,
    );
    const grouped = r.columns
      .filter((c) => typeof c !== 'string' || keys.has(c))
      .map((c) => (typeof c === 'string' ? `s."${c}"` : c[1]));
    // The states must be the store's (`groupUniqArray`, not the `…OrNull` the engine's `aggregate_functions_null_for_empty` makes of it), in the feed and the view.
    const from =
      r.prompts === undefined
        ? `${db}.${store} AS s`
        : `${db}.${store} AS s INNER JOIN ${db}.prompts AS p ON p.id = s.prompt_id AND p.category_id = s.category_id WHERE ${r.prompts}`;
    out.push(
      `CREATE VIEW IF NOT EXISTS ${db}.${view}${on} AS SELECT ${outs.join(', ')} FROM ${from} GROUP BY ${grouped.join(', ')} SETTINGS aggregate_functions_null_for_empty = 0`,
    );
  }
  return out;
}

/**
 * The rollups of `catalog` a database holds every object of (the store, feed and view of each of its
 * tables), given its table names.
 */
export function keptRollups(tables: ReadonlySet<string>, catalog: readonly RollupDef[]): ReadonlySet<string> {
  const whole = (def: RollupDef) =>
    Object.keys(def.tables).every((table) => {
      return Object.values(objectsOf(def, table)).every((o) => tables.has(o));
    });
  return new Set(catalog.filter(whole).map((def) => def.name));
}
