import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { maxBodyBytes, maxJsonDepth, maxNameLength, maxPromptLength } from '../src/limits.ts';
import { ValidationError } from '../src/errors.ts';
import { maxMediaRanges } from '../src/formats/accept.ts';
import { maxWindowDays } from '../src/reports/insights/common.ts';
import { maxFlatFilters, maxFlatValues } from '../src/query/flat-filters.ts';
import { defaultFilterLimits } from '../src/query/filter-node.ts';
import { maxPatternLength } from '../src/query/regex-check.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { domains, tabularFixture } from './fixtures/tabular.ts';
import { startServer, type TestServer } from './helpers/server.ts';

type Json = Record<string, any>;

/**
 * Every request bound of the limits table (docs/security.md) at its limit, accepted, and one past it,
 * refused naming the field: an off-by-one either way fails here.
 */

let engine: Engine;
let server: TestServer;
let key: string;
beforeAll(async () => {
  engine = await openFixture(tabularFixture(), {
    cursorSecret: 'bounds',
    clock: () => new Date('2026-12-01T00:00:00Z'),
  });
  server = await startServer(engine, { rateLimit: false });
  key = await server.key(ids.org1);
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
});

const reports = () => engine.org(ids.org1).reports as Json;
/** The 422's issues, or [] when the call was answered. */
async function issues(call: Promise<unknown>): Promise<Json[]> {
  try {
    await call;
    return [];
  } catch (error) {
    if (error instanceof ValidationError) return [...error.detail] as Json[];
    throw error;
  }
}
const dayMs = 86_400_000;
const plusDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * dayMs).toISOString().slice(0, 10);
const values = (n: number) => Array.from({ length: n }, (_, i) => `/page-${i}`);
const v2 = (extra: Json = {}) => ({
  category_id: ids.cat1,
  start_date: '2026-03-01',
  end_date: '2026-03-31',
  scope: 'all',
  ...extra,
});
const referrals = (extra: Json = {}) => ({
  domain: domains.own,
  start_date: '2026-03-01',
  end_date: '2026-03-31',
  metrics: ['visits'],
  ...extra,
});

