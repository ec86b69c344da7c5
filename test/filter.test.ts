import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError } from '../src/errors.ts';
import { checkFilter, compileFilter } from '../src/query/filter-compiler.ts';
import { normalize, parseFilter, toWire } from '../src/query/filter-node.ts';
import { render, sql } from '../src/query/sql.ts';
import { claimFilterFields } from '../src/reports/insights-v2/factcheck/claim-filter.ts';
import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { filterArbitrary } from './helpers/filter-arbitrary.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';

const fixture = insightsFixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture);
});
afterAll(() => engine.close());

const pools = {
  model: { exact: [...ids.models, 'ChatGPT', '', 'nope'], text: ['', 'a', 'GPT'] },
  persona: { exact: [...ids.personas, 'Hiker', '', 'Borrower'], text: ['', 'H'] },
  topic: { exact: [...ids.topics, 'Boots', "x' OR '1'='1"], text: ['%', '_', 'boots', "'; DROP TABLE prompts; --"] },
  prompt: { exact: [...ids.prompts, 'Cheap boots'], text: ["'", '%', '_', '\\', 'BOOTS'] },
  tag: { exact: [...ids.tags, 'alpha', '', 'gamma'], text: ['a'] },
  region: { exact: [...ids.regions, 'Germany'], text: ['e'] },
};

const scope = { organizationId: ids.org1, categoryId: ids.cat1 };

describe('filter compiler', () => {
  it('partitions rows: count(p) + count(not p) = count(*), and p is never NULL (ternary logic partitioning)', async () => {
    await fc.assert(
      fc.asyncProperty(filterArbitrary(promptFilterFields, pools, 3), async (node) => {
        const p = compileFilter(node, promptFilterFields, scope);
        const q =
          render(sql`SELECT count(*) FILTER (WHERE ${p}), count(*) FILTER (WHERE NOT (${p})), count(*) FILTER (WHERE (${p}) IS NULL), count(*)
          FROM mentions f JOIN prompts p ON p.id = f.prompt_id WHERE f.category_id = ${ids.cat1}`);
        const [row] = await engine.core.pool.use(async (c) =>
          (await c.runAndReadAll(q.text, q.params as never)).getRowsJS(),
        );
        const [yes, no, unknown, all] = row!.map(Number);
        expect(unknown).toBe(0);
        expect(yes! + no!).toBe(all);
      }),
      { numRuns: 80 },
    );
  });

  it('never puts a value into the SQL text', () => {
    fc.assert(
      fc.property(filterArbitrary(promptFilterFields, pools, 3), (node) => {
        const { text, params } = render(compileFilter(node, promptFilterFields, scope));
        for (const p of params) if (typeof p === 'string' && p.length > 2) expect(text).not.toContain(p);
        expect(text).not.toMatch(/'[^']*(DROP|OR '1')/);
      }),
    );
  });

  it('normalizes idempotently and keeps the meaning', () => {
    fc.assert(
      fc.property(filterArbitrary(promptFilterFields, pools, 4), (node) => {
        const once = normalize(node);
        expect(normalize(once)).toEqual(once);
        expect(normalize(parseFilter(toWire(once), ['body', 'filter']))).toEqual(once);
      }),
    );
  });
});

