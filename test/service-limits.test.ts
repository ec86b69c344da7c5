import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withBudget } from '../src/engine/budget.ts';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { defaultResultCacheBytes, streamBufferBytes } from '../src/limits.ts';
import { CallAbortedError, ServerBusyError, TimeBudgetError } from '../src/errors.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { jsonResult, type Endpoint, type StreamEvent, type Weight } from '../src/reports/endpoint.ts';
import { endpoints as registry } from '../src/registry.ts';
import { aeaInProcess } from './helpers/cli.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';

/** A statement that runs until it is interrupted: DuckDB checks for an interrupt between vectors. */
const endlessSql = 'SELECT count(*) FROM range(1000000000000) t(i) WHERE hash(i) % 7 = 3';

let engine: Engine;
let orgId: string;
let category: string;
const outcomes: unknown[] = [];
let started = 0;

/** A test operation that runs the endless statement with the call's signal, recording how it ended. */
const endless = (name: string, weight: Weight): Endpoint => ({
  method: 'POST',
  path: `/test/${name}`,
  name,
  group: 'reports',
  summary: name,
  tags: [],
  stream: false,
  weight,
  schemas: {},
  async handle(_input, ctx) {
    started++;
    try {
      await ctx.core.pool.read(endlessSql, [], ctx.signal);
    } catch (error) {
      outcomes.push(error);
      throw error;
    }
    return jsonResult({});
  },
});

const forever: Endpoint = {
  method: 'POST',
  path: '/test/forever-stream',
  name: 'foreverStream',
  group: 'reports',
  summary: 'a stream that never ends',
  tags: [],
  stream: true,
  schemas: {},
  handle: async () => ({
    kind: 'stream',
    events: (async function* (): AsyncGenerator<StreamEvent> {
      yield { event: 'summary', data: '{}' };
      for (;;) {
        await sleep(20);
        yield { event: 'result', data: '{}' };
      }
    })(),
  }),
};

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 1500) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, connections: 2, maxStreams: 2 });
  const [org] = await engine.listOrganizations();
  orgId = org!.id;
  category = org!.categories[0]!.id;
});
afterAll(async () => {
  await engine.close();
});

describe('a request’s statement is interrupted', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine, {
      endpoints: [...registry, endless('endless', 'heavy')],
      timeBudgetMs: 0,
      heavyPerKey: 0,
    });
  });
  afterAll(() => server.close());

  it('when the client disconnects from a non-stream request, and its connection goes back to the pool', async () => {
    const key = await server.key(orgId);
    outcomes.length = 0;
    started = 0;
    const req = httpRequest(`${server.url}/test/endless`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
    });
    req.on('error', () => undefined);
    req.end('{}');
    await waitFor(() => started === 1 && engine.core.pool.active === 1, 'the statement to start');
    req.destroy();
    await waitFor(() => outcomes.length === 1, 'the statement to end');
    expect(outcomes[0]).toBeInstanceOf(CallAbortedError);
    await waitFor(() => engine.core.pool.active === 0, 'the connection to come back');
  });

  it('when the time budget runs out, answering 503 time_budget_exceeded that the official client will not retry', async () => {
    const budgeted = await startServer(engine, { endpoints: [endless('endless', 'heavy')], timeBudgetMs: 300 });
    try {
      outcomes.length = 0;
      const r = await post(`${budgeted.url}/test/endless`, {}, { 'x-api-key': await budgeted.key(orgId) });
      expect(r.status).toBe(503);
      expect(r.headers.get('x-should-retry')).toBe('false');
      expect(r.headers.get('content-type')).toContain('application/json');
      expect(await r.json()).toEqual({
        detail:
          'The request ran longer than its time budget of 0.3 s and was stopped; narrow it (a shorter window, fewer dimensions, a smaller page)',
        code: 'time_budget_exceeded',
      });
      expect(outcomes).toHaveLength(1);
      expect(outcomes[0]).toBeInstanceOf(TimeBudgetError);
      await waitFor(() => engine.core.pool.active === 0, 'the connection to come back');
    } finally {
      await budgeted.close();
    }
  });

  it('in the library too: a budget or the caller’s signal interrupts the statement and rejects with its reason', async () => {
    await expect(
      withBudget(200, undefined, (signal) => engine.core.pool.read(endlessSql, [], signal)),
    ).rejects.toBeInstanceOf(TimeBudgetError);
    const caller = new AbortController();
    const call = withBudget(0, caller.signal, (signal) => engine.core.pool.read(endlessSql, [], signal));
    await waitFor(() => engine.core.pool.active === 1, 'the statement to start');
    caller.abort(new CallAbortedError());
    await expect(call).rejects.toBeInstanceOf(CallAbortedError);
    expect(engine.core.pool.active).toBe(0);
    expect((await engine.core.pool.read('SELECT 42', [])).getRows()).toEqual([[42]]);
  });
});

