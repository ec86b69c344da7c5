import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ForbiddenError, NotFoundError, ValidationError, type ValidationIssue } from '../src/errors.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { domains, tabularFixture, tabularIds } from './fixtures/tabular.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(tabularFixture(3, 10, 20), { clock: () => new Date('2026-12-01T00:00:00Z') });
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org1);

async function failure(name: string, body: unknown): Promise<unknown> {
  const call = name.endsWith('Stream')
    ? (async () => {
        for await (const _ of (org().reports as unknown as Record<string, (b: unknown) => AsyncIterable<unknown>>)[
          name
        ]!(body))
          void _;
      })()
    : org().report(name)(body as Record<string, unknown>);
  return call.then(
    () => undefined,
    (e: unknown) => e,
  );
}

async function detail(name: string, body: unknown): Promise<ValidationIssue[]> {
  const error = await failure(name, body);
  expect(error).toBeInstanceOf(ValidationError);
  return [...(error as ValidationError).detail];
}

const first = async (name: string, body: unknown) => (await detail(name, body))[0]!;

const cit = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-04-01', metrics: ['count'] } as const;
const bot = { domain: domains.own, start_date: '2026-03-01', end_date: '2026-04-01', metrics: ['count'] } as const;
const ref = { domain: domains.own, start_date: '2026-03-01', end_date: '2026-04-01', metrics: ['visits'] } as const;
const filter = (f: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...cit,
  ...extra,
  filters: [f],
});

describe('tabular request shape', () => {
  it('a missing body, missing required fields and unknown fields', async () => {
    expect(await detail('citationsV1', undefined)).toEqual([
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
    expect((await detail('visibilityV1', {})).map((i) => i.loc)).toEqual([
      ['body', 'category_id'],
      ['body', 'start_date'],
      ['body', 'end_date'],
      ['body', 'metrics'],
    ]);
    expect((await detail('bots', {})).map((i) => i.loc)).toEqual([
      ['body', 'domain'],
      ['body', 'metrics'],
      ['body', 'start_date'],
    ]);
    expect(await first('sentimentV1', { ...cit, metrics: ['positive'], colour: 'red' })).toEqual({
      type: 'extra_forbidden',
      loc: ['body', 'colour'],
      msg: 'Extra inputs are not permitted',
      input: 'red',
    });
    expect(await first('botsV1', { ...bot, timezone: 'UTC' })).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'timezone'],
    });
    expect(await first('botsV1', { ...bot, view_id: tabularIds.views.blog })).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'view_id'],
    });
    expect(await first('citationsV1', { ...cit, pagination: { limit: 5, page: 2 } })).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'pagination', 'page'],
    });
  });

  it('enums: metrics, dimensions, date_interval (quarter is not on v1 traffic), order_by directions', async () => {
    expect(await first('citationsV1', { ...cit, metrics: ['visits'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'metrics', 0],
    });
    expect(await first('citationsV1', { ...cit, metrics: [] })).toMatchObject({
      type: 'too_short',
      loc: ['body', 'metrics'],
    });
    expect(await first('visibilityV1', { ...cit, metrics: ['executions'], dimensions: ['hostname'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'dimensions', 0],
    });
    expect(await first('citationsV1', { ...cit, date_interval: 'fortnight' })).toMatchObject({
      type: 'literal_error',
      msg: "Input should be 'hour', 'day', 'week', 'month', 'quarter', 'year' or 'relative_week'",
    });
    expect(await first('botsV1', { ...bot, date_interval: 'quarter' })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'date_interval'],
    });
    expect(await first('referralsV1', { ...ref, dimensions: ['referral_type'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'dimensions', 0],
    });
    expect(await first('bots', { ...bot, dimensions: ['referral_source'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'dimensions', 0],
    });
    expect(await first('citationsV1', { ...cit, order_by: { count: 'up' } })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'order_by', 'count'],
    });
  });

  it('duplicates in metrics and dimensions', async () => {
    expect(await first('citationsV1', { ...cit, metrics: ['count', 'count'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'metrics', 1],
    });
    expect(await first('bots', { ...bot, dimensions: ['path', 'path'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'dimensions', 1],
    });
  });

  it('pagination bounds: limit 1 to 50,000, offset at least 0', async () => {
    expect(await first('citationsV1', { ...cit, pagination: { limit: 0 } })).toMatchObject({
      type: 'greater_than_equal',
      loc: ['body', 'pagination', 'limit'],
    });
    expect(await first('citationsV1', { ...cit, pagination: { limit: 50_001 } })).toMatchObject({
      type: 'less_than_equal',
      loc: ['body', 'pagination', 'limit'],
      ctx: { le: 50_000 },
    });
    expect(await first('bots', { ...bot, pagination: { offset: -1 } })).toMatchObject({
      type: 'greater_than_equal',
      loc: ['body', 'pagination', 'offset'],
    });
    expect(await first('bots', { ...bot, pagination: { limit: 'ten' } })).toMatchObject({ type: 'int_parsing' });
  });

  it('order_by names a requested metric or dimension; query fan-outs sort by a metric or date only', async () => {
    expect(await first('citationsV1', { ...cit, order_by: { citation_share: 'asc' } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'order_by', 'citation_share'],
    });
    expect(await first('bots', { ...bot, order_by: { path: 'asc' } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'order_by', 'path'],
    });
    expect(
      await first('queryFanoutsV1', {
        ...cit,
        metrics: ['total_fanouts'],
        dimensions: ['prompt'],
        order_by: { prompt: 'asc' },
      }),
    ).toMatchObject({ loc: ['body', 'order_by', 'prompt'] });
    const ok = await org().reports.queryFanoutsV1({
      ...cit,
      metrics: ['total_fanouts'],
      dimensions: ['date'],
      order_by: { date: 'asc' },
    });
    expect(ok.data.length).toBeGreaterThan(0);
  });

  it('metric_filters name a requested metric and carry a number', async () => {
    expect(await first('referrals', { ...ref, metric_filters: [{ field: 'last_visit', value: 1 }] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'metric_filters', 0, 'field'],
    });
    expect(await first('referrals', { ...ref, metric_filters: [{ field: 'visits', value: 'many' }] })).toMatchObject({
      type: 'float_parsing',
      loc: ['body', 'metric_filters', 0, 'value'],
    });
    expect(await first('referrals', { ...ref, metric_filters: [{ field: 'visits' }] })).toMatchObject({
      type: 'missing',
      loc: ['body', 'metric_filters', 0, 'value'],
    });
  });
});

