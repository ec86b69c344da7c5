import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { analyticsApi } from '../src/http/create-server.ts';
import { ApiKeys } from '../src/state/api-keys.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(insightsFixture(5, 10));
});
afterAll(() => engine.close());

describe('the service as a plugin of another Fastify app', () => {
  it('mounts under a prefix next to the host app’s own routes, whose errors and parsers it leaves alone', async () => {
    const host = Fastify();
    host.get('/status', async () => ({ host: true }));
    host.post('/echo', async (req) => req.body);
    await host.register(analyticsApi, { engine, prefix: '/analytics' });
    const address = await host.listen({ port: 0, host: '127.0.0.1' });
    try {
      const key = (
        await ApiKeys.of(engine.core.state).create({
          organizationId: ids.org1,
          name: 'plugin',
          expiresOn: '2099-01-01',
          now: new Date(),
        })
      ).key;
      const body = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-03-31' };
      const r = await fetch(`${address}/analytics/v2/reports/visibility`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(r.status).toBe(200);
      expect(await (await fetch(`${address}/status`)).json()).toEqual({ host: true });
      const echo = await fetch(`${address}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect(await echo.json()).toEqual({ a: 1 });
      expect((await fetch(`${address}/analytics/docs`)).status).toBe(200);
      expect(
        (await fetch(`${address}/analytics/v2/reports/visibility`, { headers: { 'x-api-key': key } })).status,
      ).toBe(405);
    } finally {
      await host.close();
    }
  });
});
