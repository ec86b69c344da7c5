import fc from 'fast-check';
import { ids } from '../fixtures/insights.ts';
import { bots, domains, pages, referralSources, tabularIds, trafficHosts, trafficPaths } from '../fixtures/tabular.ts';

/**
 * Random requests to every tabular report (v1 Insights, traffic, raw logs) over the tabular fixture:
 * filters over every field each report accepts with every operator, dimensions, intervals, windows
 * across DST changes, and zones with half-hour offsets (Asia/Kolkata, Australia/Lord_Howe).
 */

export const ops = [
  'is',
  'not_is',
  'in',
  'not_in',
  'contains',
  'not_contains',
  'matches',
  'contains_case_insensitive',
  'not_contains_case_insensitive',
] as const;
export type Field = { readonly name: string; readonly values: readonly (string | boolean)[] };

const filter = (fields: readonly Field[]) =>
  fc.constantFrom(...fields).chain((f) =>
    fc.constantFrom(...ops).chain((op) => {
      const one = op === 'matches' ? fc.constantFrom('^/d', 'o+', 's$', '[0-9]') : fc.constantFrom(...f.values);
      return (op.endsWith('in') ? fc.uniqueArray(one, { minLength: 1, maxLength: 2 }) : one).map((value) => ({
        field: f.name,
        operator: op,
        value,
      }));
    }),
  );

const intervals = ['hour', 'day', 'week', 'month', 'quarter', 'year', 'relative_week'] as const;
const zones = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'] as const;
const insightsWindows = [
  ['2026-02-20', '2027-01-01'],
  ['2026-03-08', '2026-03-09'],
  ['2026-03-08 01:30', '2026-11-01T05:45:00Z'],
] as const;
const trafficWindows = [
  ['2026-02-01', '2026-12-01'],
  ['2026-03-07', '2026-03-10'],
  ['2026-04-04 12:00', '2026-04-06 00:30:00'],
  ['2026-10-03', '2026-10-05'],
  ['2026-10-24', '2026-11-02'],
] as const;

/** Every prompt-level field of the v1 reports, with ids, names, near misses and LIKE wildcards. */
const answerFields: Record<string, Field> = Object.fromEntries(
  [
    { name: 'region_id', values: [...ids.regions] },
    { name: 'region_name', values: ['United States', 'Germany', '', 'a'] },
    { name: 'topic_id', values: [...ids.topics, ids.foreign.topic] },
    { name: 'topic_name', values: ['Boots', 'Tents 50%_off', '%', '_'] },
    { name: 'tag_id', values: [...ids.tags] },
    { name: 'tag_name', values: ['alpha', 'beta', ''] },
    { name: 'model_id', values: [...ids.models] },
    { name: 'persona_id', values: [...ids.personas] },
    { name: 'prompt_id', values: [...ids.prompts] },
    { name: 'prompt', values: ['boots', 'Boots', '%', "'"] },
    { name: 'analysis_type', values: ['visibility', 'sentiment', 'accuracy', 'factcheck', 'vis'] },
  ].map((f) => [f.name, f]),
);
const answerPick = (...names: string[]) => names.map((n) => answerFields[n]!);
const promptFields = Object.values(answerFields);
const assetName: Field = { name: 'asset_name', values: ['Acme', 'Brandy', '', 'a'] };
const citationFields: Field[] = [
  { name: 'hostname', values: [...new Set(pages.map((p) => p.hostname)), 'example.com', 'WWW.EXAMPLE.COM'] },
  { name: 'path', values: ['/boots', '', '/50%_off', '/'] },
  { name: 'url', values: [...pages.map((p) => p.url).slice(0, 3), 'https://nowhere.example/'] },
  { name: 'root_domain', values: ['example.com', 'rival.com', 'tube.com', 'Example.com'] },
  { name: 'citation_category', values: ['owned', 'Custom Cat', 'social', ''] },
  { name: 'mentioned', values: [true, false] },
];
const pathField: Field = { name: 'path', values: [...trafficPaths, 'docs', '%'] };
const hostField: Field = { name: 'host', values: [...trafficHosts, 'WWW.example.com', 'example'] };
const providerField: Field = { name: 'bot_provider', values: ['openai', 'google', 'anthropic', 'open'] };

export interface Space {
  readonly name: string;
  readonly body: fc.Arbitrary<Record<string, unknown>>;
  /** The filter fields drawn: every field the report accepts (checked against its refusal of an unknown one). */
  readonly fields: readonly Field[];
}

const insights = (
  metrics: readonly string[],
  dims: readonly string[],
  fields: readonly Field[],
): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .record({
      filters: fc.array(filter(fields), { maxLength: 2 }),
      dimensions: fc.subarray([...dims], { maxLength: 2 }),
      interval: fc.constantFrom(...intervals),
      window: fc.constantFrom(...insightsWindows),
    })
    .map((r) => ({
      category_id: ids.cat1,
      start_date: r.window[0],
      end_date: r.window[1],
      metrics,
      dimensions: r.dimensions,
      date_interval: r.interval,
      filters: r.filters,
    }));

