import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { fromZonedTime, formatInTimeZone } from 'date-fns-tz';
import { etZone } from '../src/query/instants.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { rounded, tabular } from './helpers/tabular.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';
import { ids } from './fixtures/insights.ts';
import { bots, domains, pages, referralSources, tabularFixture, tabularIds, trafficPaths } from './fixtures/tabular.ts';
import { referenceCitations, referenceSentiment, referenceTraffic, type FlatRef } from './reference/tabular.ts';

const fixture = tabularFixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture, { clock: () => new Date('2026-12-01T00:00:00Z') });
});
afterAll(() => engine.close());
const org = () => engine.org(ids.org1);

const idOps = ['is', 'not_is', 'in', 'not_in'] as const;
const textOps = [
  ...idOps,
  'contains',
  'not_contains',
  'matches',
  'contains_case_insensitive',
  'not_contains_case_insensitive',
] as const;
const patterns = ['^w', 'e+', 'm$', '^$', '[0-9]', 'a|o', 'B', '%'];

interface Pool {
  ops: readonly string[];
  exact: readonly (string | boolean)[];
  text?: readonly string[];
  alias?: string;
}

const other = '00000000-0000-4000-8000-00000000ffff';
const insightsPools: Record<string, Pool> = {
  region_id: { ops: idOps, exact: [...ids.regions, other], alias: 'region' },
  region_name: { ops: textOps, exact: ['United States', 'Germany', 'Nowhere'], text: ['', 'a', 'STATES', 'ger'] },
  model_id: { ops: idOps, exact: [...ids.models], alias: 'model' },
  topic_id: { ops: idOps, exact: [...ids.topics, ids.foreign.topic], alias: 'topic' },
  topic_name: { ops: textOps, exact: ['Boots', 'Tents 50%_off', 'boots'], text: ['%', '_', 'boots', 'TENTS'] },
  tag_id: { ops: idOps, exact: [...ids.tags, ids.foreign.tag], alias: 'tag' },
  tag_name: { ops: textOps, exact: ['alpha', 'beta', '', 'gamma'], text: ['a', 'ALPHA', ''] },
  persona_id: { ops: idOps, exact: [...ids.personas, ids.foreign.persona] },
  prompt_id: { ops: idOps, exact: [...ids.prompts] },
  prompt: {
    ops: textOps,
    exact: ['Cheap boots', 'Best boots for rain?'],
    text: ["'", '%', '_', 'boots', 'BOOTS', '100%'],
  },
  analysis_type: {
    ops: textOps,
    exact: ['visibility', 'sentiment', 'accuracy'],
    text: ['vis', 'SENT', 'i'],
    alias: 'prompt_type',
  },
};

const citationPools: Record<string, Pool> = {
  ...insightsPools,
  hostname: {
    ops: textOps,
    exact: [...new Set(pages.map((p) => p.hostname))],
    text: ['example', 'EXAMPLE', '.', 'www'],
  },
  path: { ops: textOps, exact: ['', '/boots', '/50%_off'], text: ['%', '_', 'boots', 'B', ''] },
  url: { ops: textOps, exact: pages.map((p) => p.url), text: ['https', 'RIVAL', '/t/'] },
  root_domain: { ops: textOps, exact: ['example.com', 'rival.com', 'nope.com'], text: ['.com', 'Site'] },
  citation_category: { ops: textOps, exact: ['owned', 'social', 'Custom Cat'], text: ['cat', 'O', 'media'] },
  mentioned: { ops: ['is'], exact: [true, false] },
};

const sentimentPools: Record<string, Pool> = {
  ...Object.fromEntries(
    [
      'region_id',
      'region_name',
      'topic_id',
      'topic_name',
      'model_id',
      'tag_id',
      'tag_name',
      'prompt',
      'persona_id',
    ].map((k) => [k, insightsPools[k]!]),
  ),
  asset_id: { ops: idOps, exact: [...ids.assets, ids.foreign.asset] },
  asset_name: { ops: textOps, exact: ['Acme', 'Brandy', 'Zeta'], text: ['a', 'ACME', 'y'] },
  theme: { ops: textOps, exact: ['Comfort', 'Price'], text: ['o', 'PRICE', 'c'] },
};

