import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import type { FilterCatalog } from '../src/query/filter-compiler.ts';
import { toWire } from '../src/query/filter-node.ts';
import { answersRules } from '../src/reports/answers/prompt-answers.ts';
import { channelFilterFields } from '../src/reports/insights-v2/social/channel-filter.ts';
import { citationsRules } from '../src/reports/insights-v2/citations/citations-sql.ts';
import { claimFilterFields } from '../src/reports/insights-v2/factcheck/claim-filter.ts';
import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import type { FilterRules } from '../src/reports/insights/layered-filter.ts';
import { fanoutsRules } from '../src/reports/insights-v2/query-fanouts-sql.ts';
import { sentimentRules } from '../src/reports/insights-v2/sentiment/sentiment-plan.ts';
import { shoppingFilterFields } from '../src/reports/insights-v2/shopping/shopping-plan.ts';
import { typedReports } from '../src/reports/report-types.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { undrawn, type FieldValuePool } from './helpers/filter-arbitrary.ts';
import { pools as morePools } from './helpers/more-v2.ts';
import { reportFilterArbitrary, type FilterShape } from './helpers/report-filter-arbitrary.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';
import { claimsFixture } from './fixtures/claims.ts';
import { productIds, shoppingFixture } from './fixtures/shopping.ts';

/**
 * Random requests to every v2 Insights report answered by DuckDB and by chdb over the same tables: the
 * same JSON text, page after page and as a stream, or the same refusal. Filters are drawn over every
 * field and operator the report accepts (its own catalog, shaped as its validation composes them, and
 * now and then any tree, which it may refuse), with empty lists; the windows include both DST changes
 * of 2026 (America/New_York: 8 March, 1 November). `AEA_PROPERTY_RUNS` sets the runs per report (6 in `npm test`; the full run in docs/scale-out.md takes more).
 *
 * Why 6 cover the generator in `npm test` (it was 10; each chdb request costs the suite about a second of
 * ClickHouse planning): the 60 requests of a run draw each of the 4 windows, 3 intervals and the filter
 * shapes (none, the report's own composition, any tree) many times over, and those parts of the SQL are
 * shared by the reports; what is each report's own is also asked by fixed requests on chdb every run: its
 * golden requests (test/backend-agreement.test.ts: DST windows, intervals, filter trees, groupings,
 * includes and targets) and every report path over the sample with a filter on each report-specific field
 * (test/backend-every-report.test.ts). The first test below fails when a catalog field is in no pool.
 */
const clock = () => new Date('2026-11-22T12:00:00Z');
/** The report fixtures: the v2 Insights data, and shopping with fact-check claims. */
const fixtures = { more: moreV2Fixture(), shopping: { ...shoppingFixture(), ...claimsFixture() } };
const engines = {} as Record<keyof typeof fixtures, { duck: Engine; chdb: Engine }>;
beforeAll(async () => {
  for (const [name, rows] of Object.entries(fixtures) as [
    keyof typeof fixtures,
    (typeof fixtures)[keyof typeof fixtures],
  ][]) {
    engines[name] = {
      duck: await openFixture(rows, { cursorSecret: 'agree', clock, rollups: false }),
      chdb: await openFixture(rows, { cursorSecret: 'agree', clock, backend: 'chdb' }),
    };
  }
}, 120_000);
afterAll(async () => {
  for (const pair of Object.values(engines)) {
    await pair.chdb.close();
    await pair.duck.close();
  }
});

/** Values for every filter field of the v2 reports over the fixtures: ids, names, near misses, LIKE wildcards, NULL-named rows. */
const pools: Record<string, FieldValuePool> = {
  ...morePools,
  model: { exact: [...ids.models, 'ChatGPT', 'Perplexity', '', 'nope'], text: ['', 'a', 'GPT', 'p'] },
  region: { exact: [...ids.regions, 'Germany', 'United States', 'Nowhere'], text: ['', 'a', 'STATES', 'e'] },
  persona: { exact: [...ids.personas, 'Hiker', '', ids.foreign.persona], text: ['', 'H', 'k'] },
  topic: {
    exact: [...ids.topics, 'Boots', 'Tents 50%_off', ids.foreign.topic],
    text: ['%', '_', 'boots', 'Tents', ''],
  },
  prompt: {
    exact: [...ids.prompts, 'Cheap boots', ids.foreign.prompt],
    text: ["'", '%', '_', 'boots', 'BOOTS', '100%'],
  },
  tag: { exact: [...ids.tags, 'alpha', 'beta', '', ids.foreign.tag], text: ['a'] },
  domain: {
    ...morePools.domain!,
    exact: [...morePools.domain!.exact, 'www.youtube.com', 'YouTube.com'],
    text: [...morePools.domain!.text, 'you', '%'],
  },
  brand: { exact: ['Acme', 'Brandy', '', 'Zeta', ids.assets[0]!, 'nope'], text: ['a', 'ACME', '%', '_'] },
  merchant: { exact: ['REI', 'rei', 'Amazon', 'Shop 100%', 'Bank'], text: ['re', '%', '_', '100%'] },
};

