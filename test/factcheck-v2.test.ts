import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { and, toWire, type FilterNode, type FilterOp } from '../src/query/filter-node.ts';
import { claimFilterFields } from '../src/reports/insights-v2/factcheck/claim-filter.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { pools, windows } from './helpers/more-v2.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';
import { referenceFactcheck, type FactcheckQuery } from './reference/factcheck-v2.ts';

const fixture = moreV2Fixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org1);
const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };

/** The claims filter shape: a top-level and of single-field leaves, one per field. */
const claimFilter: fc.Arbitrary<FilterNode | null> = fc
  .subarray(Object.keys(claimFilterFields), { maxLength: 3 })
  .chain((fields) =>
    fc
      .tuple(
        ...fields.map((field) =>
          fc.constantFrom(...claimFilterFields[field]!.ops).chain((op: FilterOp) => {
            const pool = pools[field]!;
            const value =
              op === 'in' || op === 'not_in'
                ? fc.uniqueArray(fc.constantFrom(...pool.exact), { minLength: 1, maxLength: 3 })
                : op === 'is' || op === 'not_is'
                  ? fc.constantFrom(...pool.exact)
                  : fc.constantFrom(...pool.text);
            return value.map((v) => ({ kind: 'leaf', field, op, value: v }) as FilterNode);
          }),
        ),
      )
      .map((leaves) => and(leaves)),
  );

async function everything(name: string, body: Record<string, unknown>, limit = 50) {
  return (await allPages(org(), name, body, limit)).flatMap((p) => p.data);
}

const values = ['date', 'model', 'region', 'persona', 'prompt', 'topic', 'tag', 'theme'];

describe('v2 fact-check scores against the reference evaluator', () => {
  it('agrees for 0–2 dimensions, citation, intervals and filters', async () => {
    let nonEmpty = 0;
    const request = fc.record({
      filter: claimFilter,
      group_by: fc.oneof(
        fc.uniqueArray(fc.constantFrom(...values), { maxLength: 2 }),
        fc.constant<string[]>(['citation']),
      ),
      interval: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
      window: fc.constantFrom(...windows),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const q: FactcheckQuery = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          group_by: r.group_by,
          interval: r.interval,
          ...(r.filter ? { filter: r.filter } : {}),
        };
        const expected = referenceFactcheck(fixture, q);
        if (expected.length > 0) nonEmpty++;
        expect(await everything('factcheck', { ...q, filter: r.filter ? toWire(r.filter) : null })).toEqual(expected);
      }),
      { numRuns: 40 },
    );
    expectNotVacuous(nonEmpty, 40, 0.68);
  });
});

describe('v2 fact-check scores agree with the claims report’s sections', () => {
  it('each group of one dimension has the accuracy, accurate and inaccurate of the claims section of that value', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('model', 'region', 'persona', 'prompt', 'topic', 'tag', 'theme'),
        claimFilter,
        fc.constantFrom(...windows),
        async (dim, filter, window) => {
          if (dim === 'tag' && filter && JSON.stringify(toWire(filter)).includes('"field":"tag"')) return;
          const body = {
            category_id: ids.cat1,
            start_date: window[0],
            end_date: window[1],
            group_by: [dim],
            filter: filter ? toWire(filter) : null,
          };
          const scores = await everything('factcheck', body);
          const sections = (await everything('factcheckClaims', body, 100)).map((s) => ({
            [dim]: s[dim],
            accuracy: s.accuracy,
            accurate: s.accurate,
            inaccurate: s.inaccurate,
          }));
          expect(scores).toEqual(sections);
          const total = (await org().reports.factcheck({ ...body, group_by: [] })).data as {
            accurate: number;
            inaccurate: number;
          }[];
          if (dim === 'theme' && total.length > 0) {
            expect(total[0]!.accurate).toBe(scores.reduce((s, r) => s + (r.accurate as number), 0));
            expect(total[0]!.inaccurate).toBe(scores.reduce((s, r) => s + (r.inaccurate as number), 0));
          }
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe('pages, streams, info', () => {
  const bodies = [
    { ...base, group_by: ['citation'], end_date: '2026-05-31' },
    { ...base, group_by: ['tag', 'date'], interval: 'month', max_results: 5 },
  ];
  it.each(bodies)('every page walked equals one big page equals the stream (%#)', async (body) => {
    const { max_results: cap, ...rest } = body as typeof body & { max_results?: number };
    const small = await everything('factcheck', rest, 3);
    const big = await everything('factcheck', rest, 50);
    expect(small).toEqual(big);
    const events = await streamEvents(org(), 'factcheck', { ...body, limit: 1, cursor: 'ignored-by-the-stream' });
    const expected = cap ? big.slice(0, cap) : big;
    expect(events[0]).toMatchObject({ event: 'summary', data: { count: expected.length, next_cursor: null } });
    expect(events.slice(1).map((e) => e.data)).toEqual(expected);
  });

  it('has the info fields of the public docs and rows shaped per dimension', async () => {
    const page = await org().reports.factcheck({ ...base, group_by: ['citation'], limit: 1 });
    expect(Object.keys(page.info)).toEqual([
      'total_results',
      'count',
      'next_cursor',
      'models',
      'group_by',
      'start_date',
      'end_date',
      'filter',
      'fingerprint',
    ]);
    expect(page.data[0]).toEqual({
      citation: { url: expect.any(String), citation_category: expect.any(String) },
      accuracy: expect.any(Number),
      accurate: expect.any(Number),
      inaccurate: expect.any(Number),
    });
    const flat = await org().reports.factcheck(base);
    expect(flat.data).toEqual([
      { accuracy: expect.any(Number), accurate: expect.any(Number), inaccurate: expect.any(Number) },
    ]);
  });
});
