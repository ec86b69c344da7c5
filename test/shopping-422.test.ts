import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError, type ValidationIssue } from '../src/errors.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { shoppingFixture } from './fixtures/shopping.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(shoppingFixture());
});
afterAll(() => engine.close());

const base = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-03-31' };

async function detail(body: unknown, stream = false): Promise<ValidationIssue[]> {
  const org = engine.org(ids.org1);
  const run = stream
    ? (async () => {
        for await (const _ of org.stream('shoppingProducts')(body as object)) void _;
      })()
    : org.report('shoppingProducts')(body as object);
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return [...(error as ValidationError).detail];
}

const first = async (body: unknown, stream = false) => (await detail(body, stream))[0]!;

describe('v2 shopping products 422s', () => {
  it('required fields, unknown fields, bad category and dates', async () => {
    expect((await detail({})).map((i) => i.loc)).toEqual([
      ['body', 'category_id'],
      ['body', 'start_date'],
      ['body', 'end_date'],
    ]);
    expect(await first({ ...base, model: 'ChatGPT' })).toEqual({
      type: 'extra_forbidden',
      loc: ['body', 'model'],
      msg: 'Extra inputs are not permitted',
      input: 'ChatGPT',
    });
    expect(await first({ ...base, category_id: 'x' })).toMatchObject({
      type: 'uuid_parsing',
      loc: ['body', 'category_id'],
    });
    expect(await first({ ...base, end_date: '2026-02-01' })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'end_date'],
    });
  });

  it('enums and lists: no model group_by, metrics, interval; duplicates; an empty metrics list', async () => {
    expect(await first({ ...base, group_by: ['model'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'group_by', 0],
      msg: "Input should be 'date', 'topic' or 'prompt'",
    });
    expect(await first({ ...base, group_by: ['date', 'date'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'group_by', 1],
    });
    expect(await first({ ...base, metrics: ['share_of_voice'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'metrics', 0],
    });
    expect(await first({ ...base, metrics: ['visibility_rank', 'visibility_rank'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'metrics', 1],
    });
    expect(await first({ ...base, metrics: [] })).toMatchObject({ type: 'too_short', loc: ['body', 'metrics'] });
    expect(await first({ ...base, interval: 'hour' })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'interval'],
    });
  });

  it('scalars: include_merchants, target_product, competitor_limit, limit, max_results', async () => {
    expect(await first({ ...base, include_merchants: 'maybe' })).toMatchObject({
      type: 'bool_parsing',
      loc: ['body', 'include_merchants'],
    });
    expect(await first({ ...base, include_merchants: null })).toMatchObject({
      type: 'bool_type',
      loc: ['body', 'include_merchants'],
    });
    expect(await first({ ...base, target_product: '' })).toMatchObject({
      type: 'string_too_short',
      loc: ['body', 'target_product'],
      ctx: { min_length: 1 },
    });
    expect(await first({ ...base, target_product: 'Acme Rain', competitor_limit: 0 })).toMatchObject({
      type: 'greater_than_equal',
      loc: ['body', 'competitor_limit'],
      ctx: { ge: 1 },
    });
    expect(await first({ ...base, limit: 0 })).toMatchObject({ type: 'greater_than_equal', loc: ['body', 'limit'] });
    expect(await first({ ...base, limit: 51 })).toMatchObject({
      type: 'less_than_equal',
      loc: ['body', 'limit'],
      ctx: { le: 50 },
    });
    expect(await first({ ...base, max_results: 0 }, true)).toMatchObject({
      type: 'greater_than_equal',
      loc: ['body', 'max_results'],
      ctx: { ge: 1 },
    });
    expect(await first({ ...base, max_results: 50_001 }, true)).toMatchObject({
      type: 'less_than_equal',
      loc: ['body', 'max_results'],
      ctx: { le: 50_000 },
    });
  });

  it('include_merchants rejects group_by, target_product and the position metrics, each by name', async () => {
    const merchants = { ...base, include_merchants: true };
    expect(await first({ ...merchants, group_by: ['date'] })).toEqual({
      type: 'value_error',
      loc: ['body', 'group_by'],
      msg: 'Value error, group_by is not available with include_merchants',
      input: ['date'],
      ctx: { error: 'group_by is not available with include_merchants' },
    });
    expect(await first({ ...merchants, target_product: 'Acme Rain' })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'target_product'],
    });
    expect(
      await detail({
        ...merchants,
        metrics: ['visibility_score', 'position2_percentage', 'position_above3_percentage'],
      }),
    ).toMatchObject([
      { type: 'value_error', loc: ['body', 'metrics', 1], input: 'position2_percentage' },
      { type: 'value_error', loc: ['body', 'metrics', 2], input: 'position_above3_percentage' },
    ]);
    const ok = await engine
      .org(ids.org1)
      .reports.shoppingProducts({ ...merchants, group_by: [], metrics: ['visibility_score'] });
    expect(ok.info).toMatchObject({ include_merchants: true });
  });

  it('the stream rejects limit and cursor, and max_results above 50000', async () => {
    expect(await detail({ ...base, limit: 5, cursor: 'abc' }, true)).toMatchObject([
      { type: 'value_error', loc: ['body', 'limit'] },
      { type: 'value_error', loc: ['body', 'cursor'] },
    ]);
    const page = await engine.org(ids.org1).reports.shoppingProducts({ ...base, limit: 5, max_results: 3 });
    expect(page.info).toMatchObject({ count: 5 });
  });

  it('filters: no model field, the seven fields, their operators', async () => {
    expect(await first({ ...base, filter: { field: 'model', op: 'is', value: 'ChatGPT' } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filter', 'field'],
    });
    expect(await first({ ...base, filter: { and: [{ field: 'domain', op: 'is', value: 'x.com' }] } })).toMatchObject({
      loc: ['body', 'filter', 'and', 0, 'field'],
    });
    expect(await first({ ...base, filter: { field: 'topic', op: 'contains', value: 7 } })).toMatchObject({
      loc: ['body', 'filter', 'value'],
    });
    expect(await first({ ...base, filter: { field: 'merchant', op: 'in', value: 'REI' } })).toMatchObject({
      loc: ['body', 'filter', 'value'],
    });
  });
});
