import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError, type ValidationIssue } from '../src/errors.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(insightsFixture(3, 10));
});
afterAll(() => engine.close());

const base = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-03-31' };

async function detail(body: unknown, stream = false): Promise<ValidationIssue[]> {
  const org = engine.org(ids.org1);
  const error = await (
    stream
      ? (async () => {
          for await (const _ of org.stream('visibility')(body as Record<string, unknown>)) void _;
        })()
      : org.report('visibility')(body as Record<string, unknown>)
  ).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return [...(error as ValidationError).detail];
}

const first = async (body: unknown) => (await detail(body))[0]!;

describe('v2 visibility 422s', () => {
  it('a missing body and a non-object body', async () => {
    expect(await detail(undefined)).toEqual([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    expect(await first('text')).toMatchObject({ type: 'model_attributes_type', loc: ['body'], input: 'text' });
  });

  it('missing required fields, each named, with the body as input', async () => {
    const d = await detail({});
    expect(d.map((i) => i.loc)).toEqual([
      ['body', 'category_id'],
      ['body', 'start_date'],
      ['body', 'end_date'],
    ]);
    expect(d[0]).toEqual({ type: 'missing', loc: ['body', 'category_id'], msg: 'Field required', input: {} });
  });

  it('unknown fields at the top level and inside sort', async () => {
    expect(await detail({ ...base, colour: 'red', sort: { field: 'visibility_score', order: 'desc' } })).toEqual([
      { type: 'extra_forbidden', loc: ['body', 'sort', 'order'], msg: 'Extra inputs are not permitted', input: 'desc' },
      { type: 'extra_forbidden', loc: ['body', 'colour'], msg: 'Extra inputs are not permitted', input: 'red' },
    ]);
  });

  it('a bad UUID and bad dates, with Pydantic’s messages', async () => {
    expect(await first({ ...base, category_id: '1234' })).toMatchObject({
      type: 'uuid_parsing',
      msg: 'Input should be a valid UUID, invalid length: expected length 32 for simple format, found 4',
    });
    expect(await first({ ...base, category_id: '00000000-0000-4000-8000-00000000001' })).toMatchObject({
      ctx: { error: 'invalid group length in group 4: expected 12, found 11' },
    });
    expect(await first({ ...base, start_date: '2026/03/01' })).toMatchObject({
      type: 'date_from_datetime_parsing',
      ctx: { error: 'invalid date separator, expected `-`' },
    });
    expect(await first({ ...base, start_date: '2026-13-01' })).toMatchObject({
      ctx: { error: 'month value is outside expected range of 1-12' },
    });
    expect(await first({ ...base, end_date: '2026-03-31T10:00:00' })).toMatchObject({
      type: 'date_from_datetime_inexact',
    });
    expect(await first({ ...base, end_date: 20260331 })).toMatchObject({
      type: 'string_type',
      loc: ['body', 'end_date'],
    });
  });

  it('an end before the start', async () => {
    expect(await first({ ...base, start_date: '2026-04-01' })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'end_date'],
    });
  });

  it('enums: group_by, metrics, interval, scope, sort dir', async () => {
    expect(await first({ ...base, group_by: ['brand'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'group_by', 0],
      msg: "Input should be 'date', 'model', 'topic', 'region', 'prompt' or 'persona'",
    });
    expect(await first({ ...base, metrics: ['mentions'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'metrics', 0],
    });
    expect(await first({ ...base, interval: 'year' })).toMatchObject({
      msg: "Input should be 'day', 'week' or 'month'",
    });
    expect(await first({ ...base, scope: 'mine' })).toMatchObject({ loc: ['body', 'scope'] });
    expect(await first({ ...base, sort: { field: 'share_of_voice', dir: 'up' } })).toMatchObject({
      loc: ['body', 'sort', 'dir'],
    });
  });

  it('duplicate group_by dimensions and an empty metrics list', async () => {
    expect(await first({ ...base, group_by: ['model', 'model'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'group_by', 1],
    });
    expect(await first({ ...base, metrics: [] })).toMatchObject({ type: 'too_short', loc: ['body', 'metrics'] });
  });

  it('limit outside 1 to 50, a fractional limit, max_results not above 0', async () => {
    expect(await first({ ...base, limit: 0 })).toEqual({
      type: 'greater_than_equal',
      loc: ['body', 'limit'],
      msg: 'Input should be greater than or equal to 1',
      input: 0,
      ctx: { ge: 1 },
    });
    expect(await first({ ...base, limit: 51 })).toMatchObject({ type: 'less_than_equal', ctx: { le: 50 } });
    expect(await first({ ...base, limit: 2.5 })).toMatchObject({ type: 'int_from_float' });
    expect(await first({ ...base, limit: 'ten' })).toMatchObject({ type: 'int_parsing' });
    expect(await first({ ...base, max_results: 0 })).toMatchObject({ type: 'greater_than', ctx: { gt: 0 } });
    const ok = await engine.org(ids.org1).reports.visibility({ ...base, limit: '5' });
    expect(ok.info).toBeDefined();
  });

  it('sort on a metric that was not requested', async () => {
    expect(await first({ ...base, metrics: ['visibility_score'], sort: { field: 'average_position' } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'sort', 'field'],
    });
  });

  it('bad asset selectors', async () => {
    expect(await first({ ...base, assets: [] })).toMatchObject({ loc: ['body', 'assets'] });
    expect(await first({ ...base, assets: { op: 'contains', value: 'A' } })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'assets', 'op'],
    });
    expect(await first({ ...base, assets: { op: 'in', value: 'A' } })).toMatchObject({
      loc: ['body', 'assets', 'value'],
    });
    expect(await first({ ...base, assets: { op: 'is', value: 'A', x: 1 } })).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'assets', 'x'],
    });
    expect(await first({ ...base, assets: 5 })).toMatchObject({ loc: ['body', 'assets'] });
  });

  it('filters: unknown keys at every level, unknown fields and operators, empty in lists', async () => {
    expect(await first({ ...base, filter: { field: 'model', op: 'is', value: 'x', y: 1 } })).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'filter', 'y'],
    });
    expect(
      await first({ ...base, filter: { and: [{ not: { field: 'model', op: 'is', value: 'x', y: 1 } }] } }),
    ).toMatchObject({ loc: ['body', 'filter', 'and', 0, 'not', 'y'] });
    expect(await first({ ...base, filter: { field: 'domain', op: 'is', value: 'x' } })).toMatchObject({
      loc: ['body', 'filter', 'field'],
    });
    expect(await first({ ...base, filter: { field: 'model', op: 'in', value: [] } })).toMatchObject({
      loc: ['body', 'filter', 'value'],
    });
    expect(await first({ ...base, filter: { or: [{ field: 'page', op: 'contains', value: 'a' }] } })).toMatchObject({
      loc: ['body', 'filter', 'or', 0, 'field'],
    });
  });

  it('the stream validates the same body the same way', async () => {
    expect((await detail({ ...base, limit: 0 }, true))[0]).toMatchObject({ loc: ['body', 'limit'] });
    expect((await detail({ ...base, max_results: -1 }, true))[0]).toMatchObject({ loc: ['body', 'max_results'] });
  });
});
