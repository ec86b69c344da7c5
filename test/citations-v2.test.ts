import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ForbiddenError } from '../src/errors.ts';
import { toWire } from '../src/query/filter-node.ts';
import { citationFields } from '../src/reports/insights-v2/citations/citation-fields.ts';
import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { layeredFilter, typeLeaf, windows } from './helpers/more-v2.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';
import { ids } from './fixtures/insights.ts';
import { moreIds, moreV2Fixture } from './fixtures/more-v2.ts';
import { referenceCitations, type CitationsQuery } from './reference/citations-v2.ts';

const fixture = moreV2Fixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org1);
const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };
const all = { field: 'analysis_type', op: 'is', value: 'all' };

async function everything(body: Record<string, unknown>, limit = 50) {
  return (await allPages(org(), 'citations', body, limit)).flatMap((p) => p.data);
}

describe('v2 citations against the reference evaluator', () => {
  it('agrees for domains and pages, partitions, scopes, metrics and layered filters', async () => {
    let nonEmpty = 0;
    const request = fc.record({
      filter: layeredFilter(promptFilterFields, citationFields, typeLeaf),
      page: fc.boolean(),
      partitions: fc.subarray(['date', 'model', 'topic', 'region', 'persona', 'prompt'], { maxLength: 2 }),
      interval: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
      scope: fc.constantFrom('owned' as const, 'all' as const),
      metrics: fc.option(fc.subarray(['count', 'citation_share', 'rank', 'first_cited_at'], { minLength: 1 }), {
        nil: undefined,
      }),
      window: fc.constantFrom(...windows),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const metrics = r.page ? r.metrics : r.metrics?.filter((m) => m !== 'first_cited_at');
        const q: CitationsQuery = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          group_by: r.page ? ['page', ...r.partitions] : r.partitions,
          interval: r.interval,
          scope: r.scope,
          ...(metrics && metrics.length > 0 ? { metrics } : {}),
          ...(r.filter ? { filter: r.filter } : {}),
        };
        const expected = referenceCitations(fixture, q);
        if (expected.length > 0) nonEmpty++;
        expect(await everything({ ...q, filter: r.filter ? toWire(r.filter) : null })).toEqual(expected);
      }),
      { numRuns: 40 },
    );
    expectNotVacuous(nonEmpty, 40, 0.4);
  });

  it('domain is subdomain-aware and ignores case; a look-alike host is not a subdomain', async () => {
    const rows = await everything({
      ...base,
      filter: { and: [all, { field: 'domain', op: 'is', value: 'ACME.example' }] },
      group_by: ['page'],
    });
    const pages = rows.map((r) => String(r.page));
    expect(pages).toEqual(
      expect.arrayContaining([
        'https://acme.example/p',
        'https://shop.blog.acme.example/p',
        'https://WWW.Acme.Example/p',
      ]),
    );
    expect(pages.some((p) => p.includes('notacme'))).toBe(false);
  });

  it('citation_tag resolves the caller’s tags only, by name or id; values in one in leaf are or-ed', async () => {
    const byName = await everything({
      ...base,
      filter: { and: [all, { field: 'citation_tag', op: 'is', value: 'Forums' }] },
    });
    expect(byName.map((r) => r.domain)).toEqual(['reddit.com']);
    const foreign = await everything({
      ...base,
      filter: { and: [all, { field: 'citation_tag', op: 'is', value: moreIds.tags.foreign }] },
    });
    expect(foreign).toEqual([]);
    const either = await everything({
      ...base,
      filter: { and: [all, { field: 'citation_tag', op: 'in', value: ['Forums', moreIds.tags.press] }] },
    });
    expect(new Set(either.map((r) => r.domain))).toEqual(new Set(['reddit.com', 'news.example', 'acme.example']));
  });
});

