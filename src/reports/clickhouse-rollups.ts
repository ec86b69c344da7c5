import type { RollupDef } from '../engine/rollups.ts';
import { count, instantOf, type ClickHouseRollup } from '../cluster/rollup-ddl.ts';
import { etZone } from '../query/instants.ts';
import { answersDaily } from './insights/answers-rollup.ts';
import { citationsDaily } from './insights/citations-rollup.ts';
import { factcheckAnswers } from './insights/factcheck-rollup.ts';
import { fanoutsDaily } from './insights/fanouts-rollup.ts';
import { platformDaily, platformDescribed, platformSourceTypes } from './insights/platform-rollup.ts';
import { sentimentDaily } from './insights/sentiment-rollup.ts';
import { shoppingDaily } from './insights/shopping-rollup.ts';
import { visibilityRollups } from './insights/visibility-rollup.ts';
import { trafficDaily } from './traffic/traffic-daily.ts';
import { trafficHourly } from './traffic/traffic-rollup.ts';

const hasType = (type: string) => `has(p.analysis_types, '${type}')`;

/** An answers rollup (`answersByDayAndModel`): its store keeps the prompt, so a read joins the current prompts `prompts` keeps. */
const answersTwin = (def: RollupDef, prompts: string): ClickHouseRollup => ({
  def,
  table: 'answers',
  facts: 'executions',
  keys: [{ name: 'category_id' }, { name: 'day' }, { name: 'model_id' }, { name: 'prompt_id' }],
  measures: [count('answers')],
  columns: ['category_id', 'day', 'model_id', 'answers'],
  prompts,
});

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
    def: platformDaily,
    table: 'citations',
    facts: 'citations',
    keys: [
      { name: 'category_id' },
      { name: 'day' },
      { name: 'model_id' },
      { name: 'source_type' },
      ...platformDescribed.map((name) => ({
        name,
        from: `if(f.source_type IN (${platformSourceTypes.map((t) => `'${t}'`).join(', ')}), f.${name}, NULL)`,
        type: 'Nullable(String)',
      })),
      { name: 'prompt_id' },
    ],
    measures: [count('n')],
    columns: ['category_id', 'day', 'model_id', 'source_type', ...platformDescribed, 'n'],
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
  answersTwin(answersDaily, 'TRUE'),
  answersTwin(factcheckAnswers, hasType('accuracy')),
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
