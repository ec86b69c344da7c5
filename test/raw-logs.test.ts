import Profound from '@profoundai/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';

let now = new Date('2026-03-01T12:00:00Z');
let engine: Engine;
let server: TestServer;
let key: string;
let domain: string;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, clock: () => now });
  const [org] = await engine.listOrganizations();
  domain = org!.domains[0]!.name;
  server = await startServer(engine);
  key = await server.key(org!.id);
});
afterAll(async () => {
  await server.close();
  await engine.close();
});

type Report = { info: { total_rows: number }; data: { metrics: number[]; dimensions: string[] }[] };

describe('raw log operations before and after their sunset', () => {
  it('count what the v2 bots report counts, for a key made before 2026-04-10, with Deprecation and Sunset headers', async () => {
    const window = { domain, start_date: '2026-02-01', end_date: '2026-02-08' };
    const raw = await post(
      `${server.url}/v1/logs/raw/bots`,
      { ...window, metrics: ['count'], dimensions: ['bot_name'] },
      { 'x-api-key': key },
    );
    expect(raw.status).toBe(200);
    expect(raw.headers.get('sunset')).toBe('Wed, 10 Jun 2026 00:00:00 GMT');
    const v2 = (await (
      await post(
        `${server.url}/v2/reports/bots`,
        { ...window, metrics: ['count'], dimensions: ['bot_name'] },
        { 'x-api-key': key },
      )
    ).json()) as Report;
    const rawJson = (await raw.json()) as Report;
    const byName = (r: Report) => Object.fromEntries(r.data.map((d) => [d.dimensions[0], d.metrics[0]]));
    expect(byName(rawJson)).toEqual(byName(v2));
    const all = (await (
      await post(
        `${server.url}/v1/logs/raw`,
        { ...window, metrics: ['count'], dimensions: ['host'] },
        { 'x-api-key': key },
      )
    ).json()) as Report;
    const referrals = (await (
      await post(`${server.url}/v2/reports/referrals`, { ...window, metrics: ['visits'] }, { 'x-api-key': key })
    ).json()) as Report;
    const total = (r: Report) => r.data.reduce((n, d) => n + d.metrics[0]!, 0);
    expect(total(all)).toBe(total(rawJson) + total(referrals));
    const byMinute = (await (
      await post(
        `${server.url}/v1/logs/raw/bots`,
        { ...window, metrics: ['count'], dimensions: ['timestamp'], pagination: { limit: 3 } },
        { 'x-api-key': key },
      )
    ).json()) as Report;
    expect(byMinute.data[0]!.dimensions[0]).toMatch(/^2026-02-0\dT\d{2}:\d{2}:00Z$/);
  });

  it('work through the official client, and refuse fields this dataset does not record', async () => {
    const client = new Profound({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const r = (await client.logs.raw.bots({
      domain,
      start_date: '2026-02-01',
      end_date: '2026-02-02',
      metrics: ['count'],
      dimensions: ['bot_provider'],
    })) as unknown as Report;
    expect(r.info.total_rows).toBeGreaterThan(0);
    const ip = await post(
      `${server.url}/v1/logs/raw`,
      { domain, start_date: '2026-02-01', metrics: ['count'], dimensions: ['ip'] },
      { 'x-api-key': key },
    );
    expect(ip.status).toBe(422);
  });

  it('answer 410 Gone after the sunset', async () => {
    now = new Date('2026-06-10T00:00:01Z');
    const gone = await post(
      `${server.url}/v1/logs/raw/bots`,
      { domain, start_date: '2026-02-01', metrics: ['count'] },
      { 'x-api-key': key },
    );
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ code: 'gone', detail: expect.stringContaining('/v2/reports/bots') });
  });
});