/** A flat filter over one field of a pool: any allowed operator, a value or (sometimes) a list, maybe through an alias. */
function flatFilter(pools: Record<string, Pool>): fc.Arbitrary<FlatRef & { sent: string }> {
  return fc.constantFrom(...Object.keys(pools)).chain((field) => {
    const pool = pools[field]!;
    return fc
      .record({ op: fc.constantFrom(...pool.ops), alias: fc.boolean(), list: fc.boolean() })
      .chain(({ op, alias, list }) => {
        const exact = fc.constantFrom(...pool.exact);
        const text = pool.text ? fc.constantFrom(...pool.text) : exact;
        const one = op === 'matches' ? fc.constantFrom(...patterns) : op.includes('contains') ? text : exact;
        const many = fc.uniqueArray(one, { minLength: 1, maxLength: 3 });
        const value = op === 'in' || op === 'not_in' || (list && field !== 'mentioned') ? many : one;
        return value.map((v) => ({ field, operator: op, value: v, sent: alias && pool.alias ? pool.alias : field }));
      });
  });
}

const windows = [
  ['2026-02-20', '2027-01-01'],
  ['2026-03-08', '2026-03-09'],
  ['2026-03-08 01:30', '2026-11-01T05:45:00Z'],
  ['2026-04-15 10:00:00', '2026-08-01'],
] as const;
const intervals = ['hour', 'day', 'week', 'month', 'quarter', 'year', 'relative_week'] as const;

function insightsQuery(pools: Record<string, Pool>, dims: readonly string[]) {
  return fc.record({
    filters: fc.array(flatFilter(pools), { maxLength: 3 }),
    dimensions: fc.subarray([...dims], { maxLength: 2 }),
    interval: fc.constantFrom(...intervals),
    window: fc.constantFrom(...windows),
  });
}

/** A request date read independently of the engine: an offset or Z is kept, else the wall time is in `zone`. */
function instant(text: string, zone: string = etZone): number {
  const iso = text.replace(' ', 'T');
  if (/(Z|[+-]\d{2}:\d{2})$/.test(iso)) return Date.parse(iso);
  const full = iso.length === 10 ? `${iso}T00:00:00` : iso.length === 16 ? `${iso}:00` : iso;
  return fromZonedTime(full, zone).getTime();
}

describe('flat filters on v1 citations against the reference evaluator', () => {
  it('agrees for every operator, aliases, lists, NULLs, case-insensitive and regex matching', async () => {
    let nonEmpty = 0;
    const dims = [
      'hostname',
      'path',
      'date',
      'region',
      'topic',
      'topic_id',
      'model',
      'tag',
      'prompt',
      'prompt_id',
      'url',
      'root_domain',
      'persona',
      'citation_category',
    ];
    await fc.assert(
      fc.asyncProperty(
        insightsQuery(citationPools, dims),
        fc.constantFrom<string[]>(['count'], ['citation_share', 'count'], ['first_cited_at', 'share_of_voice']),
        async (r, metrics) => {
          // A filter on a page field needs that dimension.
          const needed = r.filters
            .map((f) => f.field)
            .filter((f) => ['hostname', 'path', 'url', 'root_domain'].includes(f));
          const dimensions = [...new Set([...r.dimensions, ...needed])];
          const body = {
            category_id: ids.cat1,
            start_date: r.window[0],
            end_date: r.window[1],
            metrics,
            dimensions,
            date_interval: r.interval,
            filters: r.filters.map((f) => ({ field: f.sent, operator: f.operator, value: f.value })),
          };
          const start = instant(r.window[0]);
          const expected = referenceCitations(fixture, ids.cat1, {
            start,
            end: instant(r.window[1]),
            metrics,
            dimensions,
            filters: r.filters,
            interval: r.interval,
            anchor: formatInTimeZone(start, etZone, 'yyyy-MM-dd'),
          });
          if (expected.length > 0) nonEmpty++;
          const got = await tabular(org(), 'citationsV1', body);
          expect(rounded(got.data)).toEqual(rounded(expected));
          expect(got.info.total_rows).toBe(expected.length);
        },
      ),
      { numRuns: 70 },
    );
    expectNotVacuous(nonEmpty, 70, 0.74);
  });
});

