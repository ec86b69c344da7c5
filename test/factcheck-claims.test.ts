import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ForbiddenError, ValidationError } from '../src/errors.ts';
import { and, toWire, type FilterNode, type FilterOp } from '../src/query/filter-node.ts';
import { claimFilterFields } from '../src/reports/insights-v2/factcheck/claim-filter.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';
import { ids } from './fixtures/insights.ts';
import { claimsFixture, manyClustersFixture } from './fixtures/claims.ts';
import { referenceClaims, type ClaimsQuery } from './reference/claims.ts';

const fixture = claimsFixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org1);
const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };

const pools: Record<string, { exact: string[]; text: string[] }> = {
  model: { exact: [...ids.models, 'ChatGPT', '', 'nope'], text: [] },
  region: { exact: [...ids.regions, 'Germany'], text: [] },
  persona: { exact: [...ids.personas, 'Hiker', ''], text: [] },
  topic: { exact: [...ids.topics, 'Boots', 'Tents 50%_off'], text: [] },
  prompt: { exact: [...ids.prompts, 'Cheap boots'], text: ['%', 'boots', 'BOOTS', '^C', 'o+'] },
  tag: { exact: [...ids.tags, 'alpha', ''], text: [] },
};

/** A top-level and of single-field leaves, one per field, with each field's own operators. */
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

const usesTag = (f: FilterNode | null) =>
  !!f &&
  (f.kind === 'leaf'
    ? f.field === 'tag'
    : f.kind === 'and' && f.children.some((c) => c.kind === 'leaf' && c.field === 'tag'));

async function everything(body: Record<string, unknown>, limit = 100) {
  return (await allPages(org(), 'factcheckClaims', body, limit)).flatMap((p) => p.data);
}