const windows = [
  ['2026-02-20', '2026-12-31'],
  ['2026-03-08', '2026-03-08'],
  ['2026-11-01', '2026-11-02'],
  ['2026-03-01', '2026-06-30'],
] as const;

interface ReportSpace {
  readonly name: string;
  readonly groupDims: readonly string[];
  readonly extra: fc.Arbitrary<Record<string, unknown>>;
  /** The fields and operators the report's filter accepts, and how it composes them. */
  readonly catalog: FilterCatalog;
  readonly shape: FilterShape;
  readonly fixture?: keyof typeof fixtures;
  readonly maxGroups?: number;
  /** False for a report that takes no interval. */
  readonly intervals?: boolean;
}

const none = fc.constant({});
const layered = (rules: FilterRules) => ({
  catalog: rules.catalog,
  shape: { kind: 'layered', rowFields: rules.rowFields, topLevel: rules.topLevel } as const,
});
const tree = (catalog: FilterCatalog) => ({ catalog, shape: { kind: 'tree' } as const });
const claims = { catalog: claimFilterFields, shape: { kind: 'leaves' } as const };
const channel = { catalog: channelFilterFields, shape: { kind: 'channel' } as const };
const spaces: readonly ReportSpace[] = [
  {
    name: 'visibility',
    groupDims: ['date', 'model', 'topic', 'region', 'prompt', 'persona'],
    extra: fc.record({ scope: fc.constantFrom('owned', 'all') }),
    ...tree(promptFilterFields),
  },
  {
    name: 'citations',
    groupDims: ['page', 'date', 'model', 'topic', 'region', 'persona', 'prompt'],
    extra: fc.record({ scope: fc.constantFrom('owned', 'all') }),
    ...layered(citationsRules),
  },
  {
    name: 'queryFanouts',
    groupDims: ['prompt', 'query', 'model', 'region', 'date'],
    extra: none,
    ...layered(fanoutsRules),
  },
  {
    name: 'factcheck',
    groupDims: ['date', 'model', 'region', 'persona', 'prompt', 'topic', 'tag', 'theme', 'citation'],
    extra: none,
    ...claims,
  },
  {
    name: 'sentiment',
    groupDims: ['date', 'topic', 'region', 'model', 'prompt', 'persona', 'tag', 'theme'],
    extra: fc.record({ asset: fc.constantFrom('Acme', 'Brandy') }),
    ...layered(sentimentRules),
  },
  { name: 'videoplatformVideos', groupDims: ['video', 'model', 'source_type'], extra: none, ...channel },
  {
    name: 'videoplatformChannels',
    groupDims: ['channel', 'video_category', 'model', 'source_type'],
    extra: none,
    ...channel,
  },
  {
    name: 'promptAnswers',
    groupDims: [],
    intervals: false,
    extra: fc.record({
      include: fc.subarray(
        [
          'run_id',
          'date',
          'model',
          'topic',
          'persona',
          'region',
          'tags',
          'prompt',
          'response',
          'mentions',
          'citations',
          'search_queries',
          'analysis_types',
        ],
        { minLength: 1 },
      ),
    }),
    ...layered(answersRules),
  },
  {
    name: 'shoppingProducts',
    groupDims: ['date', 'topic', 'prompt'],
    extra: fc.oneof(
      fc.constant({}),
      fc.constant({ include_merchants: true }),
      fc.record({ target_product: fc.constantFrom(...productIds), competitor_limit: fc.integer({ min: 0, max: 3 }) }),
    ),
    fixture: 'shopping',
    ...tree(shoppingFilterFields),
  },
  {
    name: 'factcheckClaims',
    groupDims: ['model', 'region', 'persona', 'prompt', 'topic', 'tag', 'theme'],
    maxGroups: 1,
    intervals: false,
    extra: fc.record({ include: fc.subarray(['theme', 'reasoning', 'models', 'evidence', 'citation_sources']) }),
    fixture: 'shopping',
    ...claims,
  },
];

