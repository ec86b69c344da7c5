import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError, type ValidationIssue } from '../src/errors.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { claimsFixture } from './fixtures/claims.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(claimsFixture());
});
afterAll(() => engine.close());

const base = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-05-31' };

async function detail(body: unknown, stream = false): Promise<ValidationIssue[]> {
  const org = engine.org(ids.org1);
  const run = stream
    ? (async () => {
        for await (const _ of org.stream('factcheckClaims')(body as object)) void _;
      })()
    : org.report('factcheckClaims')(body as object);
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return [...(error as ValidationError).detail];
}

const first = async (body: unknown, stream = false) => (await detail(body, stream))[0]!;
const ok = (body: object) => engine.org(ids.org1).report('factcheckClaims')(body);

describe('v2 fact-check claims 422s', () => {
  it('required and unknown fields', async () => {
    expect((await detail({})).map((i) => i.loc)).toEqual([
      ['body', 'category_id'],
      ['body', 'start_date'],
      ['body', 'end_date'],
    ]);
    expect(await first({ ...base, sort: {} })).toMatchObject({ type: 'extra_forbidden', loc: ['body', 'sort'] });
  });

  it('group_by: one dimension at most, from the list; include values, without duplicates', async () => {
    expect(await first({ ...base, group_by: ['model', 'topic'] })).toMatchObject({
      type: 'too_long',
      loc: ['body', 'group_by'],
      ctx: { max_length: 1, actual_length: 2 },
    });
    expect(await first({ ...base, group_by: ['date'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'group_by', 0],
    });
    expect(await first({ ...base, group_by: ['citation'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'group_by', 0],
    });
    expect(await first({ ...base, include: ['sentiment'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'include', 0],
    });
    expect(await first({ ...base, include: ['theme', 'theme'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'include', 1],
    });
  });

  it('limit 1 to 100, max_results above 0', async () => {
    expect(await first({ ...base, limit: 0 })).toMatchObject({ type: 'greater_than_equal', loc: ['body', 'limit'] });
    expect(await first({ ...base, limit: 101 })).toMatchObject({
      type: 'less_than_equal',
      loc: ['body', 'limit'],
      ctx: { le: 100 },
    });
    await expect(ok({ ...base, limit: 100 })).resolves.toBeDefined();
    expect(await first({ ...base, max_results: 0 }, true)).toMatchObject({
      type: 'greater_than',
      loc: ['body', 'max_results'],
    });
  });

  it('guardrail: include citation_sources together with group_by', async () => {
    expect(await first({ ...base, group_by: ['topic'], include: ['models', 'citation_sources'] })).toEqual({
      type: 'value_error',
      loc: ['body', 'include', 1],
      msg: 'Value error, include citation_sources cannot be combined with group_by',
      input: 'citation_sources',
      ctx: { error: 'include citation_sources cannot be combined with group_by' },
    });
    await expect(ok({ ...base, group_by: [], include: ['citation_sources'] })).resolves.toBeDefined();
  });

  it('guardrail: group_by [tag] together with a tag filter', async () => {
    for (const filter of [
      { field: 'tag', op: 'is', value: 'alpha' },
      {
        and: [
          { field: 'model', op: 'is', value: 'ChatGPT' },
          { field: 'tag', op: 'in', value: ['beta'] },
        ],
      },
    ]) {
      expect(await first({ ...base, group_by: ['tag'], filter })).toMatchObject({
        type: 'value_error',
        loc: ['body', 'group_by'],
        msg: 'Value error, group_by [tag] cannot be combined with a tag filter',
      });
    }
    await expect(
      ok({ ...base, group_by: ['tag'], filter: { field: 'topic', op: 'is', value: 'Boots' } }),
    ).resolves.toBeDefined();
  });

  it('guardrail: the stream is the flat list, without evidence or citation_sources', async () => {
    expect(await first({ ...base, group_by: ['model'] }, true)).toMatchObject({
      type: 'value_error',
      loc: ['body', 'group_by'],
      msg: 'Value error, the stream sends the flat list of claims; group_by is not available on it',
    });
    expect(await detail({ ...base, include: ['theme', 'evidence', 'citation_sources'] }, true)).toMatchObject([
      {
        type: 'value_error',
        loc: ['body', 'include', 1],
        msg: 'Value error, include evidence is not available on the stream',
      },
      {
        type: 'value_error',
        loc: ['body', 'include', 2],
        msg: 'Value error, include citation_sources is not available on the stream',
      },
    ]);
    const events = [];
    for await (const e of engine
      .org(ids.org1)
      .reports.factcheckClaimsStream({ ...base, group_by: [], include: ['theme', 'reasoning', 'models'] }))
      events.push(e);
    expect(events[0]!.event).toBe('summary');
  });

  it('filters: a top-level and of single-field leaves, one per field; only topic negated', async () => {
    const model = { field: 'model', op: 'is', value: 'ChatGPT' };
    expect(await first({ ...base, filter: { or: [model] } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filter'],
      msg: expect.stringContaining('top-level and of leaves'),
    });
    expect(await first({ ...base, filter: { not: { field: 'topic', op: 'is', value: 'Boots' } } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filter'],
    });
    expect(
      await first({ ...base, filter: { and: [model, { and: [{ field: 'region', op: 'is', value: 'Germany' }] }] } }),
    ).toMatchObject({ loc: ['body', 'filter', 'and', 1] });
    expect(
      await first({ ...base, filter: { and: [model, { field: 'model', op: 'in', value: ['Perplexity'] }] } }),
    ).toMatchObject({
      loc: ['body', 'filter', 'and', 1, 'field'],
      msg: expect.stringContaining("field 'model' appears in more than one leaf"),
    });
    expect(await first({ ...base, filter: { field: 'model', op: 'not_is', value: 'ChatGPT' } })).toMatchObject({
      loc: ['body', 'filter', 'op'],
      msg: "Value error, operator 'not_is' is not allowed on field 'model'; use one of is, in",
    });
    expect(await first({ ...base, filter: { field: 'prompt', op: 'not_contains', value: 'x' } })).toMatchObject({
      loc: ['body', 'filter', 'op'],
    });
    expect(await first({ ...base, filter: { field: 'analysis_type', op: 'is', value: 'accuracy' } })).toMatchObject({
      loc: ['body', 'filter', 'field'],
    });
    await expect(
      ok({ ...base, filter: { and: [model, { field: 'topic', op: 'not_in', value: ['Boots'] }] } }),
    ).resolves.toBeDefined();
  });
});
