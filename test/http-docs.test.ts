import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { operationExample } from '../src/http/openapi-examples.ts';
import { endpoints } from '../src/registry.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { insightsFixture } from './fixtures/insights.ts';

let engine: Engine;
let server: TestServer;
beforeAll(async () => {
  engine = await openFixture(insightsFixture(5, 10));
  server = await startServer(engine);
});
afterAll(async () => {
  await server.close();
  engine.close();
});

type OpenApi = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>
  >;
  components: { securitySchemes: Record<string, unknown> };
};

describe('OpenAPI and the docs page', () => {
  it('serves an OpenAPI 3.1 document with every registered operation', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApi;
    expect(doc.openapi).toBe('3.1.0');
    for (const e of endpoints)
      expect(doc.paths[e.path]?.[e.method.toLowerCase()], `${e.method} ${e.path}`).toBeDefined();
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['APIKeyHeader', 'BearerAuth']);
    const visibility = doc.paths['/v2/reports/visibility']!.post!.requestBody!.content['application/json']!.schema;
    expect(Object.keys(visibility.properties!)).toEqual(
      expect.arrayContaining(['category_id', 'start_date', 'end_date', 'filter', 'group_by', 'limit']),
    );
    expect(JSON.stringify(doc)).not.toContain('#/$defs/');
  });

  it('renders /docs in headless Chromium, listing the endpoints, with no request off this server; Try it out holds the example', async () => {
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      await page.goto(`${server.url}/docs`);
      await page.waitForSelector('.opblock', { timeout: 20_000 });
      const text = await page.locator('#ui').innerText();
      for (const e of endpoints.slice(0, 5)) expect(text).toContain(e.path);
      expect(requested.length).toBeGreaterThan(2);
      for (const u of requested) expect(u.startsWith(server.url) || u.startsWith('data:'), u).toBe(true);
      // "Try it out" starts from the operation's example, not from Swagger's placeholders.
      await page.locator('.opblock-summary-path[data-path="/v2/reports/visibility"]').first().click();
      await page.locator('.opblock.is-open .try-out__btn').click();
      const body = JSON.parse(await page.locator('.opblock.is-open textarea.body-param__text').inputValue()) as unknown;
      expect(body).toEqual(operationExample('POST', '/v2/reports/visibility')!.body);
    } finally {
      await browser?.close();
    }
  }, 60_000);
});