describe('dates and zones', () => {
  it('refuses what is not a date or timestamp, naming the field', async () => {
    for (const bad of [
      '2026/03/01',
      '2026-02-30',
      '2026-03-01 25:00',
      '2026-03-01T10',
      'yesterday',
      '2026-03-01 10:00 +05:30',
    ]) {
      expect(await first('citationsV1', { ...cit, start_date: bad })).toMatchObject({
        type: 'value_error',
        loc: ['body', 'start_date'],
        input: bad,
      });
    }
    expect(await first('bots', { ...bot, end_date: 20260401 })).toMatchObject({
      type: 'string_type',
      loc: ['body', 'end_date'],
    });
  });

  it('an end not after the start, an empty window, a start after now, a window over three years', async () => {
    expect(await first('citationsV1', { ...cit, end_date: '2026-02-01' })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'end_date'],
    });
    expect(await first('citationsV1', { ...cit, end_date: '2026-03-01' })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'end_date'],
    });
    expect(await first('bots', { domain: domains.own, metrics: ['count'], start_date: '2027-01-01' })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'start_date'],
    });
    expect(await first('bots', { ...bot, start_date: '2020-01-01' })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'end_date'],
    });
  });

  it('a time zone that is not an IANA name', async () => {
    for (const bad of ['Mars/Olympus', '+05:30', 'EST+5', '', 'Europe/Berlin; DROP']) {
      expect(await first('referrals', { ...ref, timezone: bad })).toMatchObject({
        type: 'value_error',
        loc: ['body', 'timezone'],
        input: bad,
      });
    }
    const ok = await org().reports.referrals({ ...ref, timezone: 'asia/kolkata' });
    expect((ok.info as { query: { timezone: string } }).query.timezone).toBe('asia/kolkata');
  });
});