describe('v2 citations agree with v1 citations for the same window and scope', () => {
  const v1 = async (body: Record<string, unknown>) =>
    (await org().report('citationsV1')({ ...body, pagination: { limit: 50_000 } })).data as {
      metrics: number[];
      dimensions: string[];
    }[];
  const cases = [
    { name: 'domains, every analysis type', v2: { filter: all }, v1: { dimensions: ['root_domain'], filters: [] } },
    {
      name: 'pages of the visibility prompts',
      v2: { group_by: ['page'] },
      v1: { dimensions: ['url'], filters: [{ field: 'analysis_type', operator: 'is', value: 'visibility' }] },
    },
    {
      name: 'domains by model, a topic and a citation category',
      v2: {
        group_by: ['model'],
        filter: {
          and: [
            all,
            { field: 'topic', op: 'is', value: ids.topics[0] },
            { field: 'citation_category', op: 'not_is', value: 'social' },
          ],
        },
      },
      v1: {
        dimensions: ['root_domain', 'model'],
        filters: [
          { field: 'topic_id', operator: 'is', value: ids.topics[0] },
          { field: 'citation_category', operator: 'not_is', value: 'social' },
        ],
      },
    },
  ];
  it.each(cases)('$name', async ({ v2: v2Body, v1: v1Body }) => {
    const window = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-09-30' };
    const rows = await everything({ ...window, ...v2Body, metrics: ['count', 'citation_share'] });
    const old = await v1({ ...window, end_date: '2026-10-01', metrics: ['count', 'citation_share'], ...v1Body });
    const entity = (r: Record<string, unknown>) => String(r.page ?? r.domain);
    const key = (r: Record<string, unknown>) =>
      JSON.stringify([entity(r), (r.model as { name: string } | undefined)?.name ?? null]);
    const fromV2 = new Map(rows.map((r) => [key(r), [r.count, r.citation_share]]));
    const fromV1 = new Map(old.map((r) => [JSON.stringify([r.dimensions[0], r.dimensions[1] ?? null]), r.metrics]));
    expect(fromV2.size).toBeGreaterThan(3);
    expect([...fromV2.keys()].sort()).toEqual([...fromV1.keys()].sort());
    for (const [k, [count, share]] of fromV2) {
      expect(count).toBe(fromV1.get(k)![0]);
      expect(share as number).toBeCloseTo(fromV1.get(k)![1]!, 12);
    }
  });
});

describe('pages, streams, info and tenancy', () => {
  const bodies = [
    { ...base },
    { ...base, group_by: ['page', 'date'], interval: 'month', metrics: ['first_cited_at', 'count'] },
    { ...base, group_by: ['model'], scope: 'owned', max_results: 5, filter: all },
  ];
  it.each(bodies)('every page walked equals one big page equals the stream (%#)', async (body) => {
    const { max_results: cap, ...rest } = body as typeof body & { max_results?: number };
    const small = await everything(rest, 4);
    const big = await everything(rest, 50);
    expect(small).toEqual(big);
    const events = await streamEvents(org(), 'citations', { ...body, limit: 1, cursor: 'ignored-by-the-stream' });
    const expected = cap ? big.slice(0, cap) : big;
    expect(events[0]).toMatchObject({
      event: 'summary',
      data: { count: expected.length, next_cursor: null, total_results: big.length },
    });
    expect(events.slice(1).map((e) => e.data)).toEqual(expected);
  });

  it('has the info fields of the public docs, defaults scope all, analysis type visibility, rank first in rows', async () => {
    const page = await org().reports.citations({ ...base, limit: 3 });
    expect(Object.keys(page.info)).toEqual([
      'total_results',
      'count',
      'next_cursor',
      'scope',
      'models',
      'metrics',
      'analysis_types',
      'start_date',
      'end_date',
      'filter',
      'fingerprint',
    ]);
    expect(page.info).toMatchObject({
      count: 3,
      scope: 'all',
      metrics: ['count', 'citation_share', 'rank'],
      analysis_types: ['visibility'],
      filter: null,
    });
    expect(Object.keys(page.data[0]!)).toEqual(['domain', 'rank', 'count', 'citation_share']);
    const typed = await org().reports.citations({
      ...base,
      filter: { field: 'analysis_type', op: 'in', value: ['factcheck', 'sentiment'] },
    });
    expect(typed.info).toMatchObject({ analysis_types: ['sentiment', 'factcheck'] });
  });

  it('refuses another organization’s category', async () => {
    await expect(org().reports.citations({ ...base, category_id: ids.cat2 })).rejects.toBeInstanceOf(ForbiddenError);
  });
});