const numRuns = Number(process.env.AEA_PROPERTY_RUNS ?? 6);

const refusal = (error: unknown) => `${(error as Error).constructor.name}: ${(error as Error).message}`;

/** Every page of the answer and its stream (each, or its refusal: a stream takes fewer options), as text. */
async function answer(
  engine: Engine,
  name: string,
  body: Record<string, unknown>,
): Promise<{ text: string; answered: boolean }> {
  const call = engine.org(ids.org1).report(name);
  const pages: unknown[] = [];
  let answered = true;
  try {
    let cursor: string | null = null;
    do {
      const page = (await call({ ...body, limit: 7, ...(cursor ? { cursor } : {}) })) as {
        info: { next_cursor: string | null };
      };
      pages.push(page);
      cursor = page.info.next_cursor;
    } while (cursor !== null && pages.length < 20);
  } catch (error) {
    pages.push(refusal(error));
    answered = false;
  }
  const events: unknown[] = [];
  const stream = typedReports[name as keyof typeof typedReports] ? engine.org(ids.org1).stream(name) : undefined;
  try {
    if (stream) for await (const e of stream({ ...body, max_results: 40 })) events.push(e);
  } catch (error) {
    events.push(refusal(error));
  }
  return { text: JSON.stringify({ pages, events }), answered };
}

describe('DuckDB and chdb give identical answers over every v2 Insights report', () => {
  it('draws every filter field and operator of every report', () => {
    expect(spaces.flatMap((s) => undrawn(s.catalog, pools).map((f) => `${s.name}: ${f}`))).toEqual([]);
  });

  it('a condition the filter repeats (tag alone and under an or) answers on chdb, as the full run found it did not', async () => {
    const tag = { field: 'tag', op: 'is', value: ids.tags[0] };
    const body = {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2026-12-31',
      interval: 'day',
      scope: 'owned',
      filter: { and: [{ or: [{ field: 'topic', op: 'is', value: ids.topics[0] }, tag] }, tag] },
    };
    const expected = await answer(engines.more.duck, 'visibility', body);
    expect(expected.answered).toBe(true);
    expect((await answer(engines.more.chdb, 'visibility', body)).text).toBe(expected.text);
  }, 120_000);

  it.each(spaces)(
    '$name: random filters, groupings, intervals and DST windows',
    async ({ name, groupDims, extra, catalog, shape, fixture = 'more', maxGroups = 2, intervals = true }) => {
      const { duck, chdb } = engines[fixture];
      const request = fc.record({
        filter: fc.option(reportFilterArbitrary(catalog, shape, pools, { emptyLists: true }), { nil: undefined }),
        group_by: fc.subarray([...groupDims], { maxLength: Math.min(maxGroups, groupDims.length) }),
        interval: fc.constantFrom('day', 'week', 'month'),
        window: fc.constantFrom(...windows),
        extra,
      });
      let answered = 0;
      const agree = async (r: typeof request extends fc.Arbitrary<infer R> ? R : never) => {
        const body = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          ...(groupDims.length > 0 ? { group_by: r.group_by } : {}),
          ...(intervals ? { interval: r.interval } : {}),
          ...(r.filter ? { filter: toWire(r.filter) } : {}),
          ...r.extra,
        };
        const expected = await answer(duck, name, body);
        if (expected.answered) answered++;
        expect((await answer(chdb, name, body)).text).toBe(expected.text);
      };
      await fc.assert(fc.asyncProperty(request, agree), { numRuns });
      // Refusals agree too, but a run of mostly refusals compares little: a few more requests, until some
      // answer (six runs of a report whose random filters are often refused once gave one answer).
      for (const r of fc.sample(request, 4 * numRuns)) {
        if (answered > numRuns / 5) break;
        await agree(r);
      }
      expect(answered).toBeGreaterThan(numRuns / 5);
    },
    300_000,
  );
});
