import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { mcpServerFor } from '../src/server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { openEngine } from '../src/open-engine.ts';
import { toWire } from '../src/query/filter-node.ts';
import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { endpoints } from '../src/registry.ts';
import { ApiKeys } from '../src/state/api-keys.ts';
import { ToolCatalog } from '../src/mcp/tool-catalog.ts';
import { maxRowBytes } from '../src/mcp/bounded-answer.ts';
import { metricLine, metricsOf } from '../src/mcp/report-metrics.ts';
import { readFileSync } from 'node:fs';
import { manifestUrl } from '../src/mcp/tool-source.ts';
import { manifestText } from '../scripts/mcp-manifest.ts';
import { aeaBin } from './helpers/cli.ts';
import { endpointAt, everyReportCases, sampleScopes, type Case, type Scopes } from './helpers/every-report.ts';
import { filterArbitrary } from './helpers/filter-arbitrary.ts';

/**
 * `aea mcp` over stdio and `aea serve`'s /mcp over HTTP, each a real process driven by the SDK's client,
 * against the library over the same sample: the same rows and fingerprints, the same refusals.
 */
type Answer = {
  rows: unknown[];
  fingerprint: string | null;
  next_cursor: string | null;
  row_count: number;
  bounded_by: string | null;
  empty_reason?: { reason: string; unknown?: { closest: string[] }[]; span?: unknown };
  window: unknown;
  filters: unknown;
  metric_definitions: unknown;
  info: Record<string, unknown>;
};

let library: Engine;
let scopes: Scopes;
let orgA: string;
let orgB: string;
let telehealth: string;
const keys: Record<string, string> = {};
let serveProcess: ChildProcess;
let keyedState: string;
let address: string;
const clients: { stdio?: Client; http?: Client; httpB?: Client } = {};
const catalog = new ToolCatalog(endpoints);

const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<Answer> => {
  const r = await client.callTool({ name, arguments: args });
  return JSON.parse((r.content as { text: string }[])[0]!.text) as Answer;
};
const refusal = async (client: Client, name: string, args: Record<string, unknown>): Promise<McpError> => {
  try {
    await client.callTool({ name, arguments: args });
  } catch (error) {
    return error as McpError;
  }
  throw new Error(`${name} answered`);
};

async function startServe(state: string): Promise<{ child: ChildProcess; address: string }> {
  const child = spawn(
    process.execPath,
    [
      aeaBin,
      'serve',
      '--data',
      sampleDir,
      '--state',
      state,
      '--port',
      '0',
      '--quiet',
      '--mcp-allow-writes',
      '--rate-limit',
      '100000',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /on (http:\/\/[^;\s]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  return { child, address };
}

const httpClient = async (key: string) => {
  const client = new Client({ name: 'mcp-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${address}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }),
  );
  return client;
};

let dir: string | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aea-mcp-'));
  const serveState = join(dir, 'serve.duckdb');
  // One state store copied three times: the same content and cursor secret, so the three faces' fingerprints agree.
  {
    const keysEngine = await openEngine({ data: sampleDir, state: serveState });
    scopes = await sampleScopes(keysEngine);
    orgA = scopes.insights.org;
    orgB = scopes.sentiment.org;
    for (const org of [orgA, orgB])
      keys[org] = (
        await ApiKeys.of(keysEngine.core.state).create({
          organizationId: org,
          name: 'mcp test',
          expiresOn: '2099-12-31',
          now: new Date(),
        })
      ).key;
    await keysEngine.close();
  }
  await copyFile(serveState, join(dir, 'library.duckdb'));
  await copyFile(serveState, join(dir, 'mcp.duckdb'));
  keyedState = join(dir, 'keyed.duckdb');
  await copyFile(serveState, keyedState);
  library = await openEngine({ data: sampleDir, state: join(dir, 'library.duckdb') });
  const orgs = await library.listOrganizations();
  telehealth = orgs.find((o) => o.id === orgA)!.categories.find((c) => c.name === 'Telehealth Services')!.id;
  const stdio = new Client({ name: 'mcp-test', version: '1' });
  const connecting = stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [aeaBin, 'mcp', '--data', sampleDir, '--org', orgA, '--state', join(dir, 'mcp.duckdb')],
      stderr: 'pipe',
    }),
  );
  ({ child: serveProcess, address } = await startServe(serveState));
  await connecting;
  clients.stdio = stdio;
  clients.http = await httpClient(keys[orgA]!);
  clients.httpB = await httpClient(keys[orgB]!);
}, 300_000);