describe('bounds at the limit and one past it', () => {
  it(`a flat filter list: ${maxFlatValues} values accepted, ${maxFlatValues + 1} refused`, async () => {
    expect(
      await issues(
        reports().referrals(referrals({ filters: [{ field: 'path', operator: 'in', value: values(maxFlatValues) }] })),
      ),
    ).toEqual([]);
    const past = await issues(
      reports().referrals(
        referrals({ filters: [{ field: 'path', operator: 'in', value: values(maxFlatValues + 1) }] }),
      ),
    );
    expect(past).toMatchObject([{ type: 'too_long', loc: ['body', 'filters', 0, 'value'] }]);
  });

  it(`flat filters: ${maxFlatFilters} accepted, ${maxFlatFilters + 1} refused`, async () => {
    const filters = (n: number) =>
      Array.from({ length: n }, () => ({ field: 'path', operator: 'not_is', value: '/nowhere' }));
    expect(await issues(reports().referrals(referrals({ filters: filters(maxFlatFilters) })))).toEqual([]);
    expect(await issues(reports().referrals(referrals({ filters: filters(maxFlatFilters + 1) })))).toMatchObject([
      { type: 'too_long', loc: ['body', 'filters'] },
    ]);
  });

  it('metric_filters: 50 accepted, 51 refused', async () => {
    const mf = (n: number) => Array.from({ length: n }, () => ({ field: 'visits', value: 0 }));
    expect(await issues(reports().referrals(referrals({ metric_filters: mf(50) })))).toEqual([]);
    expect(await issues(reports().referrals(referrals({ metric_filters: mf(51) })))).toMatchObject([
      { type: 'too_long', loc: ['body', 'metric_filters'] },
    ]);
  });

  it(`a filter tree list: ${defaultFilterLimits.maxValues} values accepted, ${defaultFilterLimits.maxValues + 1} refused`, async () => {
    const ids_ = (n: number) =>
      Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect(
      await issues(
        reports().visibility(v2({ filter: { field: 'prompt', op: 'in', value: ids_(defaultFilterLimits.maxValues) } })),
      ),
    ).toEqual([]);
    expect(
      await issues(
        reports().visibility(
          v2({ filter: { field: 'prompt', op: 'in', value: ids_(defaultFilterLimits.maxValues + 1) } }),
        ),
      ),
    ).toMatchObject([{ type: 'too_long' }]);
  });

  it(`a filter tree: ${defaultFilterLimits.maxDepth} groups deep accepted, one more refused; ${defaultFilterLimits.maxNodes} nodes accepted, one more refused`, async () => {
    const leaf = { field: 'model', op: 'is', value: ids.models[0] };
    const deep = (n: number): Json => (n === 0 ? leaf : { and: [deep(n - 1)] });
    expect(await issues(reports().visibility(v2({ filter: deep(defaultFilterLimits.maxDepth) })))).toEqual([]);
    expect(
      (await issues(reports().visibility(v2({ filter: deep(defaultFilterLimits.maxDepth + 1) })))).length,
    ).toBeGreaterThan(0);
    // A group of n - 1 leaves is n nodes.
    // A group of n - 1 leaves is n nodes; explain plans it without reading (199 ORs take DuckDB long to optimize).
    const wide = (n: number) => ({ or: Array.from({ length: n - 1 }, () => leaf) });
    expect(
      await issues(reports().visibility(v2({ filter: wide(defaultFilterLimits.maxNodes) }), { explain: true })),
    ).toEqual([]);
    expect(
      await issues(reports().visibility(v2({ filter: wide(defaultFilterLimits.maxNodes + 1) }), { explain: true })),
    ).toMatchObject([{ msg: expect.stringContaining(`at most ${defaultFilterLimits.maxNodes}`) }]);
  });

  it(`a matches pattern: ${maxPatternLength} characters accepted, ${maxPatternLength + 1} refused`, async () => {
    const at = { field: 'path', operator: 'matches', value: 'a'.repeat(maxPatternLength) };
    expect(await issues(reports().referrals(referrals({ filters: [at] })))).toEqual([]);
    expect(
      (await issues(reports().referrals(referrals({ filters: [{ ...at, value: 'a'.repeat(maxPatternLength + 1) }] }))))
        .length,
    ).toBe(1);
  });

  it(`the window: ${maxWindowDays} days accepted, ${maxWindowDays + 1} refused (v2 and tabular)`, async () => {
    const start = '2024-01-01';
    expect(
      await issues(reports().visibility(v2({ start_date: start, end_date: plusDays(start, maxWindowDays - 1) }))),
    ).toEqual([]);
    expect(
      await issues(reports().visibility(v2({ start_date: start, end_date: plusDays(start, maxWindowDays) }))),
    ).toMatchObject([{ loc: ['body', 'end_date'] }]);
    // Tabular windows are half-open: [start, end).
    expect(
      await issues(reports().referrals(referrals({ start_date: start, end_date: plusDays(start, maxWindowDays) }))),
    ).toEqual([]);
    expect(
      await issues(reports().referrals(referrals({ start_date: start, end_date: plusDays(start, maxWindowDays + 1) }))),
    ).toMatchObject([{ loc: ['body', 'end_date'] }]);
  });

  it('a v2 page: limit 50 accepted, 51 and 0 refused', async () => {
    expect(await issues(reports().visibility(v2({ limit: 50 })))).toEqual([]);
    for (const limit of [51, 0])
      expect(await issues(reports().visibility(v2({ limit })))).toMatchObject([{ loc: ['body', 'limit'] }]);
  });

  it('a cursor: 4,096 characters read (and refused as a bad cursor), 4,097 refused as too long', async () => {
    const at = await issues(reports().visibility(v2({ cursor: 'x'.repeat(4096) })));
    expect(at.map((i) => i.type)).not.toContain('string_too_long');
    expect(await issues(reports().visibility(v2({ cursor: 'x'.repeat(4097) })))).toMatchObject([
      { type: 'string_too_long', loc: ['body', 'cursor'] },
    ]);
  });

  it('compare START..END: a window of the limit accepted, one day more refused', async () => {
    const start = '2023-01-01';
    const ok = await issues(
      reports().referrals(referrals(), { compare: `${start}..${plusDays(start, maxWindowDays)}` }),
    );
    expect(ok).toEqual([]);
    expect(
      await issues(reports().referrals(referrals(), { compare: `${start}..${plusDays(start, maxWindowDays + 1)}` })),
    ).toMatchObject([{ loc: ['query', 'compare'] }]);
  });

  it(`a name: ${maxNameLength} characters accepted, ${maxNameLength + 1} refused; a prompt: ${maxPromptLength} accepted, ${maxPromptLength + 1} refused`, async () => {
    const scope = engine.org(ids.org1).resources as Json;
    const list = (await scope.prompts({ params: { category_id: ids.cat1 }, query: { limit: 1 } })) as Json;
    const id = (list.data ?? list)[0].id as string;
    const patch = (entry: Json) =>
      issues(scope.updatePrompts({ params: { category_id: ids.cat1 }, body: { prompts: [{ id, ...entry }] } }));
    expect(await patch({ topic: 't'.repeat(maxNameLength) })).toEqual([]);
    expect(await patch({ topic: 't'.repeat(maxNameLength + 1) })).toMatchObject([{ type: 'string_too_long' }]);
    expect(await patch({ prompt: 'p'.repeat(maxPromptLength) })).toEqual([]);
    expect(await patch({ prompt: 'p'.repeat(maxPromptLength + 1) })).toMatchObject([
      { type: 'string_too_long', loc: ['body', 'prompts', 0, 'prompt'] },
    ]);
  });
});