describe('sharing', () => {
  it('caps a key’s concurrent heavy requests with 429 too_many_heavy_requests; other keys and light requests go on', async () => {
    const server = await startServer(engine, {
      endpoints: [...registry, endless('heavy', 'heavy')],
      timeBudgetMs: 0,
      heavyPerKey: 1,
    });
    const key = await server.key(orgId);
    started = 0;
    const first = new AbortController();
    const running = fetch(`${server.url}/test/heavy`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{}',
      signal: first.signal,
    }).catch(() => undefined);
    try {
      await waitFor(() => started === 1 && engine.core.pool.active === 1, 'the first statement to start');
      const second = await post(`${server.url}/test/heavy`, {}, { 'x-api-key': key });
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBe('1');
      expect(await second.json()).toEqual({
        detail: 'At most 1 reports may run at once per API key; retry when one has finished',
        code: 'too_many_heavy_requests',
      });
      const light = await fetch(`${server.url}/v1/org/models`, { headers: { 'x-api-key': key } });
      expect(light.status).toBe(200);
    } finally {
      first.abort();
      await running;
      await waitFor(() => engine.core.pool.active === 0, 'the connection to come back');
      await server.close();
    }
  });

  it('serves listings, key checks, /docs and /openapi.json while every heavy connection is busy', async () => {
    const server = await startServer(engine, {
      endpoints: [...registry, endless('busy', 'heavy')],
      timeBudgetMs: 0,
      heavyPerKey: 0,
    });
    const key = await server.key(orgId);
    started = 0;
    const stop = new AbortController();
    const busy = Array.from({ length: engine.core.pool.size }, () =>
      fetch(`${server.url}/test/busy`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: '{}',
        signal: stop.signal,
      }).catch(() => undefined),
    );
    try {
      await waitFor(
        () => started === engine.core.pool.size && engine.core.pool.active === 2,
        'both heavy connections to be busy',
      );
      const fresh = await server.key(orgId);
      for (const path of [
        '/v1/org/models',
        '/v1/org/regions',
        `/v1/org/categories/${category}/tags`,
        `/v1/org/categories/${category}/prompts?limit=1`,
      ]) {
        const r = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': fresh } });
        expect(r.status, path).toBe(200);
      }
      expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
      expect((await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    } finally {
      stop.abort();
      await Promise.all(busy);
      await waitFor(() => engine.core.pool.active === 0, 'the connections to come back');
      await server.close();
    }
  });
});

