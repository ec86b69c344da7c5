import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../src/errors.ts';
import { toWire } from '../src/query/filter-node.ts';
import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { filterArbitrary } from './helpers/filter-arbitrary.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';
import { referenceVisibility, type VisibilityQuery } from './reference/visibility.ts';

const fixture = insightsFixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org1);
const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };

const pools = {
  model: { exact: [...ids.models, 'ChatGPT', 'Perplexity', '', 'nope'], text: ['', 'a', 'GPT', 'p'] },
  region: { exact: [...ids.regions, 'Germany', 'United States', 'Nowhere'], text: ['', 'a', 'STATES', 'e'] },
  persona: { exact: [...ids.personas, 'Hiker', '', ids.foreign.persona, 'Borrower'], text: ['', 'H', 'k'] },
  topic: {
    exact: [...ids.topics, 'Boots', 'Tents 50%_off', ids.foreign.topic],
    text: ['%', '_', 'boots', 'Tents', ''],
  },
  prompt: {
    exact: [...ids.prompts, 'Cheap boots', ids.foreign.prompt],
    text: ["'", '%', '_', 'boots', 'BOOTS', '100%'],
  },
  tag: { exact: [...ids.tags, 'alpha', 'beta', '', ids.foreign.tag, 'gamma'], text: ['a'] },
};

async function everything(body: Record<string, unknown>) {
  const pages = await allPages(org(), 'visibility', body, 50);
  return pages.flatMap((p) => p.data);
}

describe('v2 visibility against the reference evaluator', () => {
  it('agrees for random filters, groupings, scopes and sorts', async () => {
    let nonEmpty = 0;
    const request = fc.record(
      {
        filter: filterArbitrary(promptFilterFields, pools, 3),
        group_by: fc.subarray<NonNullable<VisibilityQuery['group_by']>[number]>(
          ['date', 'model', 'topic', 'region', 'prompt', 'persona'],
          { maxLength: 2 },
        ),
        interval: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
        scope: fc.constantFrom('owned' as const, 'all' as const),
        sort: fc.option(
          fc.record({
            field: fc.constantFrom('visibility_score', 'share_of_voice', 'average_position'),
            dir: fc.constantFrom('asc' as const, 'desc' as const),
          }),
          { nil: undefined },
        ),
        assets: fc.option(
          fc.constantFrom<VisibilityQuery['assets']>(
            'Acme',
            ['Brandy', 'Zeta'],
            { op: 'not_in', value: ['Acme'] },
            { op: 'is', value: ids.assets[1]! },
          ),
          { nil: undefined },
        ),
        window: fc.constantFrom(
          ['2026-02-20', '2026-12-31'],
          ['2026-03-08', '2026-03-08'],
          ['2026-11-01', '2026-11-02'],
          ['2026-04-01', '2026-05-15'],
        ),
      },
      { requiredKeys: ['filter', 'group_by', 'interval', 'scope', 'window'] },
    );
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const q: VisibilityQuery = {
          category_id: ids.cat1,
          start_date: r.window[0]!,
          end_date: r.window[1]!,
          group_by: r.group_by,
          interval: r.interval,
          scope: r.scope,
          filter: r.filter,
          ...(r.sort ? { sort: r.sort } : {}),
          ...(r.assets ? { assets: r.assets } : {}),
        };
        const body = { ...q, filter: toWire(r.filter) };
        const expected = referenceVisibility(fixture, q);
        if (expected.length > 0) nonEmpty++;
        expect(await everything(body)).toEqual(expected);
      }),
      { numRuns: 100 },
    );
    expectNotVacuous(nonEmpty, 100, 0.53);
  });
});

describe('pages and streams', () => {
  const bodies = [
    { ...base, scope: 'all' },
    { ...base, scope: 'all', group_by: ['model', 'date'], interval: 'month' },
    { ...base, scope: 'all', group_by: ['persona'], sort: { field: 'average_position', dir: 'desc' } },
    { ...base, scope: 'owned', group_by: ['date'], interval: 'week', max_results: 7 },
  ];
  it.each(bodies)('every page walked equals one big page equals the stream (%#)', async (body) => {
    const { max_results: cap, ...rest } = body as typeof body & { max_results?: number };
    const small = (await allPages(org(), 'visibility', rest, 3)).flatMap((p) => p.data);
    const big = (await allPages(org(), 'visibility', rest, 50)).flatMap((p) => p.data);
    expect(small).toEqual(big);
    const events = await streamEvents(org(), 'visibility', { ...body, limit: 1, cursor: 'ignored-by-the-stream' });
    expect(events[0]!.event).toBe('summary');
    expect(events.slice(1).every((e) => e.event === 'result')).toBe(true);
    const expected = cap ? big.slice(0, cap) : big;
    expect(events.slice(1).map((e) => e.data)).toEqual(expected);
    expect(events[0]!.data.total_results).toBe(big.length);
    expect(events[0]!.data.count).toBe(expected.length);
  });

  it('reports total, count and a null next_cursor on the last page', async () => {
    const pages = await allPages(org(), 'visibility', { ...base, scope: 'all' }, 2);
    expect(pages.map((p) => p.info.count)).toEqual([2, 2]);
    expect(pages[0]!.info).toMatchObject({ total_results: 4 });
    expect(pages[1]!.info).toMatchObject({ total_results: 4, next_cursor: null });
    expect(pages.flatMap((p) => p.data).map((r) => (r.asset as { name: string }).name)).toContain('Quiet');
  });

  it('refuses a tampered cursor and a cursor of another query with a 422', async () => {
    const first = await org().reports.visibility({ ...base, scope: 'all', limit: 1 });
    const cursor = first.info.next_cursor!;
    const tampered = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
    for (const [bad, body] of [
      [tampered, { ...base, scope: 'all' }],
      [cursor, { ...base, scope: 'owned' }],
      [cursor, { ...base, scope: 'all', end_date: '2026-12-30' }],
      ['not-a-cursor', { ...base }],
    ] as const) {
      const error = await org()
        .reports.visibility({ ...body, cursor: bad })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).detail[0]!.loc).toEqual(['body', 'cursor']);
    }
    const sameQueryOtherLimit = await org().reports.visibility({ ...base, scope: 'all', limit: 2, cursor });
    expect(sameQueryOtherLimit.data.length).toBe(2);
  });
});

