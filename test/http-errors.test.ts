import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import type { Endpoint } from '../src/reports/endpoint.ts';
import { endpoints } from '../src/registry.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';

let now = new Date('2026-03-01T12:00:00Z');
let engine: Engine;
let server: TestServer;
let key: string;
const retired: Endpoint = {
  method: 'POST',
  path: '/v1/logs/raw-test',
  name: 'rawTest',
  group: 'reports',
  summary: 'a retired operation',
  tags: [],
  stream: false,
  successor: '/v2/reports/bots',
  sunset: { deprecatedOn: '2026-04-10', newKeysFrom: '2026-04-10', sunsetOn: '2026-06-10' },
  schemas: {},
  handle: async () => ({ kind: 'json', status: 200, json: '{"ok":true}' }),
};
const deprecated: Endpoint = { ...retired, path: '/v1/old-test', name: 'oldTest', sunset: undefined, deprecated: true };

beforeAll(async () => {
  engine = await openFixture(insightsFixture(5, 20), { clock: () => now });
  server = await startServer(engine, { endpoints: [...endpoints, retired, deprecated] });
  key = await server.key(ids.org1);
});
afterAll(async () => {
  await server.close();
  engine.close();
});

const url = (p: string) => `${server.url}${p}`;
const body = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-03-31' };

describe('error bodies', () => {
  it('422 for malformed JSON is FastAPI’s json_invalid with Python’s message and position', async () => {
    const cases: [string, number, string][] = [
      ['{"a": }', 6, 'Expecting value'],
      ["{'a': 1}", 1, 'Expecting property name enclosed in double quotes'],
      ['{"a" 1}', 5, "Expecting ':' delimiter"],
      ['{"a": 1 "b": 2}', 8, "Expecting ',' delimiter"],
      ['{"a": "x', 6, 'Unterminated string starting at'],
      ['{"a": 1} x', 9, 'Extra data'],
      ['[1, 2', 5, "Expecting ',' delimiter"],
      ['{"é": tru}', 6, 'Expecting value'],
    ];
    for (const [text, pos, error] of cases) {
      const r = await post(url('/v2/reports/visibility'), text, { 'x-api-key': key });
      expect(r.status, text).toBe(422);
      expect(await r.json(), text).toEqual({
        detail: [{ type: 'json_invalid', loc: ['body', pos], msg: 'JSON decode error', input: {}, ctx: { error } }],
      });
    }
  });

  it('422 for an empty body, a JSON null, a non-object body and a non-JSON content type', async () => {
    for (const text of ['', 'null']) {
      const r = await post(url('/v2/reports/visibility'), text, { 'x-api-key': key });
      expect(await r.json()).toEqual({
        detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
      });
    }
    const array = await post(url('/v2/reports/visibility'), '[1]', { 'x-api-key': key });
    expect(((await array.json()) as { detail: { type: string }[] }).detail[0]!.type).toBe('model_attributes_type');
    const plain = await fetch(url('/v2/reports/visibility'), {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'text/plain' },
      body: JSON.stringify(body),
    });
    expect(plain.status).toBe(422);
    expect(await plain.json()).toEqual({
      detail: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: JSON.stringify(body),
        },
      ],
    });
  });

  it('401, 403, 404, 405, 413 and 429 share one shape: {detail, code}', async () => {
    const shapes = [
      await post(url('/v2/reports/visibility'), body),
      await post(url('/v2/reports/visibility'), { ...body, category_id: ids.cat2 }, { 'x-api-key': key }),
      await post(
        url('/v2/reports/visibility'),
        { ...body, category_id: '00000000-0000-4000-8000-00000000ffff' },
        { 'x-api-key': key },
      ),
      await fetch(url('/v2/nothing-here'), { headers: { 'x-api-key': key } }),
      await fetch(url('/v2/reports/visibility'), { headers: { 'x-api-key': key } }),
      await post(url('/v2/reports/visibility'), JSON.stringify({ ...body, cursor: 'x'.repeat(2 * 1024 * 1024) }), {
        'x-api-key': key,
      }),
    ];
    expect(shapes.map((r) => r.status)).toEqual([401, 403, 404, 404, 405, 413]);
    for (const r of shapes) {
      expect(r.headers.get('content-type')).toContain('application/json');
      const json = (await r.json()) as Record<string, unknown>;
      expect(Object.keys(json).sort()).toEqual(['code', 'detail']);
      expect(typeof json.detail).toBe('string');
    }
  });

  it('never answers 500 to odd input', async () => {
    const odd = [
      '{"category_id": NaN}',
      '{"category_id": "\\ud800"}',
      '{"filter": {"and": [{"or": [{"not": {"field": "model", "op": "matches", "value": "(?<=x)"}}]}]}}',
      '{"limit": 1e400}',
      '{"__proto__": {"x": 1}}',
      '{"constructor": {"prototype": {}}}',
    ];
    for (const text of odd) {
      const r = await post(url('/v2/reports/visibility'), text, { 'x-api-key': key });
      expect(r.status, text).toBe(422);
    }
  });
});

describe('deprecation and sunset', () => {
  it('marks deprecated operations with Deprecation and Link headers', async () => {
    const r = await post(url('/v1/old-test'), {}, { 'x-api-key': key });
    expect(r.status).toBe(200);
    expect(r.headers.get('deprecation')).toBe('true');
    expect(r.headers.get('link')).toBe('</v2/reports/bots>; rel="successor-version"');
  });

  it('serves raw logs to keys created before 2026-04-10 until the 2026-06-10 sunset, then 410 for every key', async () => {
    now = new Date('2026-03-01T12:00:00Z');
    const old = await server.key(ids.org1);
    now = new Date('2026-04-10T00:00:00Z');
    const fresh = await server.key(ids.org1);
    now = new Date('2026-05-01T00:00:00Z');
    const ok = await post(url('/v1/logs/raw-test'), {}, { 'x-api-key': old });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('sunset')).toBe('Wed, 10 Jun 2026 00:00:00 GMT');
    expect(ok.headers.get('deprecation')).toBe(`@${Date.parse('2026-04-10T00:00:00Z') / 1000}`);
    const refused = await post(url('/v1/logs/raw-test'), {}, { 'x-api-key': fresh });
    expect(refused.status).toBe(410);
    expect(await refused.json()).toMatchObject({ code: 'gone' });
    now = new Date('2026-06-10T00:00:00Z');
    expect((await post(url('/v1/logs/raw-test'), {}, { 'x-api-key': old })).status).toBe(410);
  });
});