describe('flat filters on v1 sentiment against the reference evaluator', () => {
  it('agrees for asset, theme and prompt-level filters', async () => {
    const dims = [
      'theme',
      'date',
      'region',
      'topic',
      'topic_id',
      'model',
      'asset_id',
      'asset_name',
      'tag',
      'prompt',
      'prompt_id',
      'sentiment_type',
      'persona',
    ];
    await fc.assert(
      fc.asyncProperty(insightsQuery(sentimentPools, dims), async (r) => {
        const metrics = ['occurrences', 'positive', 'negative'];
        const body = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          metrics,
          dimensions: r.dimensions,
          date_interval: r.interval,
          filters: r.filters.map((f) => ({ field: f.sent, operator: f.operator, value: f.value })),
        };
        const start = instant(r.window[0]);
        const expected = referenceSentiment(fixture, ids.cat1, {
          start,
          end: instant(r.window[1]),
          metrics,
          dimensions: r.dimensions,
          filters: r.filters,
          interval: r.interval,
          anchor: formatInTimeZone(start, etZone, 'yyyy-MM-dd'),
        });
        expect((await tabular(org(), 'sentimentV1', body)).data).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });
});

const trafficPools = (bots_: boolean): Record<string, Pool> => ({
  path: { ops: textOps, exact: trafficPaths, text: ['docs', 'DOCS', '%', '_', '/'] },
  ...(bots_
    ? {
        bot_name: { ops: textOps, exact: bots.map((b) => b.bot_name), text: ['bot', 'GPT', '-'] },
        bot_provider: { ops: textOps, exact: ['openai', 'google', 'nope'], text: ['OPEN', 'o'] },
        bot_type: { ops: textOps, exact: ['ai_assistant', 'index', 'ai_training', 'ai_agent'], text: ['ai_', 'AGENT'] },
      }
    : {
        referral_source: {
          ops: textOps,
          exact: [...new Set(referralSources.map((s) => s.referral_source))],
          text: ['open', 'NONE', 'i'],
        },
        referral_type: { ops: textOps, exact: ['referer', 'utm', 'internal', 'none'], text: ['r', 'UTM'] },
      }),
});

const zones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata'] as const;
const trafficWindows = [
  ['2026-02-01', '2026-12-01'],
  ['2026-03-07', '2026-03-10'],
  ['2026-03-28 12:00', '2026-03-30 00:30:00'],
  ['2026-06-30T18:00:00Z', '2026-07-01T04:00:00+00:00'],
  ['2026-10-24', '2026-11-02'],
] as const;

describe('traffic reports against the reference evaluator', () => {
  it('v2 bots and referrals: filters, dimensions, UTC or zone buckets, segments and metric filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('bots' as const, 'referrals' as const).chain((kind) =>
          fc.record({
            kind: fc.constant(kind),
            filters: fc.array(flatFilter(trafficPools(kind === 'bots')), { maxLength: 2 }),
            dimensions: fc.subarray(
              kind === 'bots'
                ? ['date', 'hour', 'host', 'path', 'bot_name', 'bot_provider', 'bot_type']
                : ['date', 'hour', 'host', 'path', 'referral_source', 'referral_type'],
              { maxLength: 2 },
            ),
            interval: fc.constantFrom(...intervals),
            window: fc.constantFrom(...trafficWindows),
            zone: fc.constantFrom(...zones),
            view: fc.constantFrom(undefined, tabularIds.views.blog, tabularIds.views.docs),
            floor: fc.constantFrom(undefined, 2),
          }),
        ),
        async (r) => {
          const bots_ = r.kind === 'bots';
          const zone = bots_ ? 'UTC' : r.zone;
          const metrics = bots_
            ? ['count', 'citations', 'indexing', 'training', 'last_visit']
            : ['visits', 'last_visit'];
          const body = {
            domain: domains.own,
            start_date: r.window[0],
            end_date: r.window[1],
            metrics,
            dimensions: r.dimensions,
            date_interval: r.interval,
            filters: r.filters.map((f) => ({ field: f.field, operator: f.operator, value: f.value })),
            ...(r.floor ? { metric_filters: [{ field: metrics[0]!, value: r.floor }] } : {}),
            ...(!bots_ ? { timezone: zone, ...(r.view ? { view_id: r.view } : {}) } : {}),
          };
          const got = await tabular(org(), r.kind, body);
          const start = instant(r.window[0], zone);
          const end = instant(r.window[1], zone);
          expect(Date.parse(String(got.info.query.start_date))).toBe(start);
          expect(Date.parse(String(got.info.query.end_date))).toBe(end);
          const expected = referenceTraffic(fixture, {
            table: bots_ ? 'bot_events' : 'referral_visits',
            daily: false,
            zone,
            domain: domains.own,
            start,
            end,
            metrics,
            dimensions: r.dimensions,
            filters: r.filters,
            interval: r.interval,
            anchor: formatInTimeZone(start, zone, 'yyyy-MM-dd'),
            viewId: bots_ ? undefined : r.view,
            metricFilters: r.floor ? [{ field: metrics[0]!, value: r.floor }] : [],
          });
          expect(got.data).toEqual(expected);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('v1 bots and referrals: ET days stamped at their start, hour falling back to days', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          kind: fc.constantFrom('botsV1', 'referralsV1'),
          dimensions: fc.subarray(['date', 'host', 'path'], { maxLength: 2 }),
          interval: fc.constantFrom('hour', 'day', 'week', 'month', 'year', 'relative_week'),
          window: fc.constantFrom(...trafficWindows),
          filters: fc.array(flatFilter({ path: trafficPools(true).path! }), { maxLength: 1 }),
        }),
        async (r) => {
          const bots_ = r.kind === 'botsV1';
          const metrics = bots_ ? ['count', 'training', 'last_visit'] : ['visits', 'last_visit'];
          const body = {
            domain: domains.own,
            start_date: r.window[0],
            end_date: r.window[1],
            metrics,
            dimensions: r.dimensions,
            date_interval: r.interval,
            filters: r.filters.map((f) => ({ field: f.field, operator: f.operator, value: f.value })),
          };
          const got = await tabular(org(), r.kind, body);
          const expected = referenceTraffic(fixture, {
            table: bots_ ? 'bot_events' : 'referral_visits',
            daily: true,
            zone: etZone,
            domain: domains.own,
            start: instant(r.window[0]),
            end: instant(r.window[1]),
            metrics,
            dimensions: r.dimensions,
            filters: r.filters,
            interval: r.interval,
            anchor: formatInTimeZone(instant(r.window[0]), etZone, 'yyyy-MM-dd'),
          });
          expect(got.data).toEqual(expected);
          expect(got.info.query.date_interval).toBe(r.interval === 'hour' ? 'day' : r.interval);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('the NULL rule through flat filters', () => {
  it('persona_id: is never matches a missing persona, not_is is its exact negation', async () => {
    const body = (filters: unknown[]) => ({
      category_id: ids.cat1,
      start_date: '2026-02-01',
      end_date: '2027-01-01',
      metrics: ['count'],
      filters,
    });
    const total = (await tabular(org(), 'citationsV1', body([]))).data[0]!.metrics[0]!;
    for (const persona of [ids.personas[0]!, ids.personas[1]!]) {
      const yes = (await tabular(org(), 'citationsV1', body([{ field: 'persona_id', operator: 'is', value: persona }])))
        .data[0]!.metrics[0]!;
      const no = (
        await tabular(org(), 'citationsV1', body([{ field: 'persona_id', operator: 'not_is', value: persona }]))
      ).data[0]!.metrics[0]!;
      expect(yes + no).toBe(total);
    }
    const both = (
      await tabular(
        org(),
        'citationsV1',
        body([{ field: 'persona_id', operator: 'in', value: ids.personas.slice(0, 2) }]),
      )
    ).data[0]!.metrics[0]!;
    const none = (
      await tabular(
        org(),
        'citationsV1',
        body([{ field: 'persona_id', operator: 'not_in', value: ids.personas.slice(0, 2) }]),
      )
    ).data[0]!.metrics[0]!;
    const missing = fixture.citations.filter(
      (c) =>
        c.category_id === ids.cat1 &&
        c.persona_id === null &&
        Date.parse(String(c.executed_at)) >= Date.parse('2026-02-01T05:00:00Z'),
    ).length;
    expect(none).toBe(missing);
    expect(both + none).toBe(total);
    const byPersona = await tabular(org(), 'citationsV1', { ...body([]), dimensions: ['persona'] });
    expect(byPersona.data.find((r) => r.dimensions[0] === '')).toEqual({ metrics: [missing], dimensions: [''] });
  });

  it('mentioned: pages without an analysis by end_date are in neither value, and the share denominator keeps them', async () => {
    const window = {
      category_id: ids.cat1,
      start_date: '2026-02-01',
      end_date: '2026-11-01',
      dimensions: ['url'],
      metrics: ['count', 'citation_share'],
    };
    const all = await tabular(org(), 'citationsV1', window);
    const yes = await tabular(org(), 'citationsV1', {
      ...window,
      filters: [{ field: 'mentioned', operator: 'is', value: true }],
    });
    const no = await tabular(org(), 'citationsV1', { ...window, filters: [{ field: 'mentioned', value: false }] });
    const unanalysed = [pages[5]!.url, pages[6]!.url];
    const urls = (r: typeof all) => r.data.map((x) => x.dimensions[0]);
    expect(urls(all)).toEqual(expect.arrayContaining(unanalysed));
    for (const u of unanalysed) {
      expect(urls(yes)).not.toContain(u);
      expect(urls(no)).not.toContain(u);
    }
    expect(new Set([...urls(yes), ...urls(no)]).size).toBe(all.data.length - unanalysed.length);
    const share = (r: typeof all, url: string) => r.data.find((x) => x.dimensions[0] === url)?.metrics[1];
    for (const row of [...yes.data, ...no.data]) expect(share(all, row.dimensions[0]!)).toBe(row.metrics[1]);
  });
});
