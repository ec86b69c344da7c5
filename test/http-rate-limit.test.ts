import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { parseSse, post, startServer, type TestServer } from './helpers/server.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';
import { RateLimiter } from '../src/http/rate-limit.ts';
import { maxRateWindows } from '../src/limits.ts';

let now = new Date('2026-11-22T12:00:00Z');
let engine: Engine;
let server: TestServer;
let key: string;
beforeAll(async () => {
  engine = await openFixture(insightsFixture(5, 20), { clock: () => now });
  server = await startServer(engine);
  key = await server.key(ids.org1);
});
afterAll(async () => {
  await server.close();
  engine.close();
});

const good = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-03-31' };

describe('rate limits', () => {
  it('puts the three headers on every response, counts 422s and streams, refuses request 601 with 429 and Retry-After, and resets', async () => {
    const start = Math.floor(now.getTime() / 1000);
    const first = await post(`${server.url}/v2/reports/visibility`, good, { 'x-api-key': key });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('600');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('599');
    expect(first.headers.get('x-ratelimit-reset')).toBe(String(start + 3600));
    const stream = await post(`${server.url}/v2/reports/visibility/stream`, good, { 'x-api-key': key });
    expect(stream.headers.get('x-ratelimit-remaining')).toBe('598');
    expect(parseSse(await stream.text())[0]!.event).toBe('summary');
    const invalid = await post(`${server.url}/v2/reports/visibility`, { ...good, limit: 0 }, { 'x-api-key': key });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('x-ratelimit-remaining')).toBe('597');
    let remaining = 597;
    for (let batch = 0; batch < 597; batch += 50) {
      const n = Math.min(50, 597 - batch);
      const responses = await Promise.all(
        Array.from({ length: n }, () =>
          post(`${server.url}/v2/reports/visibility`, { ...good, limit: 0 }, { 'x-api-key': key }),
        ),
      );
      for (const r of responses) {
        expect(r.status).toBe(422);
        expect(r.headers.get('x-ratelimit-limit')).toBe('600');
        await r.arrayBuffer();
      }
      remaining -= n;
    }
    expect(remaining).toBe(0);
    now = new Date(now.getTime() + 1000 * 60 * 10);
    const limited = await post(`${server.url}/v2/reports/visibility`, good, { 'x-api-key': key });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe(String(50 * 60));
    expect(limited.headers.get('x-should-retry')).toBe('false');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await limited.json()).toEqual({ detail: 'Rate limit exceeded', code: 'rate_limited' });
    now = new Date((start + 3600) * 1000);
    const reset = await post(`${server.url}/v2/reports/visibility`, good, { 'x-api-key': key });
    expect(reset.status).toBe(200);
    expect(reset.headers.get('x-ratelimit-remaining')).toBe('599');
  });

  it('tells the client it may retry when the wait is short', async () => {
    const tiny = await startServer(engine, { rateLimit: { max: 1, windowSeconds: 30 } });
    try {
      const k = await tiny.key(ids.org1);
      expect((await post(`${tiny.url}/v2/reports/visibility`, good, { 'x-api-key': k })).status).toBe(200);
      const r = await post(`${tiny.url}/v2/reports/visibility`, good, { 'x-api-key': k });
      expect(r.status).toBe(429);
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(30);
      expect(r.headers.get('x-should-retry')).toBeNull();
    } finally {
      await tiny.close();
    }
  });

  it('limits requests without a valid key by client address', async () => {
    const tiny = await startServer(engine, { rateLimit: { max: 2, windowSeconds: 3600 } });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++)
        codes.push((await post(`${tiny.url}/v2/reports/visibility`, good, { 'x-api-key': `aea_guess${i}` })).status);
      expect(codes).toEqual([401, 401, 429]);
    } finally {
      await tiny.close();
    }
  });
});