describe('filter parsing and checking', () => {
  const parseError = (input: unknown) => {
    try {
      parseFilter(input, ['body', 'filter']);
    } catch (e) {
      return (e as ValidationError).detail;
    }
    throw new Error('expected a ValidationError');
  };

  it('rejects unknown keys at every level of the tree', () => {
    expect(parseError({ field: 'model', op: 'is', value: 'x', extra: 1 })).toEqual([
      { type: 'extra_forbidden', loc: ['body', 'filter', 'extra'], msg: 'Extra inputs are not permitted', input: 1 },
    ]);
    expect(parseError({ and: [{ field: 'model', op: 'is', value: 'x' }], x: true })[0]!.loc).toEqual([
      'body',
      'filter',
      'x',
    ]);
    expect(parseError({ or: [{ not: { field: 'a', op: 'is', value: 'x', bad: 2 } }] })[0]!.loc).toEqual([
      'body',
      'filter',
      'or',
      0,
      'not',
      'bad',
    ]);
    expect(
      parseError({
        and: [
          {
            or: [
              { field: 'a', op: 'is', value: 1 },
              { field: 'b', op: 'is', value: 2, deep: 3 },
            ],
          },
        ],
      })[0]!.loc,
    ).toEqual(['body', 'filter', 'and', 0, 'or', 1, 'deep']);
  });

  it('requires exactly one of and, or, not in a group, a non-empty list, and leaf keys', () => {
    expect(parseError({ and: [], or: [] })[0]).toMatchObject({ type: 'value_error', loc: ['body', 'filter'] });
    expect(parseError({ and: [] })[0]).toMatchObject({ type: 'too_short', loc: ['body', 'filter', 'and'] });
    expect(parseError({ and: {} })[0]).toMatchObject({ type: 'list_type', loc: ['body', 'filter', 'and'] });
    expect(parseError({ field: 'model', op: 'is' })[0]).toMatchObject({
      type: 'missing',
      loc: ['body', 'filter', 'value'],
    });
    expect(parseError({ field: 'model', op: 'equals', value: 'x' })[0]).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'filter', 'op'],
    });
    expect(parseError({})).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'missing', loc: ['body', 'filter', 'field'] })]),
    );
    expect(parseError([1])[0]).toMatchObject({ type: 'model_attributes_type', loc: ['body', 'filter'] });
    expect(parseError({ field: 'model', op: 'is', value: { x: 1 } })[0]).toMatchObject({
      type: 'string_type',
      loc: ['body', 'filter', 'value'],
    });
  });

  it('bounds depth and size', () => {
    let deep: unknown = { field: 'model', op: 'is', value: 'x' };
    for (let i = 0; i < 9; i++) deep = { not: deep };
    expect(parseError(deep)[0]!.msg).toContain('at most 8 levels');
    const wide = { or: Array.from({ length: 300 }, () => ({ field: 'model', op: 'is', value: 'x' })) };
    expect(parseError(wide)[0]!.msg).toContain('at most 200 are allowed');
  });

  it('checks fields, operators and values against the report catalog', () => {
    const check = (input: unknown) =>
      checkFilter(parseFilter(input, ['body', 'filter']), promptFilterFields, ['body', 'filter']);
    expect(check({ field: 'domain', op: 'is', value: 'x' })[0]).toMatchObject({
      loc: ['body', 'filter', 'field'],
      type: 'value_error',
    });
    expect(check({ field: 'model', op: 'contains_case_insensitive', value: 'x' })).toEqual([]);
    expect(
      checkFilter(parseFilter({ field: 'model', op: 'contains', value: 'x' }, ['body', 'filter']), claimFilterFields, [
        'body',
        'filter',
      ])[0],
    ).toMatchObject({ loc: ['body', 'filter', 'op'] });
    expect(check({ field: 'model', op: 'in', value: [] })[0]!.msg).toContain('non-empty list');
    expect(check({ field: 'model', op: 'in', value: 'x' })[0]!.msg).toContain('requires a list');
    expect(check({ field: 'model', op: 'is', value: ['x'] })[0]!.msg).toContain('single value');
    expect(check({ field: 'model', op: 'is', value: 3 })[0]).toMatchObject({ loc: ['body', 'filter', 'value'] });
    expect(check({ and: [{ field: 'prompt', op: 'matches', value: '(a' }] })[0]).toMatchObject({
      loc: ['body', 'filter', 'and', 0, 'value'],
    });
    expect(check({ field: 'prompt', op: 'matches', value: '(?=a)b' })[0]!.msg).toContain('look-around');
    expect(check({ field: 'prompt', op: 'matches', value: '(a+)+$' })).toEqual([]);
    expect(check({ not: { field: 'tag', op: 'not_in', value: ['alpha', ''] } })).toEqual([]);
  });
});
