import Profound, { AuthenticationError, PermissionDeniedError, RateLimitError, UnprocessableEntityError } from '@profoundai/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/engine/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { startServer, type TestServer } from './helpers/server.ts';

let engine: Engine;
let server: TestServer;
let key: string;
let orgId: string;
let otherCategory: string;
let categoryId: string;
beforeAll(async () => {
  delete process.env.PROFOUND_API_KEY;
  delete process.env.PROFOUND_ACCESS_TOKEN;
  engine = await openEngine({ data: sampleDir });
  const orgs = await engine.listOrganizations();
  orgId = orgs[0]!.id;
  categoryId = orgs[0]!.categories[0]!.id;
  otherCategory = orgs[1]!.categories[0]!.id;
  server = await startServer(engine);
  key = await server.key(orgId);
});
afterAll(async () => {
  await server.close();
  engine.close();
});

const body = () => ({ category_id: categoryId, start_date: '2026-10-01', end_date: '2026-10-31', scope: 'all', limit: 3 });
type Page = { info: { count: number; next_cursor: string | null }; data: { asset: { name: string }; rank: number }[] };

describe('the official client @profoundai/client against this server', () => {
  it('calls a v2 report with X-API-Key and with a Bearer access token', async () => {
    const byKey = new Profound({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const page = await byKey.post<Page>('/v2/reports/visibility', { body: body() });
    expect(page.info.count).toBe(3);
    expect(page.data[0]!.rank).toBe(1);
    const byToken = new Profound({ accessToken: key, apiKey: null, baseURL: server.url, maxRetries: 0 });
    expect(await byToken.post<Page>('/v2/reports/visibility', { body: body() })).toEqual(page);
    const next = await byKey.post<Page>('/v2/reports/visibility', { body: { ...body(), cursor: page.info.next_cursor } });
    expect(next.data[0]!.rank).toBe(4);
  });

  it('maps our errors onto the client’s error classes', async () => {
    const client = new Profound({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const invalid = await client.post('/v2/reports/visibility', { body: { ...body(), limit: 0 } }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(UnprocessableEntityError);
    expect((invalid as UnprocessableEntityError).error).toMatchObject({ detail: [{ loc: ['body', 'limit'] }] });
    const wrong = new Profound({ apiKey: 'aea_wrong', baseURL: server.url, maxRetries: 0 });
    expect(await wrong.post('/v2/reports/visibility', { body: body() }).catch((e: unknown) => e)).toBeInstanceOf(AuthenticationError);
    const foreign = await client.post('/v2/reports/visibility', { body: { ...body(), category_id: otherCategory } }).catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(PermissionDeniedError);
    expect((foreign as PermissionDeniedError).message).toContain('403');
  });

  it('retries a 429 after the short Retry-After we send, and fails fast on a long one', async () => {
    const tiny = await startServer(engine, { rateLimit: { max: 1, windowSeconds: 1 } });
    try {
      const k = await tiny.key(orgId);
      const client = new Profound({ apiKey: k, baseURL: tiny.url, maxRetries: 2 });
      await client.post('/v2/reports/visibility', { body: body() });
      const started = Date.now();
      const page = await client.post<Page>('/v2/reports/visibility', { body: body() });
      expect(page.info.count).toBe(3);
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    } finally {
      await tiny.close();
    }
    const hourly = await startServer(engine, { rateLimit: { max: 1, windowSeconds: 3600 } });
    try {
      const k = await hourly.key(orgId);
      const client = new Profound({ apiKey: k, baseURL: hourly.url, maxRetries: 2 });
      await client.post('/v2/reports/visibility', { body: body() });
      const started = Date.now();
      const limited = await client.post('/v2/reports/visibility', { body: body() }).catch((e: unknown) => e);
      expect(limited).toBeInstanceOf(RateLimitError);
      expect((limited as RateLimitError).headers?.get('retry-after')).toBe('3600');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await hourly.close();
    }
  });
});
