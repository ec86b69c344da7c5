import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError } from '../src/errors.ts';
import { toWire } from '../src/query/filter-node.ts';
import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { sentimentCatalog } from '../src/reports/insights-v2/sentiment/sentiment.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { layeredFilter, windows } from './helpers/more-v2.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';
import { referenceSentiment, type SentimentQuery } from './reference/sentiment-v2.ts';

const fixture = moreV2Fixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org1);
const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31', asset: 'Acme' };
const { theme, claim } = sentimentCatalog;

async function everything(body: Record<string, unknown>, limit = 50) {
  return (await allPages(org(), 'sentiment', body, limit)).flatMap((p) => p.data);
}

const dims = ['date', 'topic', 'region', 'model', 'prompt', 'persona', 'tag', 'theme', 'claim', 'run', 'competitor'];

describe('v2 sentiment against the reference evaluator', () => {
  it('agrees per brand, per group (up to two), per cited page, with comparisons, occurrence and cited websites', async () => {
    let nonEmpty = 0;
    const request = fc.record({
      filter: layeredFilter(promptFilterFields, { theme: theme!, claim: claim! }),
      source: fc.constantFrom('asset' as const, 'asset' as const, 'citation' as const),
      group_by: fc.uniqueArray(fc.constantFrom(...dims), { maxLength: 2 }),
      interval: fc.constantFrom('day' as const, 'month' as const),
      asset: fc.constantFrom('Acme', 'Zeta', ids.assets[1]!),
      comparison: fc.option(
        fc.constantFrom<[string, string]>(['2026-02-20', '2026-05-31'], ['2026-08-01', '2026-12-31']),
        { nil: undefined },
      ),
      occurrence: fc.boolean(),
      sites: fc.boolean(),
      window: fc.constantFrom(...windows),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const groupBy = r.source === 'citation' ? [] : r.group_by;
        const byAssessment = groupBy.includes('theme') || groupBy.includes('claim');
        const rowFiltered = !!r.filter && JSON.stringify(toWire(r.filter)).match(/"field":"(theme|claim)"/) !== null;
        const comparison = groupBy.includes('date') ? undefined : r.comparison;
        const q: SentimentQuery = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          asset: r.asset,
          source: r.source,
          group_by: groupBy,
          interval: r.interval,
          ...(r.occurrence && (byAssessment || rowFiltered)
            ? { metrics: ['occurrence', 'positive_sentiment', 'negative_sentiment'] }
            : {}),
          ...(comparison ? { comparison } : {}),
          ...(r.sites && byAssessment ? { include_cited_websites: true } : {}),
          ...(r.filter ? { filter: r.filter } : {}),
        };
        const { comparison: c, ...rest } = q;
        const body = {
          ...rest,
          ...(c ? { comparison_start_date: c[0], comparison_end_date: c[1] } : {}),
          filter: r.filter ? toWire(r.filter) : null,
        };
        const expected = referenceSentiment(fixture, q);
        if (expected.length > 0) nonEmpty++;
        expect(await everything(body)).toEqual(expected);
      }),
      { numRuns: 40 },
    );
    expectNotVacuous(nonEmpty, 40, 0.44);
  });

  it('occurrence: the row’s answers over its group’s answers without theme or claim, grouped or filtered', async () => {
    const theme = { kind: 'leaf', field: 'theme', op: 'in', value: ['Price', 'nope'] } as const;
    const queries: SentimentQuery[] = [
      { ...base, group_by: ['claim'], metrics: ['occurrence'] },
      { ...base, group_by: ['model', 'theme'], metrics: ['occurrence'] },
      { ...base, group_by: ['persona'], metrics: ['occurrence'], filter: theme },
      { ...base, source: 'citation', metrics: ['occurrence'], filter: theme },
    ];
    for (const q of queries) {
      const expected = referenceSentiment(fixture, q);
      expect(expected.some((r) => (r.occurrence as number) < 100)).toBe(true);
      expect(await everything({ ...q, filter: q.filter ? toWire(q.filter) : null })).toEqual(expected);
    }
  });

  it('positive and negative sum to 100 on every row, previous blocks included', async () => {
    const rows = await everything({
      ...base,
      group_by: ['theme', 'model'],
      comparison_start_date: '2026-02-20',
      comparison_end_date: '2026-06-30',
    });
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) {
      for (const m of [r, r.previous].filter(Boolean) as Record<string, number>[])
        expect(m.positive_sentiment! + m.negative_sentiment!).toBe(100);
    }
  });
});

describe('pages, streams, info', () => {
  const bodies = [
    { ...base, group_by: ['theme'] },
    { ...base, source: 'citation', metrics: ['positive_sentiment'], max_results: 4 },
    { ...base, group_by: ['date', 'competitor'], interval: 'month' },
  ];
  it.each(bodies)('every page walked equals one big page equals the stream (%#)', async (body) => {
    const { max_results: cap, ...rest } = body as typeof body & { max_results?: number };
    const small = await everything(rest, 3);
    const big = await everything(rest, 50);
    expect(small).toEqual(big);
    const events = await streamEvents(org(), 'sentiment', { ...body, limit: 1, cursor: 'ignored-by-the-stream' });
    const expected = cap ? big.slice(0, cap) : big;
    expect(events[0]).toMatchObject({ event: 'summary', data: { count: expected.length, next_cursor: null } });
    expect(events.slice(1).map((e) => e.data)).toEqual(expected);
  });

  it('echoes the brand by name, the source and the comparison period', async () => {
    const page = await org().reports.sentiment({
      ...base,
      asset: ids.assets[0]!,
      comparison_start_date: '2026-01-01',
      comparison_end_date: '2026-01-31',
    });
    expect(Object.keys(page.info)).toEqual([
      'total_results',
      'count',
      'next_cursor',
      'asset',
      'source',
      'models',
      'metrics',
      'group_by',
      'start_date',
      'end_date',
      'comparison_start_date',
      'comparison_end_date',
      'filter',
      'fingerprint',
    ]);
    expect(page.info).toMatchObject({
      asset: 'Acme',
      source: 'asset',
      metrics: ['positive_sentiment', 'negative_sentiment'],
      comparison_start_date: '2026-01-01',
    });
    // null-rule: comparison-previous-null
    expect(page.data[0]).toEqual({
      rank: 1,
      positive_sentiment: expect.any(Number),
      negative_sentiment: expect.any(Number),
      previous: null,
    });
  });

  it('a brand the category does not track is a 422 on asset, before any row is read or streamed', async () => {
    for (const run of [
      () => org().reports.sentiment({ ...base, asset: 'Lendco' }),
      () => streamEvents(org(), 'sentiment', { ...base, asset: 'Nope' }),
    ]) {
      const error = await (run() as Promise<unknown>).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'asset'] });
    }
  });
});