describe('v2 fact-check claims against the reference evaluator', () => {
  it('agrees flat and sectioned, for random filters and includes', async () => {
    let nonEmpty = 0;
    const request = fc.record({
      filter: claimFilter,
      group_by: fc.constantFrom(null, 'model', 'region', 'persona', 'prompt', 'topic', 'tag', 'theme'),
      include: fc.subarray(['theme', 'reasoning', 'models', 'evidence', 'citation_sources']),
      window: fc.constantFrom(['2026-02-20', '2026-12-31'], ['2026-03-08', '2026-03-09'], ['2026-04-01', '2026-07-31']),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const groupBy = r.group_by === 'tag' && usesTag(r.filter) ? null : r.group_by;
        const q: ClaimsQuery = {
          category_id: ids.cat1,
          start_date: r.window[0]!,
          end_date: r.window[1]!,
          ...(groupBy ? { group_by: [groupBy] } : {}),
          include: groupBy ? r.include.filter((i) => i !== 'citation_sources') : r.include,
          ...(r.filter ? { filter: r.filter } : {}),
        };
        const expected = referenceClaims(fixture, q);
        if (expected.length > 0) nonEmpty++;
        expect(await everything({ ...q, filter: r.filter ? toWire(r.filter) : null }, 3)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
    expectNotVacuous(nonEmpty, 60, 0.73);
  });
});

describe('sections', () => {
  it('carry the dimension as {id, name}, accuracy counts, and all their claims', async () => {
    const { data, info } = await org().reports.factcheckClaims({ ...base, group_by: ['theme'], include: ['theme'] });
    expect(info).toMatchObject({ group_by: ['theme'], total_results: 3, count: 3 });
    expect(data.map((s) => s.theme)).toEqual([
      { id: expect.any(String), name: 'Fit' },
      { id: null, name: 'Materials' },
      { id: expect.any(String), name: 'Price' },
    ]);
    for (const s of data) {
      expect(Object.keys(s)).toEqual(['theme', 'accuracy', 'accurate', 'inaccurate', 'total_claims', 'claims']);
      if (!('claims' in s)) continue;
      expect(s.total_claims).toBe(s.claims.length);
      expect(s.claims.every((c) => c.theme === s.theme?.name)).toBe(true);
      expect(s.accuracy).toBe(s.accurate / (s.accurate + s.inaccurate));
    }
  });

  it('an untagged prompt’s answers form a tag: null section; a claim made only accurately never appears', async () => {
    const data = await everything({ ...base, group_by: ['tag'] });
    // null-rule: claim-sections-null
    expect(data.at(-1)).toMatchObject({ tag: null });
    expect(JSON.stringify(await everything(base))).not.toContain('Always right');
  });
});

describe('the model-sectioning guard', () => {
  it('refuses group_by [model] over more than 2000 inaccurate clusters in scope, with a clear message', async () => {
    const big = await openFixture(manyClustersFixture(2001));
    try {
      const body = {
        category_id: ids.cat1,
        start_date: '2026-05-01',
        end_date: '2026-05-31',
        group_by: ['model'],
      } as const;
      const error = await big
        .org(ids.org1)
        .reports.factcheckClaims(body)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).detail).toEqual([
        {
          type: 'value_error',
          loc: ['body', 'group_by'],
          msg: 'Value error, group_by [model] is not available over more than 2000 inaccurate claim clusters (this scope has 2001); narrow the dates or the filter, or use the flat list',
          input: ['model'],
          ctx: {
            error:
              'group_by [model] is not available over more than 2000 inaccurate claim clusters (this scope has 2001); narrow the dates or the filter, or use the flat list',
          },
        },
      ]);
      const flat = await big.org(ids.org1).reports.factcheckClaims({ ...body, group_by: [] });
      expect(flat.info).toMatchObject({ total_results: 2001 });
      const byRegion = await big.org(ids.org1).reports.factcheckClaims({ ...body, group_by: ['region'], limit: 1 });
      expect(byRegion.data).toHaveLength(1);
      const models = [...new Set(manyClustersFixture(3).executions!.map((e) => e.model_id))];
      const narrowed = await big
        .org(ids.org1)
        .reports.factcheckClaims({ ...body, filter: { field: 'model', op: 'is', value: models[0] } });
      expect((narrowed.data as { claims: unknown[] }[])[0]!.claims.length).toBeLessThanOrEqual(2000);
    } finally {
      big.close();
    }
  });
});

describe('pages and streams', () => {
  const bodies = [
    { ...base },
    { ...base, include: ['theme', 'reasoning', 'models'], max_results: 3 },
    { ...base, filter: { field: 'topic', op: 'not_is', value: 'Boots' } },
  ];
  it.each(bodies)(
    'every flat page walked equals one big page equals the stream, one result per claim (%#)',
    async (body) => {
      const { max_results: cap, ...rest } = body as typeof body & { max_results?: number };
      const small = await everything(rest, 1);
      const big = await everything(rest, 100);
      expect(small).toEqual(big);
      const events = await streamEvents(org(), 'factcheckClaims', {
        ...body,
        limit: 1,
        cursor: 'ignored-by-the-stream',
      });
      expect(events[0]).toMatchObject({
        event: 'summary',
        data: { next_cursor: null, count: cap ? Math.min(cap, big.length) : big.length },
      });
      expect(events.slice(1).map((e) => e.data)).toEqual(cap ? big.slice(0, cap) : big);
    },
  );

  it('sections page by section', async () => {
    const small = await everything({ ...base, group_by: ['persona'], include: ['models', 'evidence'] }, 1);
    expect(small).toEqual(await everything({ ...base, group_by: ['persona'], include: ['models', 'evidence'] }, 100));
  });
});

describe('info block and tenancy', () => {
  it('has the fields the public docs show, default page size 25', async () => {
    const page = await org().reports.factcheckClaims({
      ...base,
      include: ['models', 'theme'],
      filter: { and: [{ field: 'topic', op: 'not_in', value: ['Tents 50%_off'] }] },
    });
    expect(Object.keys(page.info)).toEqual([
      'total_results',
      'count',
      'next_cursor',
      'models',
      'group_by',
      'start_date',
      'end_date',
      'filter',
      'include',
      'fingerprint',
    ]);
    expect(page.info).toMatchObject({
      group_by: [],
      include: ['theme', 'models'],
      filter: { field: 'topic', op: 'not_in', value: ['Tents 50%_off'] },
    });
    expect(Object.keys(page.data[0]!)).toEqual(['cluster_id', 'claim', 'occurrence', 'theme', 'models']);
    const many = await engine.org(ids.org1).reports.factcheckClaims({ ...base });
    expect(many.info.count).toBeLessThanOrEqual(25);
  });

  it('refuses another organization’s category', async () => {
    await expect(org().reports.factcheckClaims({ ...base, category_id: ids.cat2 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const own = await engine
      .org(ids.org2)
      .reports.factcheckClaims({ ...base, category_id: ids.cat2, include: ['evidence'] });
    expect((own.data as { claim: string }[]).map((c) => c.claim)).toEqual(['Lendco has no fees']);
  });
});
