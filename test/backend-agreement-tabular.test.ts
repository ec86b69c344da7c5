import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { bots, domains, referralSources, tabularFixture, tabularIds, trafficPaths } from './fixtures/tabular.ts';

/**
 * Random requests to the tabular reports (v1 Insights, traffic, raw logs) answered by DuckDB and by
 * chdb over the same tables: the same JSON, or the same refusal. The windows cross DST changes, the
 * zones include half-hour offsets (Asia/Kolkata) and a zone that moves by half an hour (Australia/Lord_Howe).
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

const ops = ['is', 'not_is', 'in', 'not_in', 'contains', 'not_contains', 'matches', 'contains_case_insensitive', 'not_contains_case_insensitive'] as const;
type Field = { readonly name: string; readonly values: readonly string[] };

const filter = (fields: readonly Field[]) =>
  fc.constantFrom(...fields).chain((f) =>
    fc.constantFrom(...ops).chain((op) => {
      const one = op === 'matches' ? fc.constantFrom('^/d', 'o+', 's$', '[0-9]') : fc.constantFrom(...f.values);
      return (op.endsWith('in') ? fc.uniqueArray(one, { minLength: 1, maxLength: 2 }) : one).map((value) => ({ field: f.name, operator: op, value }));
    }),
  );

const intervals = ['hour', 'day', 'week', 'month', 'quarter', 'year', 'relative_week'] as const;
const zones = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'] as const;
const insightsWindows = [['2026-02-20', '2027-01-01'], ['2026-03-08', '2026-03-09'], ['2026-03-08 01:30', '2026-11-01T05:45:00Z']] as const;
const trafficWindows = [['2026-02-01', '2026-12-01'], ['2026-03-07', '2026-03-10'], ['2026-04-04 12:00', '2026-04-06 00:30:00'], ['2026-10-03', '2026-10-05'], ['2026-10-24', '2026-11-02']] as const;

const promptFields: Field[] = [
  { name: 'region_name', values: ['United States', 'Germany', '', 'a'] },
  { name: 'topic_name', values: ['Boots', 'Tents 50%_off', '%', '_'] },
  { name: 'tag_name', values: ['alpha', 'beta', ''] },
  { name: 'model_id', values: [...ids.models] },
  { name: 'persona_id', values: [...ids.personas] },
];
const pathField: Field = { name: 'path', values: [...trafficPaths, 'docs', '%'] };

interface Space {
  readonly name: string;
  readonly body: fc.Arbitrary<Record<string, unknown>>;
}

const insights = (metrics: readonly string[], dims: readonly string[], fields: readonly Field[]): fc.Arbitrary<Record<string, unknown>> =>
  fc.record({ filters: fc.array(filter(fields), { maxLength: 2 }), dimensions: fc.subarray([...dims], { maxLength: 2 }), interval: fc.constantFrom(...intervals), window: fc.constantFrom(...insightsWindows) }).map((r) => ({
    category_id: ids.cat1,
    start_date: r.window[0],
    end_date: r.window[1],
    metrics,
    dimensions: r.dimensions,
    date_interval: r.interval,
    filters: r.filters,
  }));

const traffic = (metrics: readonly string[], dims: readonly string[], fields: readonly Field[], zoned: boolean): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .record({ filters: fc.array(filter(fields), { maxLength: 2 }), dimensions: fc.subarray([...dims], { maxLength: 2 }), interval: fc.constantFrom(...intervals), window: fc.constantFrom(...trafficWindows), zone: fc.constantFrom(...zones), view: fc.constantFrom(undefined, tabularIds.views.docs) })
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

const botFields: Field[] = [pathField, { name: 'bot_name', values: [...bots.map((b) => b.bot_name), 'GPT'] }, { name: 'bot_type', values: ['ai_assistant', 'index', 'ai_'] }];
const referralFields: Field[] = [pathField, { name: 'referral_source', values: [...new Set(referralSources.map((s) => s.referral_source)), 'i'] }, { name: 'referral_type', values: ['referer', 'utm', 'none'] }];
const botDims = ['date', 'hour', 'host', 'path', 'bot_name', 'bot_provider', 'bot_type'];
const referralDims = ['date', 'hour', 'host', 'path', 'referral_source', 'referral_type'];

const spaces: readonly Space[] = [
  { name: 'citationsV1', body: insights(['count', 'citation_share', 'share_of_voice', 'first_cited_at'], ['hostname', 'root_domain', 'date', 'model', 'tag', 'persona'], promptFields) },
  { name: 'visibilityV1', body: insights(['visibility_score', 'share_of_voice', 'average_position', 'mentions_count', 'executions'], ['asset_name', 'date', 'model', 'tag', 'region'], promptFields) },
  { name: 'sentimentV1', body: insights(['positive', 'negative', 'occurrences'], ['theme', 'asset_name', 'date', 'persona', 'tag'], promptFields) },
  { name: 'queryFanoutsV1', body: insights(['total_fanouts', 'fanouts_per_execution', 'share'], ['prompt', 'query', 'date', 'model'], promptFields) },
  { name: 'botsV1', body: traffic(['count', 'citations', 'indexing', 'training', 'last_visit'], ['date', 'host', 'path', 'bot_name', 'bot_provider'], botFields.slice(0, 2), false) },
  { name: 'bots', body: traffic(['count', 'citations', 'last_visit'], botDims, botFields, false) },
  { name: 'referralsV1', body: traffic(['visits', 'last_visit'], referralDims, referralFields, false) },
  { name: 'referrals', body: traffic(['visits', 'last_visit'], referralDims, referralFields, true) },
  { name: 'rawLogs', body: traffic(['count'], ['timestamp', 'host', 'path'], [pathField], false) },
  { name: 'rawBotLogs', body: traffic(['count'], ['timestamp', 'host', 'path', 'bot_name', 'bot_types'], [pathField, botFields[1]!, { name: 'bot_types', values: ['ai_assistant', 'index', 'ai_'] }], false) },
];

async function answer(engine: Engine, name: string, body: Record<string, unknown>): Promise<string> {
  try {
    return JSON.stringify(await engine.org(ids.org1).report(name)(body));
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

describe('DuckDB and chdb give identical answers over the tabular reports', () => {
  it.each(spaces)('$name: random filters, dimensions, intervals, zones and DST windows', async ({ name, body }) => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const expected = await answer(duck, name, b);
        if (expected.startsWith('{')) answered++;
        expect(await answer(chdb, name, b)).toBe(expected);
      }),
      { numRuns: 25 },
    );
    expect(answered).toBeGreaterThan(4);
  }, 300_000);
});