describe('the global stream bound', () => {
  it('answers 503 server_busy with Retry-After once every stream slot of the process is taken, whoever holds them', async () => {
    const server = await startServer(engine, { endpoints: [forever], rateLimit: false });
    const stops: AbortController[] = [];
    const open = async (key: string) => {
      const stop = new AbortController();
      stops.push(stop);
      return fetch(`${server.url}/test/forever-stream`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: '{}',
        signal: stop.signal,
      });
    };
    try {
      const a = await open(await server.key(orgId));
      const b = await open(await server.key(orgId));
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(engine.core.streams.inUse).toBe(2);
      const c = await open(await server.key(orgId));
      expect(c.status).toBe(503);
      expect(c.headers.get('retry-after')).toBe('5');
      expect(await c.json()).toEqual({
        detail: 'The server has 2 streams open, its limit; retry shortly',
        code: 'server_busy',
      });
      const library = engine.org(orgId).stream('visibility')({});
      await expect(library[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(ServerBusyError);
    } finally {
      for (const s of stops) s.abort();
      await waitFor(() => engine.core.streams.inUse === 0, 'the stream slots to be released');
      await server.close();
    }
  });
});

describe('the memory budget', () => {
  it('gives DuckDB the budget less one stream buffer per stream that may be open and the result cache', async () => {
    const budgeted = await openEngine({ data: sampleDir, memoryLimit: '1GiB', maxStreams: 4 });
    try {
      const limit = (await budgeted.core.pool.read(`SELECT current_setting('memory_limit')`, [])).getRows()[0]![0];
      const mib = (2 ** 30 - 4 * streamBufferBytes - defaultResultCacheBytes) / 2 ** 20;
      expect(String(limit)).toBe(`${mib.toFixed(1)} MiB`);
      expect(budgeted.core.limits.memory).toEqual({
        budget: 2 ** 30,
        streamReserve: 4 * streamBufferBytes,
        resultCache: defaultResultCacheBytes,
        database: 2 ** 30 - 4 * streamBufferBytes - defaultResultCacheBytes,
      });
    } finally {
      await budgeted.close();
    }
  });

  it('hands freed memory back soon: DuckDB flushes its allocator past a small peak, in the background', async () => {
    const engine = await openEngine({ data: sampleDir });
    try {
      const [threshold, background] = (
        await engine.core.pool.read(
          `SELECT current_setting('allocator_flush_threshold'), current_setting('allocator_background_threads')`,
          [],
        )
      ).getRows()[0]!;
      expect([String(threshold), background]).toEqual(['16.0 MiB', true]);
    } finally {
      await engine.close();
    }
  });

  it('answers 503 unavailable, not a 500, when a statement outgrows DuckDB’s share', async () => {
    const small = await openEngine({ data: sampleDir, memoryLimit: 68 * 2 ** 20, maxStreams: 1 });
    const hungry: Endpoint = {
      ...endless('hungry', 'heavy'),
      handle: async (_input, ctx) =>
        jsonResult(
          (
            await ctx.core.pool.read(`SELECT list(i::VARCHAR || ' padding') FROM range(50000000) t(i)`, [], ctx.signal)
          ).getRows().length,
        ),
    };
    const server = await startServer(small, { endpoints: [hungry] });
    try {
      const r = await post(`${server.url}/test/hungry`, {}, { 'x-api-key': await server.key(orgId) });
      expect(r.status).toBe(503);
      expect(await r.json()).toMatchObject({
        code: 'unavailable',
        detail: expect.stringContaining('more memory than the server’s budget'),
      });
    } finally {
      await server.close();
      await small.close();
    }
  });

  it('refuses a budget that leaves DuckDB too little, or that it cannot read', async () => {
    await expect(openEngine({ data: sampleDir, memoryLimit: '100MB', maxStreams: 16 })).rejects.toThrow(
      /leaves DuckDB .* once 16 stream buffers/,
    );
    await expect(openEngine({ data: sampleDir, memoryLimit: 'lots' })).rejects.toThrow(
      /cannot read the memory size 'lots'/,
    );
    const cli = await aeaInProcess(['serve', '--data', sampleDir, '--memory-limit', '100MB']);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(
      /^aea: --memory-limit: a memory budget of 95 MiB leaves DuckDB 31 MiB once 16 stream buffers of 4 MiB are reserved/,
    );
  });
});
