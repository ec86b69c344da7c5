import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ForbiddenError } from '../src/errors.ts';
import { toWire } from '../src/query/filter-node.ts';
import { shoppingFilterFields } from '../src/reports/insights-v2/shopping/shopping-products.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { filterArbitrary } from './helpers/filter-arbitrary.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';
import { ids } from './fixtures/insights.ts';
import { productIds, shoppingFixture } from './fixtures/shopping.ts';
import { referenceShopping, type ShoppingQuery } from './reference/shopping.ts';

const fixture = shoppingFixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org1);
const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };

const pools = {
  region: { exact: [...ids.regions, 'Germany', 'Nowhere'], text: ['', 'a', 'STATES'] },
  persona: { exact: [...ids.personas, 'Hiker', ''], text: ['', 'H'] },
  topic: { exact: [...ids.topics, 'Boots', 'Tents 50%_off'], text: ['%', '_', 'Tents'] },
  prompt: { exact: [...ids.prompts, 'Cheap boots'], text: ['%', 'boots', 'BOOTS'] },
  tag: { exact: [...ids.tags, 'alpha', '', 'gamma'], text: ['a'] },
  brand: { exact: ['Acme', 'Brandy', '', ids.assets[0]!, ids.assets[2]!, 'Nope'], text: ['A', 'a', 'randy', '', '%'] },
  merchant: { exact: ['REI', 'rei', 'Amazon', 'Shop 100%', 'Nope'], text: ['RE', 're', '100%', '%', 'a'] },
};

async function everything(body: Record<string, unknown>) {
  return (await allPages(org(), 'shoppingProducts', body, 50)).flatMap((p) => p.data);
}

describe('v2 shopping products against the reference evaluator', () => {
  it('agrees for random filters (brand and merchant inside or/not too), groupings, targets and merchants', async () => {
    let nonEmpty = 0;
    const request = fc.record({
      filter: fc.option(filterArbitrary(shoppingFilterFields, pools, 3), { nil: undefined }),
      group_by: fc.subarray(['date', 'topic', 'prompt'] as const, { maxLength: 2 }),
      interval: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
      mode: fc.constantFrom('plain', 'merchants', 'target'),
      target: fc.constantFrom('Brandy Hike', productIds[0]!, 'Plain Boot', 'Never Shown', 'No Such Product'),
      competitors: fc.integer({ min: 1, max: 4 }),
      window: fc.constantFrom(['2026-02-20', '2026-12-31'], ['2026-03-08', '2026-03-09'], ['2026-04-01', '2026-06-30']),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const q: ShoppingQuery = {
          category_id: ids.cat1,
          start_date: r.window[0]!,
          end_date: r.window[1]!,
          ...(r.mode !== 'merchants'
            ? { group_by: [...r.group_by], interval: r.interval }
            : { include_merchants: true }),
          ...(r.mode === 'target' ? { target_product: r.target, competitor_limit: r.competitors } : {}),
          ...(r.filter ? { filter: r.filter } : {}),
        };
        const expected = referenceShopping(fixture, q);
        if (expected.length > 0) nonEmpty++;
        expect(await everything({ ...q, filter: r.filter ? toWire(r.filter) : null })).toEqual(expected);
      }),
      { numRuns: 60 },
    );
    expectNotVacuous(nonEmpty, 60, 0.73);
  });

  it('position fractions sum to 1 and visibility is a fraction', async () => {
    const { data } = await org().reports.shoppingProducts({ ...base, group_by: ['topic'], limit: 50 });
    expect(data.length).toBeGreaterThan(3);
    for (const row of data) {
      expect(
        row.position1_percentage! +
          row.position2_percentage! +
          row.position3_percentage! +
          row.position_above3_percentage!,
      ).toBeCloseTo(1, 12);
      expect(row.visibility_score).toBeGreaterThan(0);
      expect(row.visibility_score).toBeLessThanOrEqual(1);
    }
  });
});