describe('flat filters', () => {
  it('the filter list and each filter’s shape', async () => {
    expect(await first('citationsV1', { ...cit, filters: { field: 'model' } })).toMatchObject({
      type: 'list_type',
      loc: ['body', 'filters'],
    });
    expect(await first('citationsV1', filter({ field: 'model_id', operator: 'is' }))).toMatchObject({
      type: 'missing',
      loc: ['body', 'filters', 0, 'value'],
    });
    expect(await first('citationsV1', filter({ field: 'model_id', op: 'is', value: ids.models[0] }))).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'filters', 0, 'op'],
    });
    expect(
      await first('citationsV1', filter({ field: 'model_id', operator: 'equals', value: ids.models[0] })),
    ).toMatchObject({ type: 'literal_error', loc: ['body', 'filters', 0, 'operator'] });
    expect(await first('citationsV1', filter({ operator: 'is', value: 'x' }))).toMatchObject({
      type: 'missing',
      loc: ['body', 'filters', 0, 'field'],
    });
  });

  it('fields the report does not filter on, and operators a field does not take', async () => {
    expect(await first('citationsV1', filter({ field: 'asset_name', operator: 'is', value: 'Acme' }))).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filters', 0, 'field'],
    });
    expect(
      await first(
        'visibilityV1',
        filter({ field: 'hostname', operator: 'is', value: 'x' }, { metrics: ['executions'] }),
      ),
    ).toMatchObject({ loc: ['body', 'filters', 0, 'field'] });
    expect(
      await first('botsV1', { ...bot, filters: [{ field: 'bot_type', operator: 'is', value: 'index' }] }),
    ).toMatchObject({ loc: ['body', 'filters', 0, 'field'] });
    expect(
      await first('referralsV1', { ...ref, filters: [{ field: 'referral_type', operator: 'is', value: 'utm' }] }),
    ).toMatchObject({ loc: ['body', 'filters', 0, 'field'] });
    expect(await first('citationsV1', filter({ field: 'region', operator: 'contains', value: 'a' }))).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filters', 0, 'operator'],
    });
    expect(await first('citationsV1', filter({ field: 'mentioned', operator: 'not_is', value: true }))).toMatchObject({
      loc: ['body', 'filters', 0, 'operator'],
    });
  });

  it('in and not_in need a non-empty list; a one-value operator needs at least one value', async () => {
    for (const operator of ['in', 'not_in']) {
      expect(await first('citationsV1', filter({ field: 'topic_name', operator, value: [] }))).toMatchObject({
        type: 'value_error',
        loc: ['body', 'filters', 0, 'value'],
        msg: `Value error, operator '${operator}' requires a non-empty list value`,
      });
      expect(await first('citationsV1', filter({ field: 'topic_name', operator, value: 'Boots' }))).toMatchObject({
        type: 'value_error',
        loc: ['body', 'filters', 0, 'value'],
      });
    }
    expect(
      await first('bots', { ...bot, filters: [{ field: 'path', operator: 'contains', value: [] }] }),
    ).toMatchObject({ loc: ['body', 'filters', 0, 'value'] });
  });

  it('value types: UUIDs for _id fields, strings for text fields, booleans for mentioned', async () => {
    expect(await first('citationsV1', filter({ field: 'model_id', operator: 'is', value: 'ChatGPT' }))).toMatchObject({
      type: 'uuid_parsing',
      loc: ['body', 'filters', 0, 'value'],
    });
    expect(
      await first('citationsV1', filter({ field: 'tag', operator: 'in', value: [ids.tags[0], 'x'] })),
    ).toMatchObject({ type: 'uuid_parsing', loc: ['body', 'filters', 0, 'value', 1] });
    expect(await first('citationsV1', filter({ field: 'prompt', operator: 'is', value: 3 }))).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filters', 0, 'value'],
    });
    expect(await first('citationsV1', filter({ field: 'mentioned', operator: 'is', value: 'true' }))).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filters', 0, 'value'],
    });
    expect(await first('citationsV1', filter({ field: 'prompt', operator: 'is', value: null }))).toMatchObject({
      loc: ['body', 'filters', 0, 'value'],
    });
  });

  it('hostname, path, root_domain and url filters need the same field among the dimensions', async () => {
    for (const field of ['hostname', 'path', 'root_domain', 'url']) {
      expect(
        await first('citationsV1', filter({ field, operator: 'contains', value: 'a' }, { dimensions: ['model'] })),
      ).toMatchObject({
        type: 'value_error',
        loc: ['body', 'filters', 0, 'field'],
        msg: `Value error, a filter on '${field}' requires '${field}' among the dimensions`,
      });
      const ok = await org().report('citationsV1')({
        ...filter({ field, operator: 'contains', value: 'a' }),
        dimensions: [field],
      });
      expect(ok.data).toBeDefined();
    }
  });

  it('matches: an invalid or unbounded regular expression', async () => {
    for (const bad of ['(', 'a{2000}', '(?=x)', '(a)\\1', 'x'.repeat(300)]) {
      expect(await first('citationsV1', filter({ field: 'prompt', operator: 'matches', value: bad }))).toMatchObject({
        type: 'value_error',
        loc: ['body', 'filters', 0, 'value'],
      });
    }
    expect(
      await first('bots', { ...bot, filters: [{ field: 'path', operator: 'matches', value: ['^/d', '['] }] }),
    ).toMatchObject({ loc: ['body', 'filters', 0, 'value', 1] });
  });

  it('names every bad filter at once', async () => {
    const d = await detail('citationsV1', {
      ...cit,
      filters: [
        { field: 'model_id', operator: 'is', value: 'x' },
        { field: 'nope', operator: 'is', value: 'x' },
      ],
    });
    expect(d.map((i) => i.loc)).toEqual([
      ['body', 'filters', 0, 'value'],
      ['body', 'filters', 1, 'field'],
    ]);
  });

  it('the streams validate the same way, before any event', async () => {
    expect(await first('citationsV1Stream', filter({ field: 'topic_name', operator: 'in', value: [] }))).toMatchObject({
      loc: ['body', 'filters', 0, 'value'],
    });
    expect(await first('visibilityV1Stream', { ...cit, metrics: ['count'] })).toMatchObject({ type: 'literal_error' });
    expect(await first('sentimentV1Stream', { ...cit, metrics: ['positive'], pagination: { limit: 0 } })).toMatchObject(
      { loc: ['body', 'pagination', 'limit'] },
    );
  });
});