afterAll(async () => {
  await Promise.all([clients.stdio?.close(), clients.http?.close(), clients.httpB?.close()]);
  if (serveProcess && serveProcess.exitCode === null) {
    const exited = new Promise((resolve) => serveProcess.on('exit', resolve));
    serveProcess.kill('SIGTERM');
    await exited;
  }
  await library?.close();
  // Last: the processes and the engine that held the state files are gone.
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

const both = () =>
  [
    ['stdio', clients.stdio!],
    ['http', clients.http!],
  ] as const;

describe('listing', () => {
  it('states metric definitions in every report tool that has metrics, from src/model/metrics.ts', () => {
    for (const tool of catalog.tools.values()) {
      if (!tool.rows) continue;
      const defs = metricsOf(tool.name);
      if (['rawLogs', 'rawBotLogs'].includes(tool.name)) expect(defs).toEqual([]);
      else expect(defs.length, tool.name).toBeGreaterThan(0);
      for (const m of defs) expect(tool.description).toContain(metricLine(m));
    }
    expect(metricsOf('visibilityV1').map((m) => m.name)).toContain('executions');
    expect(metricsOf('visibility').map((m) => m.name)).not.toContain('executions');
    expect(metricsOf('factcheck').map((m) => m.name)).not.toContain('fact-check occurrence');
  });

  it('src/mcp/tool-manifest.json, which aea mcp lists at start, is the registry’s tools (run `npm run mcp:manifest` after changing them)', () => {
    expect(readFileSync(manifestUrl, 'utf8')).toBe(manifestText());
  });

  it('lists one tool per report and read resource, the resources and the prompts, on both transports', async () => {
    const readTools = [...catalog.tools.values()]
      .filter((t) => !t.write)
      .map((t) => t.name)
      .sort();
    expect(readTools).toEqual(
      expect.arrayContaining(endpoints.filter((e) => e.group === 'reports' && !e.stream).map((e) => e.name)),
    );
    expect(readTools).toEqual(
      expect.arrayContaining(['categories', 'prompts', 'searchKnowledgeBase', 'knowledgeBases']),
    );
    const [, stdio] = both()[0];
    const listed = (await stdio.listTools()).tools;
    expect(listed.map((t) => t.name).sort()).toEqual(readTools);
    const visibility = listed.find((t) => t.name === 'visibility')!;
    expect(visibility.description).toContain(
      'visibility_score = executions with a mentions row for the asset / executions in scope',
    );
    expect(Object.keys(visibility.inputSchema.properties!)).toEqual(
      expect.arrayContaining([
        'category_id',
        'start_date',
        'filter',
        'group_by',
        'fill',
        'compare',
        'components',
        'explain',
        'result_cursor',
        'max_rows',
      ]),
    );
    // Over HTTP the server was started with --mcp-allow-writes: the write tools are listed there too.
    const overHttp = (await clients.http!.listTools()).tools.map((t) => t.name);
    expect(overHttp).toEqual(
      expect.arrayContaining([...readTools, 'createPrompts', 'updatePromptStatus', 'createKnowledgeBaseDocument']),
    );
    for (const [, client] of both()) {
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
        'aea://model/metrics',
        'aea://model/dimensions',
        'aea://org/categories',
      ]);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual([
        'visibility_change',
        'competitor_only_domains',
        'top_cited_pages',
      ]);
    }
    const categories = JSON.parse(
      ((await stdio.readResource({ uri: 'aea://org/categories' })).contents[0] as { text: string }).text,
    ) as { categories: { id: string }[] };
    expect(categories.categories.map((c) => c.id).sort()).toEqual(
      (await library.listOrganizations())
        .find((o) => o.id === orgA)!
        .categories.map((c) => c.id)
        .sort(),
    );
    const metrics = JSON.parse(
      ((await clients.http!.readResource({ uri: 'aea://model/metrics' })).contents[0] as { text: string }).text,
    ) as { metrics: { name: string }[] };
    expect(metrics.metrics.map((m) => m.name)).toContain('visibility_score');
    const prompt = await stdio.getPrompt({
      name: 'visibility_change',
      arguments: { category_id: scopes.insights.category },
    });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('"compare": "previous_period"');
  });
});

/** The library's page for a case: the numbers and fingerprint every face must give. */
const libraryPage = (c: Case) =>
  library.org(c.scope.org).report(endpointAt(c.path).name)(c.body) as Promise<{
    info: { fingerprint: string };
    data?: unknown[];
    sections?: unknown[];
  }>;

const pools = (names: Record<string, string[]>) =>
  Object.fromEntries(
    Object.entries(names).map(([field, exact]) => [field, { exact: [...exact, 'nope'], text: ['', 'a', 'e', '%'] }]),
  );