describe('modes', () => {
  it('group_by gives one row per product per bucket, so rows exceed count; count and total are products', async () => {
    const page = await org().reports.shoppingProducts({ ...base, group_by: ['date'], interval: 'month', limit: 2 });
    const data = page.data as { product: { name: string } }[];
    expect(page.info).toMatchObject({ count: 2, total_results: 6 });
    expect(data.length).toBeGreaterThan(2);
    expect(new Set(data.map((r) => r.product.name)).size).toBe(2);
  });

  it('target_product gives that product first, then the best products of other brands', async () => {
    const page = await org().reports.shoppingProducts({
      ...base,
      target_product: 'Acme Rain',
      competitor_limit: 2,
      metrics: ['visibility_rank'],
    });
    const data = page.data as { product: { name: string; brand: string } }[];
    expect(data[0]!.product.name).toBe('Acme Rain');
    expect(data.slice(1).every((r) => r.product.brand !== 'Acme')).toBe(true);
    expect(page.info).toMatchObject({ total_results: 3, count: 3 });
  });

  it('include_merchants adds merchants, url and images, and drops the position metrics by default', async () => {
    const page = await org().reports.shoppingProducts({ ...base, include_merchants: true, limit: 50 });
    expect(page.info).toMatchObject({
      include_merchants: true,
      metrics: ['visibility_score', 'average_position', 'visibility_rank', 'product_rating', 'product_num_reviews'],
    });
    const plain = (page.data as Record<string, unknown>[]).find(
      (r) => (r.product as { name: string }).name === 'Plain Boot',
    )!;
    expect(plain).toMatchObject({
      product: { name: 'Plain Boot', brand: '' },
      product_rating: null,
      product_num_reviews: null,
      merchants: [],
      product_image_urls: [],
    });
    expect(Object.keys(plain)).not.toContain('position1_percentage');
  });
});

describe('pages and streams', () => {
  const bodies = [
    { ...base },
    { ...base, group_by: ['prompt', 'date'], interval: 'week' },
    { ...base, include_merchants: true, filter: { field: 'merchant', op: 'contains_case_insensitive', value: 're' } },
    { ...base, group_by: ['topic'], max_results: 5 },
  ];
  it.each(bodies)('every page walked equals one big page equals the stream (%#)', async (body) => {
    const { max_results: cap, ...rest } = body as typeof body & { max_results?: number };
    const small = (await allPages(org(), 'shoppingProducts', rest, 1)).flatMap((p) => p.data);
    const big = await everything(rest);
    expect(small).toEqual(big);
    const events = await streamEvents(org(), 'shoppingProducts', body);
    expect(events[0]!.event).toBe('summary');
    const expected = cap ? big.slice(0, cap) : big;
    expect(events.slice(1).map((e) => e.data)).toEqual(expected);
    const products = new Set(expected.map((r) => JSON.stringify(r.product)));
    expect(events[0]!.data).toMatchObject({ count: products.size, next_cursor: null });
  });
});

describe('info block and tenancy', () => {
  it('has exactly the seed’s fields', async () => {
    const filter = {
      and: [
        { field: 'brand', op: 'in', value: ['Acme', 'Brandy'] },
        { and: [{ field: 'region', op: 'is', value: 'Germany' }] },
      ],
    };
    const page = await org().reports.shoppingProducts({
      ...base,
      filter,
      metrics: ['product_rating', 'visibility_score'],
    });
    expect(Object.keys(page.info)).toEqual([
      'total_results',
      'count',
      'next_cursor',
      'models',
      'start_date',
      'end_date',
      'filter',
      'include_merchants',
      'metrics',
      'fingerprint',
    ]);
    expect(page.info).toMatchObject({
      models: ['ChatGPT'],
      filter: {
        and: [
          { field: 'brand', op: 'in', value: ['Acme', 'Brandy'] },
          { field: 'region', op: 'is', value: 'Germany' },
        ],
      },
      include_merchants: false,
      metrics: ['product_rating', 'visibility_score'],
    });
    expect(Object.keys(page.data[0]!)).toEqual(['product', 'product_rating', 'visibility_score']);
  });

  it('refuses another organization’s category and never shows its products', async () => {
    await expect(org().reports.shoppingProducts({ ...base, category_id: ids.cat2 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const own = await engine.org(ids.org2).reports.shoppingProducts({ ...base, category_id: ids.cat2 });
    expect((own.data as { product: { name: string } }[]).map((r) => r.product.name)).toEqual(['Lendco Card']);
  });
});
