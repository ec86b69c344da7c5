import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Profound, { APIError } from '@profoundai/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { startServer, type TestServer } from './helpers/server.ts';

let engine: Engine;
let server: TestServer;
let client: Profound;
let orgId: string;
let categoryId: string;
beforeAll(async () => {
  delete process.env.PROFOUND_API_KEY;
  delete process.env.PROFOUND_ACCESS_TOKEN;
  engine = await openEngine({ data: sampleDir });
  const orgs = await engine.listOrganizations();
  const org = orgs.find((o) => o.categories.length > 0)!;
  orgId = org.id;
  categoryId = org.categories[0]!.id;
  server = await startServer(engine);
  client = new Profound({ apiKey: await server.key(orgId), baseURL: server.url, maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
  await engine.close();
});

/** A response and the client type it must satisfy, written as a type expression over `Profound`. */
interface Checked {
  readonly type: string;
  readonly value: unknown;
}

const method = (path: string) => `Awaited<ReturnType<Profound['${path.split('.').join("']['")}']>>`;
const streamItem = (path: string) => `(${method(path)} extends AsyncIterable<infer I> ? I : never)`;

describe('every method of the official client, unmodified, against aea serve', () => {
  it('answers 40 methods with bodies the client’s own types accept, and the 2 retired ones with 410', async () => {
    const c = client;
    const checked: Checked[] = [];
    const called = new Set<string>();
    const call = async <T>(path: string, run: () => Promise<T>): Promise<T> => {
      const value = await run();
      called.add(path);
      checked.push({ type: method(path), value });
      return value;
    };
    const stream = async (path: string, run: () => Promise<AsyncIterable<unknown>>) => {
      const items: unknown[] = [];
      for await (const item of await run()) items.push(item);
      called.add(path);
      expect(items.length).toBeGreaterThan(1);
      for (const value of items) checked.push({ type: streamItem(path), value });
    };

    await call('organizations.list', () => c.organizations.list());
    const domains = await call('organizations.domains', () => c.organizations.domains());
    await call('organizations.getPersonas', () => c.organizations.getPersonas());
    const assets = await call('organizations.listAssets', () => c.organizations.listAssets());
    await call('organizations.models', () => c.organizations.models());
    await call('organizations.regions', () => c.organizations.regions());
    await call('organizations.categories.list', () => c.organizations.categories.list());
    await call('organizations.categories.assets', () => c.organizations.categories.assets(categoryId));
    await call('organizations.categories.getCategoryPersonas', () =>
      c.organizations.categories.getCategoryPersonas(categoryId),
    );
    const prompts = await call('organizations.categories.prompts', () =>
      c.organizations.categories.prompts(categoryId, { limit: 3 }),
    );
    await call('organizations.categories.tags', () => c.organizations.categories.tags(categoryId));
    await call('organizations.categories.topics', () => c.organizations.categories.topics(categoryId));
    const first = prompts.data[0]!;
    await call('organizations.categories.createPrompts', () =>
      c.organizations.categories.createPrompts(categoryId, {
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
      }),
    );
    await call('organizations.categories.updatePrompts', () =>
      c.organizations.categories.updatePrompts(categoryId, {
        dry_run: true,
        prompts: [{ id: first.id, prompt: `${first.prompt}?` }],
      }),
    );
    await call('organizations.categories.updatePromptStatus', () =>
      c.organizations.categories.updatePromptStatus(categoryId, {
        dry_run: true,
        prompt_ids: [first.id],
        status: 'disabled',
      }),
    );
    await call('prompts.answers', () =>
      c.prompts.answers({
        category_id: categoryId,
        start_date: '2026-10-01',
        end_date: '2026-10-03',
        pagination: { limit: 3 },
      }),
    );

    const window = {
      category_id: categoryId,
      start_date: '2026-09-01',
      end_date: '2026-11-01',
      pagination: { limit: 40 },
    };
    // The groupings where a brand has no mention and answers lack a persona or a tag.
    await call('reports.visibility', () =>
      c.reports.visibility({
        ...window,
        metrics: ['visibility_score', 'average_position', 'share_of_voice'],
        dimensions: ['asset_name', 'persona', 'tag'],
      }),
    );
    await call('reports.citations', () =>
      c.reports.citations({
        ...window,
        metrics: ['count', 'citation_share'],
        dimensions: ['root_domain', 'persona', 'tag'],
      }),
    );
    await call('reports.sentiment', () =>
      c.reports.sentiment({
        ...window,
        metrics: ['positive', 'negative', 'occurrences'],
        dimensions: ['theme', 'persona', 'tag'],
      }),
    );
    await call('reports.queryFanouts', () =>
      c.reports.queryFanouts({
        ...window,
        metrics: ['total_fanouts', 'fanouts_per_execution'],
        dimensions: ['model', 'region'],
      }),
    );
    await stream('reports.streamVisibility', () =>
      c.reports.streamVisibility({ ...window, metrics: ['average_position'], dimensions: ['asset_name', 'persona'] }),
    );
    await stream('reports.streamCitations', () =>
      c.reports.streamCitations({ ...window, metrics: ['count'], dimensions: ['hostname', 'tag'] }),
    );
    await stream('reports.streamSentiment', () =>
      c.reports.streamSentiment({ ...window, metrics: ['positive'], dimensions: ['theme', 'persona'] }),
    );
    const traffic = { domain: domains[0]!.name, start_date: '2026-10-01', end_date: '2026-10-08' };
    await call('reports.getBotsReport', () =>
      c.reports.getBotsReport({ ...traffic, metrics: ['count', 'citations'], dimensions: ['bot_name', 'date'] }),
    );
    await call('reports.getBotsReportV2', () =>
      c.reports.getBotsReportV2({
        ...traffic,
        metrics: ['count', 'training'],
        dimensions: ['date', 'bot_type'],
        date_interval: 'hour',
      }),
    );
    await call('reports.getReferralsReport', () =>
      c.reports.getReferralsReport({ ...traffic, metrics: ['visits'], dimensions: ['referral_source', 'path'] }),
    );
    await call('reports.getReferralsReportV2', () =>
      c.reports.getReferralsReportV2({ ...traffic, metrics: ['visits', 'last_visit'], dimensions: ['hour'] }),
    );

    const owned = assets.data.find((a) => a.is_owned)!;
    const content = await call('content.optimization.list', () => c.content.optimization.list(owned.id, { limit: 2 }));
    await call('content.optimization.retrieve', () =>
      c.content.optimization.retrieve(content.data[0]!.id, { asset_id: owned.id }),
    );
    const agents = await call('agents.list', () => c.agents.list());
    const published = agents.data.find((a) => a.status === 'published')!;
    const agent = await call('agents.retrieve', () => c.agents.retrieve(published.id));
    const inputs = Object.fromEntries(
      Object.keys((agent.schema.input as { properties: Record<string, unknown> }).properties).map((k) => [
        k,
        k === 'category_id' ? categoryId : k === 'domain' ? 'x' : '2026-10-01',
      ]),
    );
    const run = await call('agents.runs.create', () => c.agents.runs.create(published.id, { inputs }));
    await call('agents.runs.retrieve', () => c.agents.runs.retrieve(run.id, { agent_id: published.id }));

    const kbs = await call('knowledgeBases.list', () => c.knowledgeBases.list());
    const kb = kbs.data[0]!.id;
    await call('knowledgeBases.folders.create', () => c.knowledgeBases.folders.create(kb, { path: 'client/notes' }));
    await call('knowledgeBases.documents.create', () =>
      c.knowledgeBases.documents.create(kb, {
        name: 'storm.md',
        folder: 'client/notes',
        text: 'Storm tents\n\nOur storm tents hold in 90 km/h winds.',
      }),
    );
    await call('knowledgeBases.documents.update', () =>
      c.knowledgeBases.documents.update(kb, {
        name: 'client/notes/storm.md',
        text: 'Storm tents\n\nOur storm tents hold in 100 km/h winds.',
      }),
    );
    const found = await call('knowledgeBases.search', () =>
      c.knowledgeBases.search(kb, { query: 'storm tents winds', top_k: 3, filters: { folders: ['client'] } }),
    );
    expect(found.data[0]).toMatchObject({
      id: 'client/notes/storm.md#2',
      content: 'Our storm tents hold in 100 km/h winds.',
    });
    await call('knowledgeBases.search', () =>
      c.knowledgeBases.search(kb, { query: 'warranty', top_k: 2, return_full_page: true }),
    );
    await call('knowledgeBases.documents.delete', () =>
      c.knowledgeBases.documents.delete(kb, { name: 'client/notes/storm.md' }),
    );
    await call('knowledgeBases.folders.delete', () =>
      c.knowledgeBases.folders.delete(kb, { path: 'client', recursive: true }),
    );

    const raw = {
      domain: domains[0]!.name,
      start_date: '2026-10-01',
      end_date: '2026-10-02',
      metrics: ['count'] as ['count'],
    };
    for (const [path, run] of [
      ['logs.raw.logs', () => c.logs.raw.logs(raw)],
      ['logs.raw.bots', () => c.logs.raw.bots(raw)],
    ] as const) {
      const error = await (run as () => Promise<unknown>)().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(410);
      called.add(path);
    }

    expect(called.size).toBe(42);
    expect(typeCheck(checked)).toBe('');
  });
});

/**
 * Compiles a file that assigns every response to the client's declared type. The value is bound first,
 * so only types are checked (a field the client does not declare is not an error, a null where it
 * declares a number is).
 */
function typeCheck(checked: readonly Checked[]): string {
  const dir = mkdtempSync(join(import.meta.dirname, '.client-types-'));
  try {
    // `as const` keeps string literals (enums), writable() drops its readonly; a call's value is not fresh, so extra keys pass.
    const lines = checked.map(
      (c, i) => `const v${i} = ${JSON.stringify(c.value)} as const;\nexport const t${i}: ${c.type} = writable(v${i});`,
    );
    const writable =
      'type Writable<T> = T extends readonly (infer U)[] ? Writable<U>[] : T extends object ? { -readonly [K in keyof T]: Writable<T[K]> } : T;\ndeclare function writable<T>(value: T): Writable<T>;';
    writeFileSync(
      join(dir, 'check.ts'),
      `import type Profound from '@profoundai/client';\n${writable}\n${lines.join('\n')}\n`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          skipLibCheck: true,
          types: [],
        },
        files: ['check.ts'],
      }),
    );
    try {
      execFileSync(process.execPath, [join(import.meta.dirname, '../node_modules/typescript/bin/tsc'), '-p', dir], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
      return '';
    } catch (error) {
      return String((error as { stdout?: string }).stdout ?? error);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
