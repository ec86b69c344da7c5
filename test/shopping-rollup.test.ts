import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { toWire, type FilterNode } from '../src/query/filter-node.ts';

import { shoppingDaily } from '../src/reports/insights/shopping-rollup.ts';
import { shoppingProductsReport } from '../src/reports/insights-v2/shopping/shopping-products.ts';
import { pageSql } from './helpers/page-sql.ts';

import { openFixture } from './helpers/arrow-fixture.ts';
import { expectGolden } from './helpers/golden.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { ids } from './fixtures/insights.ts';
import { productIds, shoppingFixture } from './fixtures/shopping.ts';

const base = shoppingFixture();
const answers = [
  ...new Set(base.shopping_results.filter((r) => r.category_id === ids.cat1).map((r) => r.execution_id as string)),
];
const twinOf = (id: string) =>
  `00000000-0000-4000-8000-${(0x900000 + answers.indexOf(id)).toString(16).padStart(12, '0')}`;
/** Every other shopping answer gets a twin on the same day (other positions), so days hold several answers. */
const fixture = {
  ...base,
  shopping_results: [
    ...base.shopping_results,
    ...base.shopping_results
      .filter((r) => answers.indexOf(r.execution_id as string) % 2 === 0)
      .map((r) => ({
        ...r,
        execution_id: twinOf(r.execution_id as string),
        position: ((r.position as number) % 4) + 1,
      })),
  ],
};
let withRollups: Engine;
let factsOnly: Engine;
beforeAll(async () => {
  [withRollups, factsOnly] = await Promise.all([
    openFixture(fixture, { cursorSecret: 'same' }),
    openFixture(fixture, { cursorSecret: 'same', rollups: false }),
  ]);
  await withRollups.core.rollups.warm(shoppingDaily, [ids.cat1]);
});
afterAll(() => {
  withRollups.close();
  factsOnly.close();
});

type Body = Record<string, unknown>;
const reads = async (engine: Engine, body: Body) =>
  (await pageSql(shoppingProductsReport as never, body, engine.org(ids.org1).context(), 'use')).query.text.includes(
    'rollup_shopping_daily',
  );
/** Every page as JSON text: the rollup's answer must be the facts' to the byte, floats included. */
const pagesText = async (engine: Engine, body: Body) =>
  JSON.stringify(await allPages(engine.org(ids.org1), 'shoppingProducts', body, 3));

const filters: (FilterNode | undefined)[] = [
  undefined,
  undefined,
  { kind: 'leaf', field: 'topic', op: 'is', value: 'Boots' },
  { kind: 'leaf', field: 'brand', op: 'in', value: ['Acme', 'Brandy'] },
];

describe('the shopping daily rollup', () => {
  it('answers every request it serves exactly as the facts do (pages and streams), and serves just those', async () => {
    const used = new Set<boolean>();
    const request = fc.record({
      filter: fc.constantFrom(...filters),
      group_by: fc.constantFrom([], ['date'], ['date'], ['topic'], ['date', 'prompt']),
      interval: fc.constantFrom('day', 'week', 'month'),
      mode: fc.constantFrom('plain', 'plain', 'merchants', 'target'),
      target: fc.constantFrom('Brandy Hike', productIds[0]!, 'Never Shown'),
      metrics: fc.option(
        fc.subarray(
          [
            'visibility_score',
            'average_position',
            'visibility_rank',
            'position1_percentage',
            'position_above3_percentage',
            'product_rating',
          ],
          { minLength: 1 },
        ),
        { nil: undefined },
      ),
      window: fc.constantFrom(
        ['2026-02-20', '2026-12-31'],
        ['2026-03-08', '2026-03-09'],
        ['2026-04-01', '2026-06-30'],
        ['2026-10-31', '2026-11-02'],
      ),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const merchants = r.mode === 'merchants';
        const body = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          ...(merchants ? { include_merchants: true } : { group_by: r.group_by, interval: r.interval }),
          ...(r.mode === 'target' ? { target_product: r.target, competitor_limit: 2 } : {}),
          ...(r.metrics && !merchants ? { metrics: r.metrics } : {}),
          filter: r.filter ? toWire(r.filter) : null,
        };
        const servable = r.filter === undefined && (merchants || r.group_by.every((d) => d === 'date'));
        const read = await reads(withRollups, body);
        expect(read).toBe(servable);
        used.add(read);
        expect(await pagesText(withRollups, body)).toBe(await pagesText(factsOnly, body));
        if (read)
          expect(await streamEvents(withRollups.org(ids.org1), 'shoppingProducts', body)).toEqual(
            await streamEvents(factsOnly.org(ids.org1), 'shoppingProducts', body),
          );
      }),
      { numRuns: 60 },
    );
    expect([...used].sort()).toEqual([false, true]);
  });

  it('is not read once a prompt changes, and answers as the facts do once rebuilt', async () => {
    const engine = await openFixture(fixture, { cursorSecret: 'same' });
    try {
      await engine.core.rollups.warm(shoppingDaily, [ids.cat1]);
      const body = {
        category_id: ids.cat1,
        start_date: '2026-02-20',
        end_date: '2026-12-31',
        group_by: ['date'],
        interval: 'month',
      };
      expect(await reads(engine, body)).toBe(true);
      const before = await pagesText(engine, body);
      await engine.org(ids.org1).call('PATCH', `/v1/org/categories/${ids.cat1}/prompts/status`, {
        body: { prompt_ids: [ids.prompts[0]], status: 'deleted' },
      });
      expect(await reads(engine, body)).toBe(false);
      const facts = await pagesText(engine, body);
      expect(facts).not.toBe(before);
      await engine.core.rollups.warm(shoppingDaily, [ids.cat1]);
      expect(await reads(engine, body)).toBe(true);
      expect(await pagesText(engine, body)).toBe(facts);
    } finally {
      engine.close();
    }
  });

  it('golden SQL of a rollup read', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2026-12-31',
      group_by: ['date'],
      interval: 'week',
      limit: 5,
    };
    const { query } = await pageSql(shoppingProductsReport as never, body, withRollups.org(ids.org1).context(), 'use');
    expect(query.text).toContain('rollup_shopping_daily');
    expectGolden(
      join(fileURLToPath(new URL('./golden', import.meta.url)), 'shopping', 'rollup-by-week.sql'),
      `${query.text}\n-- params: ${JSON.stringify(query.params)}\n`,
    );
  });
});