describe('rate headers on unrouted paths', () => {
  it('meters 404s and 405s and puts the three headers on them, with a key or without', async () => {
    // Windows persist in the state store, so this test's addresses start fresh on an engine of its own.
    const own = await openFixture(insightsFixture(5, 20), { clock: () => now });
    const tiny = await startServer(own, { rateLimit: { max: 3, windowSeconds: 3600 } });
    try {
      const k = await tiny.key(ids.org1);
      const missing = await fetch(`${tiny.url}/v1/nothing-here`, { headers: { 'x-api-key': k } });
      expect(missing.status).toBe(404);
      expect([missing.headers.get('x-ratelimit-limit'), missing.headers.get('x-ratelimit-remaining')]).toEqual([
        '3',
        '2',
      ]);
      expect(Number(missing.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      const wrongMethod = await fetch(`${tiny.url}/v2/reports/visibility`, { headers: { 'x-api-key': k } });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('x-ratelimit-remaining')).toBe('1');
      const anonymous = await fetch(`${tiny.url}/nowhere`);
      expect(anonymous.status).toBe(404);
      expect(anonymous.headers.get('x-ratelimit-remaining')).toBe('2');
      expect(
        (await post(`${tiny.url}/v2/reports/visibility`, good, { 'x-api-key': k })).headers.get(
          'x-ratelimit-remaining',
        ),
      ).toBe('0');
      const limited = await fetch(`${tiny.url}/v1/nothing-here`, { headers: { 'x-api-key': k } });
      expect(limited.status).toBe(429);
    } finally {
      await tiny.close();
      await own.close();
    }
  });
});

describe('rate windows are bounded', () => {
  it('holds at most maxRateWindows windows under 130,000 addresses, forgetting the least recently seen', async () => {
    const limiter = await RateLimiter.open({ max: 600, windowSeconds: 3600 }, () => now);
    limiter.hit('addr:survivor', now);
    for (let i = 0; i < 130_000; i++) {
      limiter.hit(`addr:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, now);
      if (i % 50_000 === 0) limiter.hit('addr:survivor', now);
    }
    expect(limiter.size).toBe(maxRateWindows);
    expect(limiter.hit('addr:survivor', now).remaining).toBe(600 - 5);
    expect(limiter.hit('addr:10.0.0.0', now).remaining).toBe(599);
    expect(limiter.size).toBe(maxRateWindows);
  });
});

describe('the failed-authentication limit', () => {
  it('stays on with the per-key limit off, at 600 an hour per address by default', async () => {
    const own = await openFixture(insightsFixture(5, 20), { clock: () => now });
    const open = await startServer(own, { rateLimit: false });
    try {
      const k = await open.key(ids.org1);
      const good200 = await post(`${open.url}/v2/reports/visibility`, good, { 'x-api-key': k });
      expect(good200.status).toBe(200);
      expect(good200.headers.get('x-ratelimit-limit')).toBeNull();
      const bad = await post(`${open.url}/v2/reports/visibility`, good, { 'x-api-key': 'aea_guess' });
      expect(bad.status).toBe(401);
      expect([bad.headers.get('x-ratelimit-limit'), bad.headers.get('x-ratelimit-remaining')]).toEqual(['600', '599']);
    } finally {
      await open.close();
      await own.close();
    }
  });

  it('is set on its own (`failedAuthLimit`), and `false` turns it off', async () => {
    const own = await openFixture(insightsFixture(5, 20), { clock: () => now });
    const tiny = await startServer(own, { rateLimit: false, failedAuthLimit: { max: 2, windowSeconds: 3600 } });
    const off = await startServer(own, { rateLimit: false, failedAuthLimit: false });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++)
        codes.push((await post(`${tiny.url}/v2/reports/visibility`, good, { 'x-api-key': `aea_guess${i}` })).status);
      expect(codes).toEqual([401, 401, 429]);
      const k = await tiny.key(ids.org1);
      expect((await post(`${tiny.url}/v2/reports/visibility`, good, { 'x-api-key': k })).status).toBe(200);
      const unlimited = [];
      for (let i = 0; i < 3; i++)
        unlimited.push((await post(`${off.url}/v2/reports/visibility`, good, { 'x-api-key': `aea_guess${i}` })).status);
      expect(unlimited).toEqual([401, 401, 401]);
    } finally {
      await tiny.close();
      await off.close();
      await own.close();
    }
  });
});
