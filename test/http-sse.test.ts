import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import type { Endpoint, StreamEvent } from '../src/reports/endpoint.ts';
import { parseSse, post, startServer, type TestServer } from './helpers/server.ts';

let engine: Engine;
let server: TestServer;
let key: string;
let orgId: string;
let categoryId: string;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  const [org] = await engine.listOrganizations();
  orgId = org!.id;
  categoryId = org!.categories[0]!.id;
  server = await startServer(engine);
  key = await server.key(orgId);
});
afterAll(async () => {
  await server.close();
  engine.close();
});

const big = () =>
  ({
    category_id: categoryId,
    start_date: '2025-10-01',
    end_date: '2026-11-15',
    scope: 'all',
    group_by: ['prompt', 'date'],
  }) as const;

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await sleep(20);
  }
}

describe('SSE over HTTP', () => {
  it('frames one summary then one result per row, each data line JSON, equal to the library stream', async () => {
    const body = {
      category_id: categoryId,
      start_date: '2026-06-01',
      end_date: '2026-06-30',
      scope: 'all',
      group_by: ['model'],
    } as const;
    const r = await post(`${server.url}/v2/reports/visibility/stream`, body, {
      'x-api-key': key,
      accept: 'text/event-stream',
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-cache');
    const text = await r.text();
    expect(text.endsWith('\n\n')).toBe(true);
    const events = parseSse(text);
    expect(events[0]!.event).toBe('summary');
    expect(events.slice(1).every((e) => e.event === 'result')).toBe(true);
    const library = [];
    for await (const e of engine.org(orgId).reports.visibilityStream(body))
      library.push({ event: e.event, data: e.data });
    expect(events.map((e) => ({ event: e.event, data: JSON.parse(e.data) }))).toEqual(library);
  });

  it('sends a 422 as JSON, not as a stream, when the body is invalid', async () => {
    const r = await post(
      `${server.url}/v2/reports/visibility/stream`,
      { category_id: categoryId },
      { 'x-api-key': key },
    );
    expect(r.status).toBe(422);
    expect(r.headers.get('content-type')).toContain('application/json');
  });

  it('stops the query and frees its connection when the client disconnects mid-stream', async () => {
    const controller = new AbortController();
    const r = await post(`${server.url}/v2/reports/visibility/stream`, big(), { 'x-api-key': key });
    const reader = r.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: summary');
    expect(engine.core.stats.activeStreams).toBe(1);
    await reader.cancel();
    controller.abort();
    await waitFor(() => engine.core.stats.activeStreams === 0);
    await waitFor(() => engine.core.pool.active === 0);
    const again = await post(`${server.url}/v2/reports/visibility`, { ...big(), limit: 1 }, { 'x-api-key': key });
    expect(again.status).toBe(200);
  });

  it('stops a v1 tabular stream too when the client disconnects (regression: v1 streams once ignored disconnects)', async () => {
    const body = {
      category_id: categoryId,
      start_date: '2025-10-01',
      end_date: '2026-11-15',
      metrics: ['count'],
      dimensions: ['url', 'date'],
      pagination: { limit: 50_000 },
    };
    const r = await post(`${server.url}/v1/reports/citations/stream`, body, { 'x-api-key': key });
    const reader = r.body!.getReader();
    await reader.read();
    expect(engine.core.stats.activeStreams).toBe(1);
    await reader.cancel();
    await waitFor(() => engine.core.stats.activeStreams === 0);
    await waitFor(() => engine.core.pool.active === 0);
  });

  it('delivers a large stream whole and in order to a slow reader (backpressure), leaving no listener behind per wait', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const body = JSON.stringify(big());
    const text = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/v2/reports/visibility/stream`,
        { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' } },
        (res) => {
          const chunks: Buffer[] = [];
          let received = 0;
          res.on('data', (c: Buffer) => {
            chunks.push(c);
            received += c.length;
            if (received > 256 * 1024) {
              received = 0;
              res.pause();
              setTimeout(() => res.resume(), 30);
            }
          });
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          res.on('error', reject);
        },
      );
      req.end(body);
    });
    const events = parseSse(text);
    const summary = JSON.parse(events[0]!.data) as { total_results: number };
    expect(summary.total_results).toBeGreaterThan(20_000);
    expect(events.length).toBe(summary.total_results + 1);
    const rows = events.slice(1).map((e) => JSON.parse(e.data) as { date: string; prompt: { name: string } });
    expect(rows[0]!.prompt.name <= rows[rows.length - 1]!.prompt.name).toBe(true);
    await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    expect(warnings.filter((name) => name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});

describe('SSE edge cases', () => {
  let custom: TestServer;
  const stream = (name: string, events: () => AsyncGenerator<StreamEvent>): Endpoint => ({
    method: 'POST',
    path: `/test/${name}`,
    name,
    group: 'reports',
    summary: name,
    tags: [],
    stream: true,
    schemas: {},
    handle: async () => ({ kind: 'stream', events: events() }),
  });
  beforeAll(async () => {
    custom = await startServer(engine, {
      keepAliveMs: 40,
      streams: { perKey: 1, maxSeconds: 0.5 },
      endpoints: [
        stream('slow', async function* () {
          yield { event: 'summary', data: '{"n":1}' };
          await sleep(200);
          yield { event: 'result', data: '{"i":1}' };
        }),
        stream('endless', async function* () {
          yield { event: 'summary', data: '{}' };
          for (;;) {
            await sleep(50);
            yield { event: 'result', data: '{}' };
          }
        }),
        stream('broken', async function* () {
          yield { event: 'summary', data: '{"n":3}' };
          yield { event: 'result', data: '{"i":1}' };
          throw new Error('disk on fire');
        }),
      ],
    });
  });
  afterAll(() => custom.close());

  it('sends comment keep-alives while idle', async () => {
    const k = await custom.key(orgId);
    const text = await (await post(`${custom.url}/test/slow`, {}, { 'x-api-key': k })).text();
    expect(text).toMatch(/\n\n: ping\n\n/);
    expect(parseSse(text).map((e) => e.event)).toEqual(['summary', 'result']);
  });

  it('aborts the connection when a stream fails midway, so it cannot pass for complete', async () => {
    const k = await custom.key(orgId);
    const r = await post(`${custom.url}/test/broken`, {}, { 'x-api-key': k });
    expect(r.status).toBe(200);
    await expect(r.text()).rejects.toThrow();
  });

  it('bounds concurrent streams per key (429) and a stream’s lifetime (the socket is cut)', async () => {
    const k = await custom.key(orgId);
    const first = await post(`${custom.url}/test/endless`, {}, { 'x-api-key': k });
    expect(first.status).toBe(200);
    const second = await post(`${custom.url}/test/endless`, {}, { 'x-api-key': k });
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ code: 'too_many_streams' });
    await expect(first.text()).rejects.toThrow();
    const until = Date.now() + 3000;
    let third = await post(`${custom.url}/test/slow`, {}, { 'x-api-key': k });
    while (third.status === 429 && Date.now() < until) {
      await sleep(50);
      third = await post(`${custom.url}/test/slow`, {}, { 'x-api-key': k });
    }
    expect(third.status).toBe(200);
    await third.text();
  });
});