describe('HTTP bounds at the limit and one past it', () => {
  const send = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/v2/reports/visibility`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
      body,
    });

  it(`a body of ${maxBodyBytes} bytes is read, one byte more is a 413`, async () => {
    const json = JSON.stringify(v2({ cursor: null }));
    const padded = (n: number) => json.slice(0, -1) + ' '.repeat(n - json.length) + '}';
    const at = await send(padded(maxBodyBytes));
    expect(at.status).toBe(200);
    const past = await send(padded(maxBodyBytes + 1));
    expect(past.status).toBe(413);
  });

  it(`JSON nested ${maxJsonDepth} levels is parsed, ${maxJsonDepth + 1} is json_invalid`, async () => {
    const nested = (depth: number) =>
      JSON.stringify(v2()).slice(0, -1) + `,"filter":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    const at = (await (await send(nested(maxJsonDepth))).json()) as Json;
    expect(at.detail.map((d: Json) => d.type)).not.toContain('json_invalid');
    const past = (await (await send(nested(maxJsonDepth + 1))).json()) as Json;
    expect(past.detail[0].type).toBe('json_invalid');
  });

  it(`Accept: the ${maxMediaRanges}th media range is read, the ${maxMediaRanges + 1}th ignored`, async () => {
    const accept = (n: number) =>
      [...Array.from({ length: n - 1 }, (_, i) => `application/x-unknown-${i}`), 'text/csv'].join(', ');
    const at = await send(JSON.stringify(v2()), { accept: accept(maxMediaRanges) });
    expect(at.status).toBe(200);
    expect(at.headers.get('content-type')).toContain('text/csv');
    await at.text();
    const past = await send(JSON.stringify(v2()), { accept: accept(maxMediaRanges + 1) });
    expect(past.status).toBe(406);
  });
});
