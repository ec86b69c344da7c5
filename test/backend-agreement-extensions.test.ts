import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';
import { domains, tabularFixture } from './fixtures/tabular.ts';

type Json = Record<string, any>;

/**
 * The extensions' SQL on both dialects: random reports, windows and combinations of fill, compare and
 * components answered by DuckDB and by chdb over the same tables, the same JSON text or the same refusal.
 * 10 requests in `npm test` (it was 16; a compared request on chdb costs the suite seconds of ClickHouse
 * planning), `AEA_PROPERTY_RUNS` sets more (200 in the full run of docs/scale-out.md). The first four are
 * fixed (`examples` below), so every run asks each compare value, fill and components on and off, each
 * window and both fixtures; and the other chdb tests ask each report without the extensions:
 * test/backend-agreement.test.ts (golden requests), test/backend-every-report.test.ts (the sample).
 */
const clock = () => new Date('2026-11-22T12:00:00Z');
const fixtures = { more: moreV2Fixture(), tabular: tabularFixture() };
const engines = {} as Record<keyof typeof fixtures, { duck: Engine; chdb: Engine }>;
beforeAll(async () => {
  for (const [name, rows] of Object.entries(fixtures) as [keyof typeof fixtures, Json][]) {
    // No time budget: it is tested on its own (test/service-limits.test.ts), and a loaded machine would turn a slow answer into a refusal here.
    engines[name] = {
      duck: await openFixture(rows, { cursorSecret: 'ext', clock, rollups: false, timeBudgetMs: 0 }),
      chdb: await openFixture(rows, { cursorSecret: 'ext', clock, backend: 'chdb', timeBudgetMs: 0 }),
    };
  }
}, 120_000);
afterAll(async () => {
  for (const pair of Object.values(engines)) {
    await pair.chdb.close();
    await pair.duck.close();
  }
});

const v2 =
  (group_by: string[], extra: Json = {}) =>
  (start: string, end: string) => ({
    category_id: ids.cat1,
    start_date: start,
    end_date: end,
    group_by,
    interval: 'month',
    ...extra,
  });
const v1 = (dimensions: string[], metrics: string[]) => (start: string, end: string) => ({
  category_id: ids.cat1,
  start_date: start,
  end_date: end,
  dimensions,
  metrics,
  date_interval: 'week',
});
const cases: {
  name: string;
  fixture: keyof typeof fixtures;
  body: (start: string, end: string) => Json;
  components: boolean;
}[] = [
  { name: 'visibility', fixture: 'more', body: v2(['date', 'model']), components: true },
  { name: 'citations', fixture: 'more', body: v2(['date', 'model']), components: false },
  {
    name: 'queryFanouts',
    fixture: 'more',
    body: v2(['date', 'prompt'], { metrics: ['total_fanouts', 'fanouts_per_execution'] }),
    components: true,
  },
  { name: 'factcheck', fixture: 'more', body: v2(['date']), components: true },
  { name: 'sentiment', fixture: 'more', body: v2(['date', 'topic'], { asset: 'Acme' }), components: true },
  { name: 'videoplatformChannels', fixture: 'more', body: v2(['channel']), components: false },
  {
    name: 'visibilityV1',
    fixture: 'tabular',
    body: v1(['date', 'model'], ['visibility_score', 'executions']),
    components: true,
  },
  {
    name: 'citationsV1',
    fixture: 'tabular',
    body: v1(['date', 'hostname'], ['count', 'first_cited_at']),
    components: false,
  },
  {
    name: 'referrals',
    fixture: 'tabular',
    body: (start, end) => ({
      domain: domains.own,
      start_date: start,
      end_date: end,
      metrics: ['visits'],
      dimensions: ['date', 'path'],
      date_interval: 'day',
    }),
    components: false,
  },
];

const answer = (engine: Engine, name: string, body: Json, options: Json) =>
  (engine.org(ids.org1).reports as Json)[name](body, options).then(
    (r: unknown) => JSON.stringify(r),
    (e: Error) => `refused: ${e.message}`,
  );

describe('the extensions on DuckDB and chdb', () => {
  it('give the same answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: cases.length - 1 }),
        fc.constantFrom(['2026-03-01', '2026-06-30'], ['2026-10-15', '2026-11-15'], ['2026-02-20', '2026-12-31']),
        fc.record({
          fill: fc.boolean(),
          compare: fc.constantFrom(null, 'previous_period', 'previous_year', '2026-01-01..2026-02-28'),
          components: fc.boolean(),
        }),
        async (i, [start, end], ask) => {
          const c = cases[i]!;
          const options = {
            ...(ask.fill ? { fill: 'zero' } : {}),
            ...(ask.compare ? { compare: ask.compare } : {}),
            ...(ask.components && c.components ? { components: true } : {}),
          };
          const pair = engines[c.fixture];
          const [duck, chdb] = [
            await answer(pair.duck, c.name, c.body(start!, end!), options),
            await answer(pair.chdb, c.name, c.body(start!, end!), options),
          ];
          expect(duck).not.toMatch(/^refused/);
          expect(chdb).toBe(duck);
        },
      ),
      {
        numRuns: Number(process.env.AEA_PROPERTY_RUNS ?? 10),
        // Cheap reports where that covers the same options: v2 visibility with all three costs seconds on chdb.
        examples: [
          [3, ['2026-03-01', '2026-06-30'], { fill: true, compare: 'previous_period', components: true }],
          [7, ['2026-10-15', '2026-11-15'], { fill: false, compare: 'previous_year', components: false }],
          [8, ['2026-02-20', '2026-12-31'], { fill: true, compare: '2026-01-01..2026-02-28', components: false }],
          [5, ['2026-03-01', '2026-06-30'], { fill: false, compare: null, components: false }],
        ],
      },
    );
  }, 300_000);
});

describe('explain on chdb', () => {
  it('shows the statements ClickHouse receives, in its dialect, with its plan', async () => {
    const body = cases[1]!.body('2026-03-01', '2026-06-30');
    const { explain } = (await (engines.more.chdb.org(ids.org1).reports as Json).citations(body, {
      explain: true,
      compare: 'previous_period',
    })) as Json;
    expect(explain.statements.map((s: Json) => s.role)).toEqual(['page (1 of 2)', 'page (2 of 2)']);
    for (const s of explain.statements) {
      expect(s.sql).toMatch(/\{p1:String\}/);
      expect(s.sql).not.toMatch(/\$1\b/);
      expect(s.explain).toMatch(/ReadFromStorage|ReadFrom|Expression/);
    }
    const duck = (await (engines.more.duck.org(ids.org1).reports as Json).citations(body, {
      explain: true,
      compare: 'previous_period',
    })) as Json;
    expect(duck.explain.statements.map((s: Json) => s.role)).toEqual(['page']);
    expect(duck.explain.statements[0].sql).toMatch(/\$1\b/);
  });
});
