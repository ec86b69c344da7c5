import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { toWire } from '../src/query/filter-node.ts';
import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { typedReports } from '../src/reports/report-types.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { filterArbitrary } from './helpers/filter-arbitrary.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';
import { claimsFixture } from './fixtures/claims.ts';
import { productIds, shoppingFixture } from './fixtures/shopping.ts';

/**
 * Random requests to every v2 Insights report answered by DuckDB and by chdb over the same tables: the
 * same JSON text, page after page and as a stream, or the same refusal. The windows include both DST
 * changes of 2026 (America/New_York: 8 March, 1 November).
 */
const clock = () => new Date('2026-11-22T12:00:00Z');
/** The report fixtures: the v2 Insights data, and shopping with fact-check claims. */
const fixtures = { more: moreV2Fixture(), shopping: { ...shoppingFixture(), ...claimsFixture() } };
const engines = {} as Record<keyof typeof fixtures, { duck: Engine; chdb: Engine }>;
beforeAll(async () => {
  for (const [name, rows] of Object.entries(fixtures) as [keyof typeof fixtures, (typeof fixtures)[keyof typeof fixtures]][]) {
    engines[name] = { duck: await openFixture(rows, { cursorSecret: 'agree', clock, rollups: false }), chdb: await openFixture(rows, { cursorSecret: 'agree', clock, backend: 'chdb' }) };
  }
}, 120_000);
afterAll(async () => {
  for (const pair of Object.values(engines)) {
    await pair.chdb.close();
    await pair.duck.close();
  }
});

const pools = {
  model: { exact: [...ids.models, 'ChatGPT', 'Perplexity', '', 'nope'], text: ['', 'a', 'GPT', 'p'] },
  region: { exact: [...ids.regions, 'Germany', 'United States', 'Nowhere'], text: ['', 'a', 'STATES', 'e'] },
  persona: { exact: [...ids.personas, 'Hiker', '', ids.foreign.persona], text: ['', 'H', 'k'] },
  topic: { exact: [...ids.topics, 'Boots', 'Tents 50%_off', ids.foreign.topic], text: ['%', '_', 'boots', 'Tents', ''] },
  prompt: { exact: [...ids.prompts, 'Cheap boots', ids.foreign.prompt], text: ["'", '%', '_', 'boots', 'BOOTS', '100%'] },
  tag: { exact: [...ids.tags, 'alpha', 'beta', '', ids.foreign.tag], text: ['a'] },
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
  /** False for a report whose filters are narrower than the shared prompt fields' (one leaf per field). */
  readonly filters?: boolean;
  readonly fixture?: keyof typeof fixtures;
  readonly maxGroups?: number;
  /** False for a report that takes no interval. */
  readonly intervals?: boolean;
}

const none = fc.constant({});
const spaces: readonly ReportSpace[] = [
  { name: 'visibility', groupDims: ['date', 'model', 'topic', 'region', 'prompt', 'persona'], extra: fc.record({ scope: fc.constantFrom('owned', 'all') }) },
  { name: 'citations', groupDims: ['page', 'date', 'model', 'topic', 'region', 'persona', 'prompt'], extra: fc.record({ scope: fc.constantFrom('owned', 'all') }) },
  { name: 'queryFanouts', groupDims: ['prompt', 'query', 'model', 'region', 'date'], extra: none },
  { name: 'factcheck', groupDims: ['date', 'model', 'region', 'persona', 'prompt', 'topic', 'tag', 'theme', 'citation'], extra: none, filters: false },
  { name: 'sentiment', groupDims: ['date', 'topic', 'region', 'model', 'prompt', 'persona', 'tag', 'theme'], extra: fc.record({ asset: fc.constantFrom('Acme', 'Brandy') }) },
  { name: 'videoplatformVideos', groupDims: ['video', 'model', 'source_type'], extra: none },
  { name: 'videoplatformChannels', groupDims: ['channel', 'video_category', 'model', 'source_type'], extra: none },
  {
    name: 'promptAnswers',
    groupDims: [],
    intervals: false,
    filters: false,
    extra: fc.record({ include: fc.subarray(['run_id', 'date', 'model', 'topic', 'persona', 'region', 'tags', 'prompt', 'response', 'mentions', 'citations', 'search_queries', 'analysis_types'], { minLength: 1 }) }),
  },
  {
    name: 'shoppingProducts',
    groupDims: ['date', 'topic', 'prompt'],
    extra: fc.oneof(fc.constant({}), fc.constant({ include_merchants: true }), fc.record({ target_product: fc.constantFrom(...productIds), competitor_limit: fc.integer({ min: 0, max: 3 }) })),
    fixture: 'shopping',
  },
  {
    name: 'factcheckClaims',
    groupDims: ['model', 'region', 'persona', 'prompt', 'topic', 'tag', 'theme'],
    maxGroups: 1,
    intervals: false,
    extra: fc.record({ include: fc.subarray(['theme', 'reasoning', 'models', 'evidence', 'citation_sources']) }),
    filters: false,
    fixture: 'shopping',
  },
];

const refusal = (error: unknown) => `${(error as Error).constructor.name}: ${(error as Error).message}`;

/** Every page of the answer and its stream (each, or its refusal: a stream takes fewer options), as text. */
async function answer(engine: Engine, name: string, body: Record<string, unknown>): Promise<{ text: string; answered: boolean }> {
  const call = engine.org(ids.org1).report(name);
  const pages: unknown[] = [];
  let answered = true;
  try {
    let cursor: string | null = null;
    do {
      const page = (await call({ ...body, limit: 7, ...(cursor ? { cursor } : {}) })) as { info: { next_cursor: string | null } };
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
  it.each(spaces)('$name: random filters, groupings, intervals and DST windows', async ({ name, groupDims, extra, filters = true, fixture = 'more', maxGroups = 2, intervals = true }) => {
    const { duck, chdb } = engines[fixture];
    const request = fc.record({
      filter: filters ? fc.option(filterArbitrary(promptFilterFields, pools, 2), { nil: undefined }) : fc.constant(undefined),
      group_by: fc.subarray([...groupDims], { maxLength: Math.min(maxGroups, groupDims.length) }),
      interval: fc.constantFrom('day', 'week', 'month'),
      window: fc.constantFrom(...windows),
      extra,
    });
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const body = { category_id: ids.cat1, start_date: r.window[0], end_date: r.window[1], ...(groupDims.length > 0 ? { group_by: r.group_by } : {}), ...(intervals ? { interval: r.interval } : {}), ...(r.filter ? { filter: toWire(r.filter) } : {}), ...r.extra };
        const expected = await answer(duck, name, body);
        if (expected.answered) answered++;
        expect((await answer(chdb, name, body)).text).toBe(expected.text);
      }),
      { numRuns: 15 },
    );
    expect(answered).toBeGreaterThan(3);
  }, 300_000);
});