describe('every report tool against the library', () => {
  it('answers valid random requests with the library’s rows and fingerprint, over stdio and HTTP', async () => {
    const vocab = await library.org(orgA).resources;
    const names = (list: unknown) => (list as { name: string }[]).map((x) => x.name);
    const filterPools = pools({
      model: names(await vocab.models!()),
      region: names(await vocab.regions!()),
      topic: names(await vocab.categoryTopics!({ params: { category_id: scopes.insights.category } })),
      tag: names(await vocab.categoryTags!({ params: { category_id: scopes.insights.category } })),
      persona: names(
        ((await vocab.categoryPersonas!({ params: { category_id: scopes.insights.category } })) as { data: unknown })
          .data,
      ),
    });
    const filterable = new Set([
      '/v2/reports/visibility',
      '/v2/reports/citations',
      '/v2/reports/query-fanouts',
      '/v2/reports/social/videoplatform/videos',
      '/v2/reports/social/videoplatform/channels',
      '/v2/reports/shopping/products',
    ]);
    const cases = everyReportCases(scopes);
    expect(new Set(cases.map((c) => endpointAt(c.path).name))).toEqual(
      new Set(endpoints.filter((e) => e.group === 'reports' && !e.stream).map((e) => e.name)),
    );
    const request = fc.record({
      filter: fc.option(filterArbitrary(promptFilterFields, filterPools, 1), { nil: undefined }),
      maxRows: fc.integer({ min: 1, max: 60 }),
    });
    let compared = 0;
    for (const base of cases) {
      const samples = fc.sample(request, { numRuns: filterable.has(base.path) ? 2 : 1, seed: compared + 7 });
      for (const r of samples) {
        const c: Case = {
          ...base,
          body: { ...base.body, ...(filterable.has(base.path) && r.filter ? { filter: toWire(r.filter) } : {}) },
        };
        const maxRows = Math.min(r.maxRows, 50);
        const transports = c.scope.org === orgA ? [clients.stdio!, clients.http!] : [clients.httpB!];
        const expected = await libraryPage(c).catch((error: { body(): unknown; status: number }) => ({
          refused: { status: error.status, body: error.body() },
        }));
        if ('refused' in expected) {
          // A random filter the report does not take: the same refusal on every face.
          for (const client of transports)
            expect(
              (await refusal(client, endpointAt(c.path).name, { ...c.body, max_rows: maxRows })).data,
            ).toMatchObject(expected.refused);
          continue;
        }
        const rows = expected.data ?? expected.sections ?? [];
        for (const client of transports) {
          const got = await call(client, endpointAt(c.path).name, { ...c.body, max_rows: maxRows });
          expect(got.fingerprint, c.path).toBe(expected.info.fingerprint);
          expect(got.info).toEqual(expected.info);
          expect(got.rows.length).toBeLessThanOrEqual(maxRows);
          expect(got.rows).toEqual(rows.slice(0, got.rows.length));
          if (got.rows.length < rows.length) expect(got.next_cursor).not.toBeNull();
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
  }, 600_000);

  it('continues a bounded answer with its cursor: the next rows of the same answer, then the report’s next page', async () => {
    const c = everyReportCases(scopes).find((x) => x.path === '/v2/reports/visibility')!;
    const expected = await libraryPage(c);
    for (const [, client] of both()) {
      const first = await call(client, 'visibility', { ...c.body, max_rows: 20 });
      const second = await call(client, 'visibility', { result_cursor: first.next_cursor, max_rows: 20 });
      const third = await call(client, 'visibility', { result_cursor: second.next_cursor, max_rows: 20 });
      expect([...first.rows, ...second.rows, ...third.rows]).toEqual(expected.data);
      expect(third.bounded_by).toBeNull();
      const nextPage = await call(client, 'visibility', { result_cursor: third.next_cursor, max_rows: 5 });
      const libraryNext = (await library.org(c.scope.org).report('visibility')({
        ...c.body,
        cursor: (expected.info as unknown as { next_cursor: string }).next_cursor,
      })) as { data: unknown[] };
      expect(nextPage.rows).toEqual(libraryNext.data.slice(0, 5));
    }
  });
});

describe('extensions as arguments', () => {
  it('compare, fill and components change the answer as the library options do; explain answers the plan', async () => {
    const c = everyReportCases(scopes).find((x) => x.path === '/v2/reports/visibility')!;
    const options = { compare: 'previous_period', fill: 'zero', components: true } as const;
    const expected = (await library.org(c.scope.org).report('visibility')(c.body, options)) as {
      info: { fingerprint: string };
      data: unknown[];
    };
    for (const [, client] of both()) {
      const got = await call(client, 'visibility', { ...c.body, ...options, max_rows: 10 });
      expect(got.fingerprint).toBe(expected.info.fingerprint);
      expect(got.rows).toEqual(expected.data.slice(0, 10));
      expect(Object.keys(got.rows[0] as object).join()).toContain('_previous');
      const explained = (await client.callTool({ name: 'visibility', arguments: { ...c.body, explain: true } }))
        .structuredContent as Record<string, unknown>;
      expect(JSON.stringify(explained)).toContain('SELECT');
    }
  });
});

describe('refusals', () => {
  it('answers invalid requests with an MCP error carrying the 422 details REST gives', async () => {
    const c = everyReportCases(scopes).find((x) => x.path === '/v2/reports/citations')!;
    const bad = { ...c.body, start_date: 'yesterday', group_by: ['nope'] };
    const expected = await libraryPage({ ...c, body: bad }).then(
      () => undefined,
      (error: { body(): unknown }) => error.body(),
    );
    expect(expected).toBeDefined();
    for (const [, client] of both()) {
      const error = await refusal(client, 'citations', bad);
      expect(error.data).toEqual({ status: 422, code: 'validation_error', body: expected });
      expect(await refusal(client, 'citations', { ...c.body, unknown_argument: 1 })).toMatchObject({
        data: { status: 422, body: { detail: [expect.objectContaining({ loc: ['body', 'unknown_argument'] })] } },
      });
      expect(await refusal(client, 'citations', { ...c.body, max_rows: 0 })).toMatchObject({
        data: { status: 422, body: { detail: [expect.objectContaining({ loc: ['arguments', 'max_rows'] })] } },
      });
    }
  });

  it('refuses another organization’s category with no data in the answer', async () => {
    const body = { category_id: scopes.sentiment.category, start_date: '2026-01-01', end_date: '2026-06-30' };
    for (const [, client] of both()) {
      const error = await refusal(client, 'visibility', body);
      expect([403, 404]).toContain((error.data as { status: number }).status);
      expect(JSON.stringify(error)).not.toContain('"rows"');
      expect(JSON.stringify(error)).not.toContain('visibility_score');
    }
    const own = await call(clients.httpB!, 'visibility', body);
    expect(own.rows.length).toBeGreaterThan(0);
  });

  it('refuses write tools without --allow-writes, and honours dry_run with it', async () => {
    const prompts = (await library.org(orgA).resources.prompts!({
      params: { category_id: scopes.insights.category },
    })) as { data: { id: string; status: string }[] };
    const target = prompts.data[0]!;
    const args = {
      category_id: scopes.insights.category,
      prompt_ids: [target.id],
      status: target.status === 'active' ? 'disabled' : 'active',
      dry_run: true,
    };
    const refused = await refusal(clients.stdio!, 'updatePromptStatus', args);
    expect(refused.data).toEqual({ status: 403, code: 'writes_disabled' });
    expect(refused.message).toContain('--allow-writes');
    const dry = (await clients.http!.callTool({ name: 'updatePromptStatus', arguments: args })).structuredContent as {
      dry_run: boolean;
    };
    expect(dry.dry_run).toBe(true);
    const after = (await call(clients.http!, 'prompts', { category_id: scopes.insights.category, max_rows: 200 }))
      .rows as { id: string; status: string }[];
    expect(after.find((p) => p.id === target.id)!.status).toBe(target.status);
  });
});

describe('empty answers say why', () => {
  const window = { start_date: '2026-01-01', end_date: '2026-06-30' };
  it('names an unknown name with the closest known names', async () => {
    const got = await call(clients.stdio!, 'visibility', {
      category_id: scopes.insights.category,
      ...window,
      filter: { field: 'model', op: 'is', value: 'ChatGTP' },
    });
    expect(got.rows).toEqual([]);
    expect(got.empty_reason).toMatchObject({
      reason: 'unknown_name',
      unknown: [{ argument: 'filter.model', value: 'ChatGTP', closest: expect.arrayContaining(['ChatGPT']) }],
    });
    expect(got.filters).toEqual({ filter: { field: 'model', op: 'is', value: 'ChatGTP' }, asset_filter: null });
  });
  it('says a window is outside the dataset’s span, with the span', async () => {
    const got = await call(clients.http!, 'citations', {
      category_id: scopes.insights.category,
      start_date: '2020-01-01',
      end_date: '2020-03-31',
    });
    expect(got.empty_reason).toMatchObject({
      reason: 'outside_span',
      span: {
        first_day: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
        last_day: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
      },
    });
    expect(got.window).toEqual({ start: '2020-01-01', end: '2020-03-31', as: 'answered' });
  });
  it('says the filters removed every row', async () => {
    const got = await call(clients.stdio!, 'queryFanouts', {
      category_id: scopes.insights.category,
      ...window,
      filter: { field: 'prompt', op: 'contains', value: 'no prompt says this' },
    });
    expect(got.empty_reason?.reason).toBe('filtered_out');
  });
  it('says the window has no data for the report', async () => {
    const got = await call(clients.http!, 'shoppingProducts', { category_id: telehealth, ...window });
    expect(got.rows).toEqual([]);
    expect(got.empty_reason?.reason).toBe('no_data_in_window');
  });
});

describe('output bounds', () => {
  it('answers a stream-sized request with its first bounded page and a cursor', async () => {
    const c = everyReportCases(scopes).find((x) => x.path === '/v1/reports/visibility')!;
    const big = { ...c.body, pagination: { limit: 50_000 } };
    const expected = (await library.org(c.scope.org).report('visibilityV1')(big)) as { data: unknown[] };
    expect(expected.data.length).toBeGreaterThan(100);
    for (const [, client] of both()) {
      const first = await call(client, 'visibilityV1', big);
      expect(first.rows).toEqual(expected.data.slice(0, 50));
      expect(first.bounded_by).toBe('rows');
      const second = await call(client, 'visibilityV1', { result_cursor: first.next_cursor });
      expect(second.rows).toEqual(expected.data.slice(50, 100));
    }
  });
  it('stops before 100 KB of rows on the widest report', async () => {
    const c = everyReportCases(scopes).find((x) => x.path === '/v1/prompts/answers')!;
    const wide = { ...c.body, pagination: { limit: 1000 }, max_rows: 200 };
    for (const [, client] of both()) {
      const got = await call(client, 'promptAnswersV1', wide);
      expect(got.bounded_by).toBe('bytes');
      expect(got.rows.length).toBeLessThan(200);
      expect(Buffer.byteLength(JSON.stringify(got.rows))).toBeLessThanOrEqual(maxRowBytes + got.rows.length + 2);
      expect(got.next_cursor).not.toBeNull();
    }
  });
});

describe('embedded', () => {
  it('mcpServerFor serves an opened engine over any SDK transport', async () => {
    const server = await mcpServerFor(library, { organizationId: orgA });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'mcp-test', version: '1' });
    await client.connect(clientSide);
    try {
      expect((await client.listTools()).tools.length).toBe([...catalog.tools.values()].filter((t) => !t.write).length);
      const c = everyReportCases(scopes).find((x) => x.path === '/v2/reports/citations')!;
      expect((await call(client, 'citations', c.body)).fingerprint).toBe((await libraryPage(c)).info.fingerprint);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('aea mcp --key', () => {
  it('answers as the key’s organization, and refuses a key the store does not hold', async () => {
    const start = async (key: string) => {
      const client = new Client({ name: 'mcp-test', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [aeaBin, 'mcp', '--data', sampleDir, '--key', key, '--state', keyedState],
          stderr: 'pipe',
        }),
      );
      return client;
    };
    const [keyed, forged] = await Promise.all([start(keys[orgB]!), start(`aea_${'x'.repeat(43)}`)]);
    try {
      const categories = JSON.parse(
        ((await keyed.readResource({ uri: 'aea://org/categories' })).contents[0] as { text: string }).text,
      ) as { categories: { id: string }[] };
      expect(categories.categories.map((c) => c.id)).toContain(scopes.sentiment.category);
      expect(
        (
          await call(keyed, 'sentiment', {
            category_id: scopes.sentiment.category,
            start_date: '2026-01-01',
            end_date: '2026-06-30',
            asset: scopes.sentiment.brand,
          })
        ).rows.length,
      ).toBeGreaterThan(0);
      expect((await refusal(forged, 'categories', {})).data).toMatchObject({ status: 401 });
    } finally {
      await Promise.all([keyed.close(), forged.close()]);
    }
  }, 120_000);
});

describe('/mcp is a REST route like the others', () => {
  it('needs a key and counts against its rate limit', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    expect((await fetch(`${address}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) })).status).toBe(401);
    const a = await fetch(`${address}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'x-api-key': keys[orgA]! },
      body: JSON.stringify(init),
    });
    const b = await fetch(`${address}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'x-api-key': keys[orgA]! },
      body: JSON.stringify(init),
    });
    expect(a.status).toBe(200);
    expect(Number(b.headers.get('x-ratelimit-remaining'))).toBe(Number(a.headers.get('x-ratelimit-remaining')) - 1);
  });
});
