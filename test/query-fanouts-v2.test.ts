import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { toWire } from '../src/query/filter-node.ts';
import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { layeredFilter, typeLeaf, windows } from './helpers/more-v2.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';
import { referenceFanouts, type FanoutsQuery } from './reference/fanouts-v2.ts';

const fixture = moreV2Fixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org1);
const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };

async function everything(body: Record<string, unknown>, limit = 50) {
  return (await allPages(org(), 'queryFanouts', body, limit)).flatMap((p) => p.data);
}

/** group_by forms the docs allow: query only under prompt. */
const groupings = [
  undefined,
  [],
  ['prompt'],
  ['prompt', 'query'],
  ['query', 'prompt'],
  ['model'],
  ['region', 'date'],
  ['date', 'prompt', 'query'],
  ['prompt', 'model'],
];

describe('v2 query fan-outs against the reference evaluator', () => {
  it('agrees for the allowed groupings, metric combinations, analysis types and filters', async () => {
    let nonEmpty = 0;
    const request = fc.record({
      filter: layeredFilter(promptFilterFields, {}, typeLeaf),
      group_by: fc.constantFrom(...groupings),
      metrics: fc.option(
        fc.subarray(['total_fanouts', 'fanouts_per_execution', 'query_variations', 'share'], { minLength: 1 }),
        { nil: undefined },
      ),
      interval: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
      window: fc.constantFrom(...windows),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const byQuery = (r.group_by ?? []).includes('query');
        const metrics = r.metrics?.filter((m) => (byQuery ? m !== 'query_variations' : m !== 'share'));
        const q: FanoutsQuery = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          ...(r.group_by ? { group_by: r.group_by } : {}),
          ...(metrics && metrics.length > 0 ? { metrics } : {}),
          interval: r.interval,
          ...(r.filter ? { filter: r.filter } : {}),
        };
        const expected = referenceFanouts(fixture, q);
        if (expected.length > 0) nonEmpty++;
        expect(await everything({ ...q, filter: r.filter ? toWire(r.filter) : null })).toEqual(expected);
      }),
      { numRuns: 40 },
    );
    expectNotVacuous(nonEmpty, 40, 0.54);
  });

  it('a query’s shares within its prompt sum to 1', async () => {
    const rows = (await everything({ ...base, group_by: ['prompt', 'query'], metrics: ['share'] })) as {
      prompt_id: string;
      share: number;
    }[];
    const sums = new Map<string, number>();
    for (const r of rows) sums.set(r.prompt_id, (sums.get(r.prompt_id) ?? 0) + r.share);
    expect(sums.size).toBeGreaterThan(1);
    for (const s of sums.values()) expect(s).toBeCloseTo(1, 12);
  });
});

describe('v2 query fan-outs agree with v1 for the same window', () => {
  it('total_fanouts and fanouts_per_execution per prompt', async () => {
    const rows = (await everything({ ...base, start_date: '2026-03-01', end_date: '2026-08-31' })) as {
      prompt_id: string;
      prompt: string;
      total_fanouts: number;
      fanouts_per_execution: number;
    }[];
    const v1 = (
      await org().reports.queryFanoutsV1({
        ...base,
        start_date: '2026-03-01',
        end_date: '2026-09-01',
        metrics: ['total_fanouts', 'fanouts_per_execution'],
        dimensions: ['prompt'],
        filters: [{ field: 'analysis_type', operator: 'is', value: 'visibility' }],
      })
    ).data as { metrics: number[]; dimensions: string[] }[];
    expect(rows.map((r) => [r.prompt, r.total_fanouts, r.fanouts_per_execution])).toEqual(
      v1.map((r) => [r.dimensions[0], ...r.metrics]),
    );
  });
});

describe('pages, streams, info', () => {
  const bodies = [
    { ...base },
    { ...base, group_by: ['prompt', 'query'], metrics: ['share', 'total_fanouts'], max_results: 4 },
    { ...base, group_by: ['date'], interval: 'month' },
  ];
  it.each(bodies)('every page walked equals one big page equals the stream (%#)', async (body) => {
    const { max_results: cap, ...rest } = body as typeof body & { max_results?: number };
    const small = await everything(rest, 2);
    const big = await everything(rest, 50);
    expect(small).toEqual(big);
    const events = await streamEvents(org(), 'queryFanouts', { ...body, limit: 1, cursor: 'ignored-by-the-stream' });
    const expected = cap ? big.slice(0, cap) : big;
    expect(events[0]).toMatchObject({ event: 'summary', data: { count: expected.length, next_cursor: null } });
    expect(events.slice(1).map((e) => e.data)).toEqual(expected);
  });

  it('info carries the coverage note with the searching runs, the default group_by, metrics and analysis type', async () => {
    const page = await org().reports.queryFanouts({ ...base, limit: 2 });
    const searched = fixture.executions.filter(
      (e) =>
        e.category_id === ids.cat1 &&
        e.search_triggered &&
        String(e.day) >= base.start_date &&
        fixture
          .prompts!.find((p) => p.id === e.prompt_id)!
          .analysis_types!.toString()
          .includes('visibility'),
    ).length;
    expect(page.info).toMatchObject({
      group_by: ['prompt'],
      metrics: ['total_fanouts', 'fanouts_per_execution', 'query_variations'],
      analysis_types: ['visibility'],
      count: 2,
    });
    expect(page.info.coverage_note).toContain(`the ${searched} of `);
    expect(Object.keys(page.data[0]!)).toEqual([
      'prompt',
      'prompt_id',
      'rank',
      'total_fanouts',
      'fanouts_per_execution',
      'query_variations',
    ]);
  });
});
