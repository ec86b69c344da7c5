import { rollupTable, type RollupDef } from '../engine/rollups.ts';
import { etZone } from '../query/instants.ts';
import { citationsDaily } from '../reports/insights/citations-rollup.ts';
import { fanoutsDaily } from '../reports/insights/fanouts-rollup.ts';
import { sentimentDaily } from '../reports/insights/sentiment-rollup.ts';
import { shoppingDaily } from '../reports/insights/shopping-rollup.ts';
import { visibilityRollups } from '../reports/insights/visibility-rollup.ts';
import { trafficDaily } from '../reports/traffic/traffic-daily.ts';
import { trafficHourly } from '../reports/traffic/traffic-rollup.ts';
import type { Catalog } from './catalog.ts';

/**
 * A column of a ClickHouse rollup's store: `from` is its expression over the facts `f` (a key, or the
 * insert's aggregate), `read` the expression the rollup's view gives it (over the store `s` and the
 * prompts `p`), `type` its type there (a key's is the facts' column's when left out).
 */
interface Key {
  readonly name: string;
  readonly from?: string;
  readonly type?: string;
}

interface Measure {
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

const count = (name: string, condition?: string): Measure => ({
  name,
  stored: 'SimpleAggregateFunction(sum, Int64)',
  from: condition ? `toInt64(countIf(${condition}))` : 'toInt64(count())',
  read: `CAST(sum(s.${name}) AS Int64)`,
  final: `CAST(s.${name} AS Int64)`,
});

const instantOf = (name: string, fn: 'min' | 'max', column: string): Measure => ({
  name,
  stored: `SimpleAggregateFunction(${fn}, DateTime64(6, 'UTC'))`,
  from: `${fn}(f.${column})`,
  read: `CAST(${fn}(s.${name}) AS DateTime64(6, 'UTC'))`,
  final: `CAST(s.${name} AS DateTime64(6, 'UTC'))`,
});

const hasType = (type: string) => `has(p.analysis_types, '${type}')`;

/** A visibility rollup's keys besides the category and day, read from its DuckDB declaration (`f.model_id, p.topic_id`), so the two cannot drift apart. */
const visibilityKeys = (def: RollupDef) =>
  def.tables
    .executions!.match(/f\.day, (.*), count\(\*\) AS executions/)![1]!
    .split(', ')
    .map((k) => k.replace(/^[fp]\./, ''));

function visibility(def: RollupDef): ClickHouseRollup[] {
  const keys = visibilityKeys(def);
  const stored = keys.filter((k) => k !== 'topic_id');
  const view = (k: string): string | readonly [string, string] => (k === 'topic_id' ? ['topic_id', 'p.topic_id'] : k);
  const base = { def, prompts: hasType('visibility') };
  return [
    {
      ...base,
      table: 'executions',
      facts: 'executions',
      keys: [{ name: 'category_id' }, { name: 'day' }, ...stored.map((name) => ({ name })), { name: 'prompt_id' }],
      measures: [count('executions')],
      columns: ['category_id', 'day', ...keys.map(view), 'executions'],
    },
    {
      ...base,
      table: 'mentions',
      facts: 'mentions',
      keys: [
        { name: 'category_id' },
        { name: 'day' },
        ...stored.map((name) => ({ name })),
        { name: 'asset_id' },
        { name: 'prompt_id' },
      ],
      measures: [
        count('mentions'),
        {
          name: 'position_sum',
          stored: 'SimpleAggregateFunction(sum, Int64)',
          from: 'sum(toInt64(f.position))',
          read: 'CAST(sum(s.position_sum) AS Int64)',
        },
      ],
      columns: ['category_id', 'day', ...keys.map(view), 'asset_id', 'mentions', 'position_sum'],
    },
  ];
}

const hourly = (table: string, keys: readonly string[]): ClickHouseRollup => ({
  def: trafficHourly,
  table,
  facts: table,
  keys: [
    { name: 'organization_id' },
    { name: 'domain' },
    { name: 'ts', from: 'toStartOfHour(f.ts)' },
    ...keys.map((name) => ({ name })),
  ],
  measures: [count('visits'), instantOf('last_at', 'max', 'ts')],
  columns: ['organization_id', 'domain', 'ts', ...keys, 'visits', 'last_at'],
});

const daily = (table: string, keys: readonly string[]): ClickHouseRollup => ({
  def: trafficDaily,
  table,
  facts: table,
  keys: [
    { name: 'organization_id' },
    { name: 'domain' },
    { name: 'day', from: `toDate32(f.ts, '${etZone}')`, type: 'Date32' },
    ...keys.map((name) => ({ name })),
  ],
  measures: [count('visits'), instantOf('last_at', 'max', 'ts')],
  columns: ['organization_id', 'domain', 'day', ...keys, 'visits', 'last_at'],
});

const bots = ['host', 'path', 'bot_name', 'bot_provider', 'bot_type'];
const referrals = ['host', 'path', 'referral_source', 'referral_type'];

/** Every rollup the engine keeps on DuckDB, as ClickHouse keeps it (checked against DuckDB's rows in test/clickhouse-rollups.test.ts). */
export const clickhouseRollups: readonly ClickHouseRollup[] = [
  ...visibilityRollups.flatMap((r) => visibility(r.def)),
  {
    def: citationsDaily,
    table: 'citations',
    facts: 'citations',
    keys: [
      { name: 'category_id' },
      { name: 'day' },
      { name: 'model_id' },
      { name: 'prompt_id' },
      { name: 'root_domain' },
      { name: 'citation_category' },
    ],
    measures: [count('n'), instantOf('executed_at', 'min', 'executed_at')],
    columns: [
      'category_id',
      'day',
      'model_id',
      ['visibility', `CAST(${hasType('visibility')} AS Bool)`],
      'root_domain',
      'citation_category',
      'n',
      'executed_at',
    ],
    prompts: 'TRUE',
  },
  {
    def: sentimentDaily,
    table: 'sentiments',
    facts: 'sentiments',
    keys: [{ name: 'category_id' }, { name: 'day' }, { name: 'model_id' }, { name: 'asset_id' }, { name: 'prompt_id' }],
    measures: [
      count('n'),
      count('positive', "f.sentiment_type = 'positive'"),
      count('negative', "f.sentiment_type = 'negative'"),
    ],
    columns: ['category_id', 'day', 'model_id', 'asset_id', 'n', 'positive', 'negative'],
    prompts: hasType('sentiment'),
  },
  {
    def: shoppingDaily,
    table: 'results',
    facts: 'shopping_results',
    keys: [
      { name: 'category_id' },
      { name: 'day' },
      { name: 'model_id' },
      { name: 'product_id' },
      { name: 'prompt_id' },
    ],
    measures: [
      count('shown'),
      {
        name: 'position_sum',
        stored: 'SimpleAggregateFunction(sum, Int64)',
        from: 'sum(toInt64(f.position))',
        read: 'CAST(sum(s.position_sum) AS Int64)',
      },
      count('at1', 'f.position = 1'),
      count('at2', 'f.position = 2'),
      count('at3', 'f.position = 3'),
    ],
    columns: ['category_id', 'day', 'model_id', 'product_id', 'shown', 'position_sum', 'at1', 'at2', 'at3'],
    prompts: 'TRUE',
  },
  {
    def: shoppingDaily,
    table: 'answers',
    facts: 'shopping_results',
    keys: [{ name: 'category_id' }, { name: 'day' }, { name: 'prompt_id' }],
    // TRICKY: an answer's results may arrive in several inserts, so the store keeps the set of answers (a uniqExact state), merged at read across inserts and prompts.
    measures: [
      {
        name: 'answers',
        stored: 'AggregateFunction(uniqExact, String)',
        from: 'uniqExactState(f.execution_id)',
        read: 'CAST(uniqExactMerge(s.answers) AS Int64)',
      },
    ],
    columns: ['category_id', 'day', 'answers'],
    prompts: 'TRUE',
  },
  {
    def: fanoutsDaily,
    table: 'fanouts',
    facts: 'fanouts',
    keys: [{ name: 'category_id' }, { name: 'day' }, { name: 'prompt_id' }, { name: 'query' }],
    measures: [count('n')],
    columns: ['category_id', 'day', 'prompt_id', 'query', 'n'],
    prompts: 'TRUE',
  },
  {
    def: fanoutsDaily,
    table: 'runs',
    facts: 'executions',
    keys: [{ name: 'category_id' }, { name: 'day' }, { name: 'prompt_id' }],
    measures: [
      count('runs'),
      count('searched', 'f.search_triggered'),
      {
        name: 'model_ids',
        stored: 'AggregateFunction(groupUniqArray, String)',
        from: 'groupUniqArrayState(f.model_id)',
        read: 'arraySort(groupUniqArrayMerge(s.model_ids))',
      },
    ],
    columns: ['category_id', 'day', 'prompt_id', 'runs', 'searched', 'model_ids'],
    prompts: 'TRUE',
  },
  hourly('bot_events', bots),
  hourly('referral_visits', referrals),
  daily('bot_events', bots),
  daily('referral_visits', referrals),
];

/** The names of the rollups ClickHouse keeps (`RollupDef.name`), every table of each included. */
export const clickhouseRollupNames: readonly string[] = [...new Set(clickhouseRollups.map((r) => r.def.name))];

const storeOf = (r: ClickHouseRollup) => `${rollupTable(r.def, r.table)}_store`;
const feedOf = (r: ClickHouseRollup) => `${rollupTable(r.def, r.table)}_feed`;

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
  db: string,
  target: { execute(statement: string): Promise<void>; count(table: string): Promise<number> },
): Promise<string[]> {
  const filled: string[] = [];
  for (const r of clickhouseRollups) {
    const { store } = rollupObjects(r);
    if ((await target.count(`${db}.${store}`)) > 0 || (await target.count(`${db}.${r.facts}`)) === 0) continue;
    await target.execute(`INSERT INTO ${db}.${store} ${feedSelect(r, db, r.facts)}`);
    filled.push(store);
  }
  return filled;
}

