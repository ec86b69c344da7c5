import Profound, {
  AuthenticationError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from '@profoundai/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
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

const body = () => ({
  category_id: categoryId,
  start_date: '2026-10-01',
  end_date: '2026-10-31',
  scope: 'all',
  limit: 3,
});
type Page = { info: { count: number; next_cursor: string | null }; data: { asset: { name: string }; rank: number }[] };

describe('the official client @profoundai/client against this server', () => {
  it('calls a v2 report with X-API-Key and with a Bearer access token', async () => {
    const byKey = new Profound({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const page = await byKey.post<Page>('/v2/reports/visibility', { body: body() });
    expect(page.info.count).toBe(3);
    expect(page.data[0]!.rank).toBe(1);
    const byToken = new Profound({ accessToken: key, apiKey: null, baseURL: server.url, maxRetries: 0 });
    expect(await byToken.post<Page>('/v2/reports/visibility', { body: body() })).toEqual(page);
    const next = await byKey.post<Page>('/v2/reports/visibility', {
      body: { ...body(), cursor: page.info.next_cursor },
    });
    expect(next.data[0]!.rank).toBe(4);
  });

  it('maps our errors onto the client’s error classes', async () => {
    const client = new Profound({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const invalid = await client
      .post('/v2/reports/visibility', { body: { ...body(), limit: 0 } })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(UnprocessableEntityError);
    expect((invalid as UnprocessableEntityError).error).toMatchObject({ detail: [{ loc: ['body', 'limit'] }] });
    const wrong = new Profound({ apiKey: 'aea_wrong', baseURL: server.url, maxRetries: 0 });
    expect(await wrong.post('/v2/reports/visibility', { body: body() }).catch((e: unknown) => e)).toBeInstanceOf(
      AuthenticationError,
    );
    const foreign = await client
      .post('/v2/reports/visibility', { body: { ...body(), category_id: otherCategory } })
      .catch((e: unknown) => e);
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

describe('every client method this server implements', () => {
  const client = () => new Profound({ apiKey: key, baseURL: server.url, maxRetries: 0 });
  const isReport = (r: { data: { metrics: unknown[]; dimensions: unknown[] }[]; info: { total_rows: number } }) => {
    expect(typeof r.info.total_rows).toBe('number');
    for (const row of r.data) {
      expect(row.metrics.every((m) => typeof m === 'number' || m === null)).toBe(true);
      expect(row.dimensions.every((d) => typeof d === 'string' || d === null)).toBe(true);
    }
  };
  const named = (xs: { id: string; name: string | null }[]) => {
    expect(xs.length).toBeGreaterThan(0);
    for (const x of xs) expect(typeof x.id).toBe('string');
  };

  it('organization and category listings', async () => {
    const c = client();
    named(await c.organizations.list());
    expect((await c.organizations.domains())[0]).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      organization: { id: orgId },
    });
    expect((await c.organizations.getPersonas()).data[0]).toMatchObject({
      id: expect.any(String),
      persona: { behavior: expect.any(Object), demographics: expect.any(Object), employment: expect.any(Object) },
    });
    expect((await c.organizations.listAssets()).data[0]).toMatchObject({
      id: expect.any(String),
      is_owned: expect.any(Boolean),
      category: { id: expect.any(String) },
    });
    named(await c.organizations.models());
    named(await c.organizations.regions());
    const categories = await c.organizations.categories.list();
    expect(categories.map((x) => x.id)).toContain(categoryId);
    expect((await c.organizations.categories.assets(categoryId))[0]).toMatchObject({
      id: expect.any(String),
      is_owned: expect.any(Boolean),
    });
    expect((await c.organizations.categories.getCategoryPersonas(categoryId)).data.length).toBeGreaterThan(0);
    named(await c.organizations.categories.tags(categoryId));
    expect((await c.organizations.categories.topics(categoryId))[0]).toMatchObject({
      id: expect.any(String),
      status: expect.stringMatching(/active|disabled/),
    });
  });

  it('prompts: list, create (dry run), update (dry run), status', async () => {
    const c = client();
    const page = await c.organizations.categories.prompts(categoryId, { limit: 5 });
    expect(page.data.length).toBe(5);
    expect(page.info).toMatchObject({ limit: 5, total_rows: expect.any(Number) });
    const first = page.data[0]!;
    const created = await c.organizations.categories.createPrompts(categoryId, {
      dry_run: true,
      prompts: [
        {
          prompt: 'Which tents survive a storm?',
          language: 'en-US',
          topic: { name: 'Storm tents' },
          platforms: [{ id: first.platforms[0]!.id }],
          regions: [{ id: first.regions[0]!.id }],
        },
      ],
    });
    expect(created).toMatchObject({ dry_run: true, created: 1, topics_created: 1 });
    const updated = await c.organizations.categories.updatePrompts(categoryId, {
      dry_run: true,
      prompts: [{ id: first.id, prompt: `${first.prompt} (edited)` }],
    });
    expect(updated).toMatchObject({ dry_run: true, updated: 1 });
    const status = await c.organizations.categories.updatePromptStatus(categoryId, {
      dry_run: true,
      prompt_ids: [first.id],
      status: 'disabled',
    });
    expect(status.dry_run).toBe(true);
  });

  it('v1 Insights reports and their streams', async () => {
    const c = client();
    const window = { category_id: categoryId, start_date: '2026-10-01', end_date: '2026-11-01' };
    isReport(
      (await c.reports.visibility({
        ...window,
        metrics: ['visibility_score', 'share_of_voice'],
        dimensions: ['asset_name'],
      })) as never,
    );
    isReport(
      (await c.reports.citations({
        ...window,
        metrics: ['count', 'citation_share'],
        dimensions: ['root_domain'],
        pagination: { limit: 5 },
      })) as never,
    );
    isReport(
      (await c.reports.sentiment({ ...window, metrics: ['positive', 'negative'], dimensions: ['theme'] })) as never,
    );
    isReport(
      (await c.reports.queryFanouts({
        ...window,
        metrics: ['total_fanouts', 'fanouts_per_execution'],
        dimensions: ['model'],
      })) as never,
    );
    for (const stream of [
      await c.reports.streamVisibility({ ...window, metrics: ['visibility_score'], dimensions: ['asset_name'] }),
      await c.reports.streamCitations({
        ...window,
        metrics: ['count'],
        dimensions: ['hostname'],
        pagination: { limit: 3 },
      }),
      await c.reports.streamSentiment({ ...window, metrics: ['positive'], dimensions: ['theme'] }),
    ]) {
      const items = [];
      for await (const item of stream) items.push(item as Record<string, unknown>);
      expect(items[0]).toMatchObject({ query: expect.any(Object), total_rows: expect.any(Number) });
      expect(items.length).toBeGreaterThan(1);
      for (const row of items.slice(1))
        expect(row).toMatchObject({ metrics: expect.any(Array), dimensions: expect.any(Array) });
    }
  });

  it('traffic reports, v1 and v2', async () => {
    const c = client();
    const [domain] = (await c.organizations.domains()).map((d) => d.name);
    const base = { domain: domain!, start_date: '2026-10-01', end_date: '2026-10-08' };
    isReport(
      (await c.reports.getBotsReport({ ...base, metrics: ['count', 'citations'], dimensions: ['bot_name'] })) as never,
    );
    isReport(
      (await c.reports.getBotsReportV2({
        ...base,
        metrics: ['count', 'training'],
        dimensions: ['date', 'bot_type'],
        date_interval: 'day',
      })) as never,
    );
    isReport(
      (await c.reports.getReferralsReport({ ...base, metrics: ['visits'], dimensions: ['referral_source'] })) as never,
    );
    isReport(
      (await c.reports.getReferralsReportV2({
        ...base,
        metrics: ['visits', 'last_visit'],
        dimensions: ['hour'],
      })) as never,
    );
  });

  it('content optimization and agents, including a run', async () => {
    const c = client();
    const owned = (await c.organizations.listAssets()).data.find((a) => a.is_owned)!;
    const content = await c.content.optimization.list(owned.id, { limit: 2 });
    expect(content.data.length).toBe(2);
    expect(content.info.query).toMatchObject({ asset_id: owned.id });
    const detail = await c.content.optimization.retrieve(content.data[0]!.id, { asset_id: owned.id });
    expect(detail.data).toMatchObject({
      analysis: expect.any(Object),
      content: expect.any(Object),
      recommendations: expect.any(Array),
    });
    const agents = await c.agents.list();
    const published = agents.data.find((a) => a.status === 'published')!;
    const agent = await c.agents.retrieve(published.id);
    expect(agent.schema).toMatchObject({ input: expect.any(Object), output: expect.any(Object) });
    const inputs = Object.fromEntries(
      Object.keys((agent.schema.input as { properties: Record<string, unknown> }).properties).map((k) => [
        k,
        k === 'category_id' ? categoryId : k === 'domain' ? 'x' : '2026-10-01',
      ]),
    );
    const run = await c.agents.runs.create(published.id, { inputs });
    expect(run).toMatchObject({
      id: expect.any(String),
      agent_id: published.id,
      status: expect.stringMatching(/queued|running|succeeded|failed/),
    });
    const fetched = await c.agents.runs.retrieve(run.id, { agent_id: published.id });
    expect(fetched.id).toBe(run.id);
  });
});
