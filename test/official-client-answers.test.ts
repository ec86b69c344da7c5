import Profound, { PermissionDeniedError, UnprocessableEntityError } from '@profoundai/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { parseSse, startServer, type TestServer } from './helpers/server.ts';

let engine: Engine;
let server: TestServer;
let client: Profound;
let orgId: string;
let categoryId: string;
let otherCategory: string;
let regionId: string;
beforeAll(async () => {
  delete process.env.PROFOUND_API_KEY;
  delete process.env.PROFOUND_ACCESS_TOKEN;
  engine = await openEngine({ data: sampleDir });
  const orgs = await engine.listOrganizations();
  orgId = orgs[0]!.id;
  categoryId = orgs[0]!.categories[0]!.id;
  otherCategory = orgs[1]!.categories[0]!.id;
  server = await startServer(engine);
  client = new Profound({ apiKey: await server.key(orgId), baseURL: server.url, maxRetries: 0 });
  const rows = await engine.core.pool.use((c) =>
    c.runAndReadAll(`SELECT region_id FROM executions WHERE category_id = '${categoryId}' LIMIT 1`),
  );
  regionId = String(rows.getRowsJS()[0]![0]);
});
afterAll(async () => {
  await server.close();
  engine.close();
});

const window = () => ({ category_id: categoryId, start_date: '2026-10-01', end_date: '2026-10-08' });

describe('client.prompts.answers (POST /v1/prompts/answers) from @profoundai/client 0.46.0', () => {
  it('answers the client’s typed rows and total_rows, as the library does', async () => {
    const response = await client.prompts.answers({ ...window(), pagination: { limit: 5 } });
    expect(response.info.total_rows).toBeGreaterThan(5);
    expect(response.data).toHaveLength(5);
    for (const row of response.data) {
      expect(row).toMatchObject({
        run_id: expect.any(String),
        created_at: expect.stringMatching(/^2026-10-0\dT/),
        model: expect.any(String),
        prompt: expect.any(String),
        mentions: expect.any(Array),
        citations: expect.any(Array),
        search_queries: expect.any(Array),
      });
      expect(typeof row.search_triggered).toBe('boolean');
      expect(row.prompt_type).toBeUndefined();
    }
    const library = await engine.org(orgId).reports.promptAnswersV1({ ...window(), pagination: { limit: 5 } });
    expect(response).toEqual(library);
  });

  it('takes the client’s filters (deprecated aliases too), include flags and offset pagination', async () => {
    const filters = [
      { field: 'region' as const, operator: 'is' as const, value: regionId },
      { field: 'prompt_type' as const, operator: 'in' as const, value: ['visibility' as const] },
    ];
    const all = await client.prompts.answers({ ...window(), filters });
    expect(all.info.total_rows).toBeGreaterThan(2);
    const page = await client.prompts.answers({
      ...window(),
      filters,
      include: { response: false, themes: true, mentions: true },
      pagination: { limit: 2, offset: 1 },
    });
    expect(page.info.total_rows).toBe(all.info.total_rows);
    expect(page.data.map((r) => r.run_id)).toEqual(all.data.slice(1, 3).map((r) => r.run_id));
    expect(page.data[0]).not.toHaveProperty('response');
    expect(page.data[0]).toHaveProperty('themes');
    expect(all.data.every((r) => r.analysis_types?.includes('visibility'))).toBe(true);
  });

  it('the v2 answers and their stream cross HTTP as the library returns them', async () => {
    const headers = { 'x-api-key': client.apiKey!, 'content-type': 'application/json' };
    const body = { ...window(), include: ['run_id', 'mentions'], max_results: 3 };
    const page = await fetch(`${server.url}/v2/prompts/answers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, max_results: undefined, limit: 3 }),
    });
    expect(page.status).toBe(200);
    const json = (await page.json()) as { data: unknown[] };
    const stream = await fetch(`${server.url}/v2/prompts/answers/stream`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await stream.text());
    expect(events.map((e) => e.event)).toEqual(['summary', 'result', 'result', 'result']);
    expect(events.slice(1).map((e) => JSON.parse(e.data))).toEqual(json.data);
  });

  it('maps a bad filter value to UnprocessableEntityError and another organization’s category to PermissionDeniedError', async () => {
    const invalid = await client.prompts
      .answers({ ...window(), filters: [{ field: 'model_id', operator: 'is', value: 'gpt' }] })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(UnprocessableEntityError);
    expect((invalid as UnprocessableEntityError).error).toMatchObject({
      detail: [{ type: 'uuid_parsing', loc: ['body', 'filters', 0, 'value'] }],
    });
    expect(
      await client.prompts.answers({ ...window(), category_id: otherCategory }).catch((e: unknown) => e),
    ).toBeInstanceOf(PermissionDeniedError);
  });
});
