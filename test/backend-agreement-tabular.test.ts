import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import {
  bots,
  domains,
  pages,
  referralSources,
  tabularFixture,
  tabularIds,
  trafficHosts,
  trafficPaths,
} from './fixtures/tabular.ts';

/**
 * Random requests to the tabular reports (v1 Insights, traffic, raw logs) answered by DuckDB and by
 * chdb over the same tables: the same JSON, or the same refusal. Filters are drawn over every field each
 * report accepts (checked against the list its refusal of an unknown field gives), with every operator
 * (those a field does not take are refused, identically). The windows cross DST changes, the zones
 * include half-hour offsets (Asia/Kolkata) and a zone that moves by half an hour (Australia/Lord_Howe).
 * `AEA_PROPERTY_RUNS` sets the runs per report (15 in `npm test`; 200 in the full run of docs/scale-out.md).
 *
 * Why 15 cover the generator (it was 25; a chdb request costs the suite about a second of ClickHouse
 * planning): the 150 requests of a run draw each interval, zone and window many times over, and the
 * calendar SQL is shared by the reports; each report's fields are checked against its refusal by the first
 * test, and fixed requests of each report are answered on chdb every run: its golden requests
 * (test/backend-agreement.test.ts: DST windows, intervals from hour to quarter, Asia/Kolkata, flat
 * filters, a segment) or, for the raw logs, its request over the sample (test/backend-every-report.test.ts).
 */
const rows = tabularFixture();
let duck: Engine;
let chdb: Engine;
const clock = () => new Date('2026-12-01T00:00:00Z');
beforeAll(async () => {
  duck = await openFixture(rows, { clock, rollups: false });
  chdb = await openFixture(rows, { clock, backend: 'chdb' });
}, 60_000);
afterAll(async () => {
  await chdb?.close();
  await duck?.close();
});

const ops = [
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
type Field = { readonly name: string; readonly values: readonly (string | boolean)[] };

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

interface Space {
  readonly name: string;
  readonly body: fc.Arbitrary<Record<string, unknown>>;
  /** The filter fields drawn: every field the report accepts (checked against its refusal of an unknown one). */
  readonly fields: readonly Field[];
}

const numRuns = Number(process.env.AEA_PROPERTY_RUNS ?? 15);

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
const spaces: readonly Space[] = [
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

async function answer(engine: Engine, name: string, body: Record<string, unknown>): Promise<string> {
  try {
    return JSON.stringify(await engine.org(ids.org1).report(name)(body));
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

/** The fields a report accepts, as its refusal of an unknown field in an otherwise drawn request lists them. */
async function acceptedFields(s: Space): Promise<string[]> {
  const [body] = fc.sample(s.body, { numRuns: 1, seed: 1 });
  const refusal = await answer(duck, s.name, { ...body, filters: [{ field: 'no_such_field', value: 'x' }] });
  return [...(/this report filters on ([^;]*)/.exec(refusal)?.[1] ?? '').matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!);
}

describe('DuckDB and chdb give identical answers over the tabular reports', () => {
  it('draws every filter field each report accepts', async () => {
    const undrawn: string[] = [];
    for (const s of spaces) {
      const accepted = await acceptedFields(s);
      if (accepted.length === 0) undrawn.push(`${s.name}: its accepted fields could not be read`);
      for (const f of accepted) if (!s.fields.some((d) => d.name === f)) undrawn.push(`${s.name}: ${f}`);
    }
    expect(undrawn).toEqual([]);
  });

  it.each(spaces)(
    '$name: random filters, dimensions, intervals, zones and DST windows',
    async ({ name, body }) => {
      let answered = 0;
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          const expected = await answer(duck, name, b);
          if (expected.startsWith('{')) answered++;
          expect(await answer(chdb, name, b)).toBe(expected);
        }),
        { numRuns },
      );
      expect(answered).toBeGreaterThan(numRuns / 6);
    },
    300_000,
  );
});