/** Every object the rollups create in a database, for `schema` and for checks. */
export const rollupObjects = (r: ClickHouseRollup) => ({
  view: rollupTable(r.def, r.table),
  store: storeOf(r),
  feed: feedOf(r),
});

/**
 * The DDL of the rollups whose facts the catalog holds: per rollup table, the store, the materialized
 * view feeding it from the facts, and the view the reports read. Run before the facts are loaded, the
 * feed fills the store during the load as it does for every later insert. With a cluster, each shard
 * keeps the rollup of its own facts (the feed watches `<facts>_local`) and the view reads them through a
 * Distributed table; a tenant's facts are all on one shard, so its rollup rows are too.
 */
export function rollupStatements(catalog: Catalog, db: string, cluster?: string): string[] {
  const tables = new Map(catalog.tables.map((t) => [t.name, new Map(t.columns.map((c) => [c.name, c.type]))]));
  const on = cluster ? ` ON CLUSTER ${cluster}` : '';
  const out: string[] = [];
  for (const r of clickhouseRollups) {
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

/** The rollups a database holds every object of (store, feed and view of each table), given its table names. */
export function keptRollups(tables: ReadonlySet<string>): ReadonlySet<string> {
  const whole = (name: string) =>
    clickhouseRollups
      .filter((r) => r.def.name === name)
      .every((r) => Object.values(rollupObjects(r)).every((o) => tables.has(o)));
  return new Set(clickhouseRollupNames.filter(whole));
}