describe('ET days across DST', () => {
  it('counts an answer in the ET day of its instant, on both DST days', async () => {
    const day = async (d: string) =>
      (
        await org().reports.visibility({
          category_id: ids.cat1,
          start_date: d,
          end_date: d,
          scope: 'all',
          group_by: ['date'],
          filter: null,
        })
      ).data;
    const expectedDays = (d: string) =>
      fixture.executions.filter((e) => e.category_id === ids.cat1 && e.day === d).length;
    expect(expectedDays('2026-03-08')).toBeGreaterThan(0);
    for (const d of ['2026-03-08', '2026-03-09', '2026-11-01', '2026-11-02']) {
      const rows = await day(d);
      expect(new Set(rows.map((r) => r.date))).toEqual(new Set(rows.length ? [d] : []));
    }
  });

  it('buckets weeks from Monday and months from the 1st in ET, starting before start_date', async () => {
    const cases: VisibilityQuery[] = [
      {
        category_id: ids.cat1,
        start_date: '2026-03-04',
        end_date: '2026-03-10',
        scope: 'owned',
        group_by: ['date'],
        interval: 'week',
      },
      {
        category_id: ids.cat1,
        start_date: '2026-10-31',
        end_date: '2026-11-02',
        scope: 'owned',
        group_by: ['date'],
        interval: 'month',
      },
      {
        category_id: ids.cat1,
        start_date: '2026-11-01',
        end_date: '2026-11-01',
        scope: 'all',
        group_by: ['date'],
        interval: 'week',
      },
    ];
    const weeks = (await org().reports.visibility(cases[0]!)).data;
    expect(weeks.map((r) => r.date)).toEqual(['2026-03-02', '2026-03-09']);
    const months = (await org().reports.visibility(cases[1]!)).data;
    expect(months.map((r) => r.date)).toContain('2026-11-01');
    expect(months.every((r) => String(r.date).endsWith('-01'))).toBe(true);
    const fallBack = (await org().reports.visibility(cases[2]!)).data;
    expect(new Set(fallBack.map((r) => r.date))).toEqual(new Set(['2026-10-26']));
    for (const q of cases)
      expect((await allPages(org(), 'visibility', q as never, 50)).flatMap((p) => p.data)).toEqual(
        referenceVisibility(fixture, q),
      );
  });
});

describe('tenancy', () => {
  it('refuses another organization’s category with 403 and an unknown one with 404, before reading', async () => {
    await expect(org().reports.visibility({ ...base, category_id: ids.cat2 })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      org().reports.visibility({ ...base, category_id: '00000000-0000-4000-8000-00000000ffff' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const own = await engine.org(ids.org2).reports.visibility({ ...base, category_id: ids.cat2, scope: 'all' });
    expect(JSON.stringify(own)).not.toContain('Acme');
  });
});

describe('the info block', () => {
  it('echoes exactly the seed’s fields, with the normalized filter and asset filter', async () => {
    const filter = {
      and: [
        { and: [{ field: 'model', op: 'is', value: 'ChatGPT' }] },
        { not: { not: { field: 'tag', op: 'in', value: ['alpha'] } } },
      ],
    };
    const r = await org().reports.visibility({ ...base, assets: ['Acme', 'Zeta'], filter });
    expect(Object.keys(r.info)).toEqual([
      'total_results',
      'count',
      'next_cursor',
      'scope',
      'models',
      'start_date',
      'end_date',
      'asset_filter',
      'filter',
      'fingerprint',
    ]);
    expect(r.info).toMatchObject({
      scope: 'owned',
      models: ['ChatGPT'],
      start_date: base.start_date,
      end_date: base.end_date,
      asset_filter: { op: 'in', value: ['Acme', 'Zeta'] },
      filter: {
        and: [
          { field: 'model', op: 'is', value: 'ChatGPT' },
          { field: 'tag', op: 'in', value: ['alpha'] },
        ],
      },
    });
    const plain = await org().reports.visibility(base);
    expect(plain.info).toMatchObject({ asset_filter: null, filter: null, scope: 'owned' });
    expect(plain.info.models).toEqual(['', 'ChatGPT', 'Perplexity']);
  });
});
