import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';

let now = new Date('2026-11-22T12:00:00Z');
let engine: Engine;
let server: TestServer;
let key1: string;
let key2: string;
beforeAll(async () => {
  engine = await openFixture(insightsFixture(5, 20), { clock: () => now });
  server = await startServer(engine);
  key1 = await server.key(ids.org1);
  key2 = await server.key(ids.org2);
});
afterAll(async () => {
  await server.close();
  engine.close();
});

const body = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-03-31', scope: 'all' };
const visibility = (headers: Record<string, string>, b: unknown = body) =>
  post(`${server.url}/v2/reports/visibility`, b, headers);

describe('authentication over HTTP', () => {
  it('answers with the X-API-Key header, and with a Bearer token', async () => {
    const a = await visibility({ 'x-api-key': key1 });
    expect(a.status).toBe(200);
    const b = await visibility({ authorization: `Bearer ${key1}` });
    expect(b.status).toBe(200);
    expect(await b.json()).toEqual(await a.json());
  });

  it('refuses no key, a wrong key, a malformed Authorization header with 401 and one body shape', async () => {
    for (const headers of [
      {},
      { 'x-api-key': 'aea_wrong' },
      { 'x-api-key': key1.slice(0, -1) + 'x' },
      { authorization: `Basic ${key1}` },
      { 'x-api-key': '' },
    ] as Record<string, string>[]) {
      const r = await visibility(headers);
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toContain('application/json');
      const json = (await r.json()) as Record<string, unknown>;
      expect(Object.keys(json).sort()).toEqual(['code', 'detail']);
      expect(json.code).toBe('unauthorized');
    }
  });

  it('prefers X-API-Key when both headers come, as the official client may send both', async () => {
    expect((await visibility({ 'x-api-key': key1, authorization: 'Bearer some-workos-token' })).status).toBe(200);
    expect((await visibility({ 'x-api-key': 'aea_nope', authorization: `Bearer ${key1}` })).status).toBe(401);
  });

  it('refuses a key after the end of its expiry day, and a revoked key', async () => {
    const expiring = await server.key(ids.org1, '2026-11-23');
    now = new Date('2026-11-23T23:59:59Z');
    expect((await visibility({ 'x-api-key': expiring })).status).toBe(200);
    now = new Date('2026-11-24T00:00:00Z');
    expect((await visibility({ 'x-api-key': expiring })).status).toBe(401);
    now = new Date('2026-11-22T12:00:00Z');
    const revoked = await server.key(ids.org1);
    const record = (await server.keys.list(ids.org1)).find((k) => revoked.startsWith(k.prefix))!;
    expect((await visibility({ 'x-api-key': revoked })).status).toBe(200);
    await server.keys.revoke(record.id, now);
    expect((await visibility({ 'x-api-key': revoked })).status).toBe(401);
  });

  it('binds a key to its organization: another org’s category is 403, an unknown one 404', async () => {
    const foreign = await visibility({ 'x-api-key': key2 });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: 'forbidden' });
    const unknown = await visibility(
      { 'x-api-key': key1 },
      { ...body, category_id: '00000000-0000-4000-8000-00000000abcd' },
    );
    expect(unknown.status).toBe(404);
    const own = await visibility({ 'x-api-key': key2 }, { ...body, category_id: ids.cat2 });
    expect(own.status).toBe(200);
    expect(JSON.stringify(await own.json())).not.toMatch(/Acme|Brandy|Zeta/);
  });

  it('stores only a hash and a display prefix', async () => {
    const rows = await engine.core.state.read(async (c) =>
      (await c.runAndReadAll('SELECT * FROM state.api_keys')).getRowObjectsJS(),
    );
    const text = JSON.stringify(rows);
    expect(text).not.toContain(key1);
    expect(text).not.toContain(key1.slice(12));
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(String(r.hash)) && String(r.prefix).length === 12)).toBe(true);
  });

  it('keeps the docs page, OpenAPI and health public', async () => {
    for (const path of ['/openapi.json', '/docs', '/healthz'])
      expect((await fetch(`${server.url}${path}`)).status).toBe(200);
  });
});