describe('tenancy', () => {
  const unknownId = '00000000-0000-4000-8000-00000000ffff';
  it('a category of another organization is 403, an unknown one 404', async () => {
    const foreign = await failure('citationsV1', { ...cit, category_id: ids.cat2 });
    expect(foreign).toBeInstanceOf(ForbiddenError);
    expect((foreign as ForbiddenError).message).toBe(`this API key has no access to category ${ids.cat2}`);
    expect(
      await failure('visibilityV1Stream', { ...cit, metrics: ['executions'], category_id: ids.cat2 }),
    ).toBeInstanceOf(ForbiddenError);
    expect(
      await failure('sentimentV1', {
        ...cit,
        metrics: ['positive'],
        category_id: '00000000-0000-4000-8000-00000000ffff',
      }),
    ).toBeInstanceOf(NotFoundError);
    expect(((await failure('citationsV1', { ...cit, category_id: unknownId })) as NotFoundError).message).toBe(
      `category ${unknownId} not found`,
    );
  });

  it('a domain of another organization is 403, an unknown domain 404', async () => {
    expect(await failure('bots', { ...bot, domain: domains.foreign })).toBeInstanceOf(ForbiddenError);
    expect(await failure('referralsV1', { ...ref, domain: domains.foreign })).toEqual(
      new ForbiddenError(`this API key has no access to domain ${domains.foreign}`),
    );
    expect(await failure('botsV1', { ...bot, domain: 'nowhere.example' })).toEqual(
      new NotFoundError('domain nowhere.example not found'),
    );
    const own = await engine.org(ids.org2).reports.bots({ ...bot, domain: domains.foreign });
    expect(own.data.length).toBe(1);
  });

  it('view_id: another organization’s is 403, an unknown one 404, another domain’s a 422', async () => {
    expect(await failure('referrals', { ...ref, view_id: tabularIds.views.foreign })).toEqual(
      new ForbiddenError(`this API key has no access to view ${tabularIds.views.foreign}`),
    );
    expect(await failure('referrals', { ...ref, view_id: unknownId })).toEqual(
      new NotFoundError(`view ${unknownId} not found`),
    );
    expect(await first('referrals', { ...ref, view_id: tabularIds.views.otherDomain })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'view_id'],
      msg: `Value error, view ${tabularIds.views.otherDomain} is a segment of ${domains.second}, not of ${domains.own}`,
    });
    expect((await org().reports.referrals({ ...ref, view_id: tabularIds.views.docs })).data).toBeDefined();
  });

  it('organization_id: the caller’s is accepted, another is 403, an unknown one 404', async () => {
    expect((await org().reports.bots({ ...bot, organization_id: ids.org1 })).data).toBeDefined();
    expect(await failure('bots', { ...bot, organization_id: ids.org2 })).toEqual(
      new ForbiddenError(`this API key has no access to organization ${ids.org2}`),
    );
    expect(await failure('referrals', { ...ref, organization_id: unknownId })).toEqual(
      new NotFoundError(`organization ${unknownId} not found`),
    );
  });
});