const traffic = (
  metrics: readonly string[],
  dims: readonly string[],
  fields: readonly Field[],
  zoned: boolean,
): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .record({
      filters: fc.array(filter(fields), { maxLength: 2 }),
      dimensions: fc.subarray([...dims], { maxLength: 2 }),
      interval: fc.constantFrom(...intervals),
      window: fc.constantFrom(...trafficWindows),
      zone: fc.constantFrom(...zones),
      view: fc.constantFrom(undefined, tabularIds.views.docs),
    })
    .map((r) => ({
      domain: domains.own,
      start_date: r.window[0],
      end_date: r.window[1],
      metrics,
      dimensions: r.dimensions,
      date_interval: r.interval,
      filters: r.filters,
      ...(zoned ? { timezone: r.zone, ...(r.view ? { view_id: r.view } : {}) } : {}),
    }));

const botFields: Field[] = [
  pathField,
  { name: 'bot_name', values: [...bots.map((b) => b.bot_name), 'GPT'] },
  providerField,
  { name: 'bot_type', values: ['ai_assistant', 'index', 'ai_'] },
];
const referralFields: Field[] = [
  pathField,
  { name: 'referral_source', values: [...new Set(referralSources.map((s) => s.referral_source)), 'i'] },
  { name: 'referral_type', values: ['referer', 'utm', 'none'] },
];
const botDims = ['date', 'hour', 'host', 'path', 'bot_name', 'bot_provider', 'bot_type'];
const referralDims = ['date', 'hour', 'host', 'path', 'referral_source', 'referral_type'];

const space = (
  name: string,
  fields: readonly Field[],
  body: (fields: readonly Field[]) => fc.Arbitrary<Record<string, unknown>>,
): Space => ({ name, fields, body: body(fields) });
const sentimentFields: Field[] = [
  ...answerPick(
    'region_id',
    'region_name',
    'topic_id',
    'topic_name',
    'model_id',
    'tag_id',
    'tag_name',
    'prompt',
    'persona_id',
  ),
  { name: 'asset_id', values: [...ids.assets] },
  assetName,
  { name: 'theme', values: ['Price', 'Fit', '', '%', ...tabularIds.themes] },
];
export const spaces: readonly Space[] = [
  space('citationsV1', [...promptFields, ...citationFields], (f) =>
    insights(
      ['count', 'citation_share', 'share_of_voice', 'first_cited_at'],
      ['hostname', 'root_domain', 'path', 'url', 'citation_category', 'date', 'model', 'tag', 'persona'],
      f,
    ),
  ),
  space(
    'visibilityV1',
    [
      ...answerPick(
        'region_id',
        'region_name',
        'model_id',
        'topic_id',
        'topic_name',
        'tag_id',
        'tag_name',
        'prompt_id',
        'prompt',
        'persona_id',
      ),
      assetName,
    ],
    (f) =>
      insights(
        ['visibility_score', 'share_of_voice', 'average_position', 'mentions_count', 'executions'],
        ['asset_name', 'date', 'model', 'tag', 'region'],
        f,
      ),
  ),
  space('sentimentV1', sentimentFields, (f) =>
    insights(['positive', 'negative', 'occurrences'], ['theme', 'asset_name', 'date', 'persona', 'tag'], f),
  ),
  space(
    'queryFanoutsV1',
    answerPick(
      'region_id',
      'region_name',
      'model_id',
      'topic_id',
      'tag_id',
      'prompt_id',
      'persona_id',
      'analysis_type',
    ),
    (f) => insights(['total_fanouts', 'fanouts_per_execution', 'share'], ['prompt', 'query', 'date', 'model'], f),
  ),
  space('botsV1', botFields.slice(0, 3), (f) =>
    traffic(
      ['count', 'citations', 'indexing', 'training', 'last_visit'],
      ['date', 'host', 'path', 'bot_name', 'bot_provider'],
      f,
      false,
    ),
  ),
  space('bots', botFields, (f) => traffic(['count', 'citations', 'last_visit'], botDims, f, false)),
  space('referralsV1', referralFields.slice(0, 2), (f) => traffic(['visits', 'last_visit'], referralDims, f, false)),
  space('referrals', referralFields, (f) => traffic(['visits', 'last_visit'], referralDims, f, true)),
  space('rawLogs', [hostField, pathField], (f) => traffic(['count'], ['timestamp', 'host', 'path'], f, false)),
  space(
    'rawBotLogs',
    [pathField, botFields[1]!, providerField, { name: 'bot_types', values: ['ai_assistant', 'index', 'ai_'] }],
    (f) => traffic(['count'], ['timestamp', 'host', 'path', 'bot_name', 'bot_types'], f, false),
  ),
];
