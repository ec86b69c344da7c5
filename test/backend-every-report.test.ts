import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/engine/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { endpoints } from '../src/reports/registry.ts';
import { firstDifference } from './helpers/answers.ts';
import { aea } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';
import { post, startServer } from './helpers/server.ts';

/**
 * Every report path of the registry, pages and streams, answered over the bundled sample (Parquet
 * folders, read in place by chdb) by DuckDB and by chdb: the same JSON. A few through `aea query
 * --backend chdb`, the same bytes as the default backend's.
 */
interface Scope {
  readonly org: string;
  readonly category: string;
  readonly domain: string;
  readonly brand: string;
}
interface Case {
  readonly path: string;
  readonly scope: Scope;
  readonly body: Record<string, unknown>;
}

let duck: Engine;
let chdb: Engine;
const scopes = {} as Record<'insights' | 'shopping' | 'videos' | 'claims' | 'sentiment', Scope>;

beforeAll(async () => {
  // One clock for both: a prompt edit stamps its time into the state, which the answers' fingerprints hash.
  const clock = () => new Date('2026-11-20T12:00:00Z');
  duck = await openEngine({ data: sampleDir, cursorSecret: 'every', rollups: false, clock });
  chdb = await openEngine({ data: sampleDir, cursorSecret: 'every', backend: 'chdb', clock });
  const first = async (table: string, where = 'TRUE', brandSql = '(SELECT min(name) FROM assets a WHERE a.category_id = f.category_id AND a.is_owned)') => {
    const rows = await duck.core.pool.use((c) =>
      c.runAndReadAll(`SELECT f.organization_id, f.category_id, (SELECT min(name) FROM domains d WHERE d.organization_id = f.organization_id),
        ${brandSql} FROM ${table} f WHERE ${where} ORDER BY f.category_id LIMIT 1`),
    );
    const [org, category, domain, brand] = rows.getRowsJS()[0]!.map(String);
    return { org: org!, category: category!, domain: domain!, brand: brand! };
  };
  scopes.insights = await first('mentions');
  scopes.shopping = await first('shopping_results');
  scopes.videos = await first('citations', "source_type = 'video'");
  scopes.claims = await first('claim_occurrences');
  scopes.sentiment = await first('sentiments', 'TRUE', '(SELECT name FROM assets a WHERE a.id = f.asset_id)');
}, 120_000);
afterAll(async () => {
  await chdb?.close();
  await duck?.close();
});

const v2 = { start_date: '2026-01-01', end_date: '2026-06-30' };
const v1 = { start_date: '2026-01-01', end_date: '2026-07-01' };

function cases(): Case[] {
  const { insights, shopping, videos, claims, sentiment } = scopes;
  const window = (s: Scope) => ({ category_id: s.category, ...v2 });
  const tabular = (s: Scope) => ({ category_id: s.category, ...v1 });
  const traffic = (s: Scope) => ({ domain: s.domain, ...v1 });
  return [
    { path: '/v2/reports/visibility', scope: insights, body: { ...window(insights), scope: 'all', group_by: ['model', 'date'], interval: 'week', limit: 50 } },
    { path: '/v2/reports/shopping/products', scope: shopping, body: { ...window(shopping), include_merchants: true, limit: 20 } },
    { path: '/v2/reports/social/youtube/channels', scope: videos, body: { ...window(videos), group_by: ['channel', 'model'], limit: 20 } },
    { path: '/v2/reports/social/videoplatform/channels', scope: videos, body: { ...window(videos), group_by: ['source_type'], interval: 'month', limit: 20 } },
    { path: '/v2/reports/social/youtube/videos', scope: videos, body: { ...window(videos), group_by: ['video', 'model'], limit: 20 } },
    { path: '/v2/reports/social/videoplatform/videos', scope: videos, body: { ...window(videos), limit: 20 } },
    { path: '/v2/reports/factcheck/claims', scope: claims, body: { ...window(claims), group_by: ['tag'], include: ['theme', 'models', 'evidence', 'reasoning'], limit: 20 } },
    { path: '/v2/reports/factcheck/claims', scope: claims, body: { ...window(claims), include: ['citation_sources', 'evidence'], limit: 20 } },
    { path: '/v2/reports/factcheck', scope: claims, body: { ...window(claims), group_by: ['theme', 'persona'], limit: 50 } },
    { path: '/v2/reports/citations', scope: insights, body: { ...window(insights), group_by: ['page', 'prompt'], metrics: ['count', 'first_cited_at', 'citation_share', 'rank'], limit: 50 } },
    { path: '/v2/reports/sentiment', scope: sentiment, body: { ...window(sentiment), asset: sentiment.brand, group_by: ['theme', 'tag'], include_cited_websites: true, limit: 50 } },
    { path: '/v2/reports/query-fanouts', scope: insights, body: { ...window(insights), group_by: ['prompt', 'query', 'model'], limit: 50 } },
    { path: '/v2/prompts/answers', scope: insights, body: { ...window(insights), include: ['run_id', 'date', 'model', 'persona', 'tags', 'mentions', 'citations', 'search_queries', 'analysis_types'], limit: 20 } },
    { path: '/v1/prompts/answers', scope: insights, body: { ...tabular(insights), include: { prompt_type: true, themes: true, sentiment_themes: true }, pagination: { limit: 20 } } },
    { path: '/v1/reports/citations', scope: insights, body: { ...tabular(insights), metrics: ['count', 'citation_share', 'first_cited_at'], dimensions: ['root_domain', 'tag', 'persona'], pagination: { limit: 100 } } },
    { path: '/v1/reports/visibility', scope: insights, body: { ...tabular(insights), metrics: ['share_of_voice', 'visibility_score', 'average_position'], dimensions: ['asset_name', 'tag', 'date'], date_interval: 'month' } },
    { path: '/v1/reports/sentiment', scope: sentiment, body: { ...tabular(sentiment), metrics: ['positive', 'negative', 'occurrences'], dimensions: ['theme', 'asset_name', 'persona'] } },
    { path: '/v1/reports/query-fanouts', scope: insights, body: { ...tabular(insights), metrics: ['fanouts_per_execution', 'total_fanouts', 'share'], dimensions: ['prompt', 'model'] } },
    { path: '/v1/reports/bots', scope: insights, body: { ...traffic(insights), metrics: ['count', 'citations', 'last_visit'], dimensions: ['date', 'bot_name', 'host'], date_interval: 'week' } },
    { path: '/v2/reports/bots', scope: insights, body: { ...traffic(insights), metrics: ['count', 'training'], dimensions: ['bot_type', 'hour'] } },
    { path: '/v1/reports/referrals', scope: insights, body: { ...traffic(insights), metrics: ['visits', 'last_visit'], dimensions: ['referral_source', 'path'] } },
    { path: '/v2/reports/referrals', scope: insights, body: { ...traffic(insights), metrics: ['visits'], dimensions: ['date', 'referral_type'], date_interval: 'hour', start_date: '2026-03-07T20:00:00Z', end_date: '2026-03-09T04:00:00Z', timezone: 'America/New_York' } },
    { path: '/v1/logs/raw', scope: insights, body: { ...traffic(insights), metrics: ['count'], dimensions: ['host', 'path'] } },
    { path: '/v1/logs/raw/bots', scope: insights, body: { ...traffic(insights), metrics: ['count'], dimensions: ['bot_name', 'bot_types'] } },
  ];
}

const reportPaths = () => endpoints.filter((e) => e.group === 'reports' && !e.stream && e.method === 'POST').map((e) => e.path);
const endpointAt = (path: string) => endpoints.find((e) => e.path === path && e.method === 'POST')!;
const page = (engine: Engine, c: Case) => engine.org(c.scope.org).reports[endpointAt(c.path).name]!(c.body);
/** The stream's events, or its refusal (a stream takes fewer options than its page). */
async function stream(engine: Engine, c: Case): Promise<unknown> {
  const events: unknown[] = [];
  const { limit: _limit, ...body } = c.body;
  try {
    for await (const e of engine.org(c.scope.org).reports[`${endpointAt(c.path).name}Stream`]!('pagination' in c.body ? c.body : body)) events.push(e);
  } catch (error) {
    return { refused: (error as Error).message };
  }
  return events;
}
const rowsOf = (json: Record<string, unknown>) => ((json.data ?? json.sections) as unknown[] | undefined)?.length ?? 0;

describe('chdb answers every report path as DuckDB does', () => {
  it('covers every report path of the registry', () => {
    expect(new Set(cases().map((c) => c.path))).toEqual(new Set(reportPaths()));
  });

  it('pages and streams: the same JSON', async () => {
    const problems: string[] = [];
    for (const c of cases()) {
      const expected = (await page(duck, c)) as Record<string, unknown>;
      if (rowsOf(expected) === 0) problems.push(`${c.path}: no rows in the sample`);
      const pageDifference = firstDifference(await page(chdb, c), expected);
      if (pageDifference) problems.push(`${c.path} page differs at ${pageDifference}`);
      if (endpoints.some((e) => e.path === `${c.path}/stream`)) {
        const streamDifference = firstDifference(await stream(chdb, c), await stream(duck, c));
        if (streamDifference) problems.push(`${c.path} stream differs at ${streamDifference}`);
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('reads the state store: a prompt edit shows in the next chdb answer, as in DuckDB', async () => {
    const { org, category } = scopes.insights;
    const [prompt, tag] = (
      await duck.core.pool.use((c) =>
        c.runAndReadAll(`SELECT p.id, p.tag_ids, t.id, t.name FROM prompts p JOIN tags t ON t.category_id = p.category_id AND NOT list_contains(p.tag_ids, t.id)
          WHERE p.category_id = '${category}' AND list_contains(p.analysis_types, 'visibility') ORDER BY p.id, t.id LIMIT 1`),
      )
    )
      .getRowsJS()
      .map((r) => [{ id: String(r[0]), tags: (r[1] as string[]).map(String) }, { id: String(r[2]), name: String(r[3]) }] as const)[0]!;
    const body = { category_id: category, ...v2, scope: 'all', group_by: ['prompt'], filter: { field: 'tag', op: 'is', value: tag.name }, limit: 50 };
    const before = await chdb.org(org).reports.visibility!(body);
    for (const engine of [duck, chdb]) await engine.org(org).resources.updatePrompts!({ params: { category_id: category }, body: { prompts: [{ id: prompt.id, tags: [...prompt.tags, tag.id] }] } });
    const after = await chdb.org(org).reports.visibility!(body);
    expect(after).not.toEqual(before);
    expect(JSON.stringify(after)).toContain(prompt.id);
    expect(after).toEqual(await duck.org(org).reports.visibility!(body));
  }, 120_000);

  it('the REST service over chdb sends what it sends over DuckDB: JSON, the SSE stream, CSV and Parquet', async () => {
    const c = cases().find((x) => x.path === '/v2/reports/citations')!;
    const servers = [await startServer(duck, { rateLimit: false }), await startServer(chdb, { rateLimit: false })];
    try {
      const bodies = await Promise.all(
        servers.map(async (s) => {
          const key = { 'x-api-key': await s.key(c.scope.org) };
          const json = await (await post(`${s.url}${c.path}`, c.body, key)).text();
          const { limit: _limit, ...streamBody } = c.body;
          const sse = await (await post(`${s.url}${c.path}/stream`, streamBody, key)).text();
          const csv = await (await post(`${s.url}${c.path}`, c.body, { ...key, accept: 'text/csv' })).text();
          const parquet = Buffer.from(await (await post(`${s.url}${c.path}`, c.body, { ...key, accept: 'application/vnd.apache.parquet' })).arrayBuffer());
          return { json, sse, csv, parquet: parquet.toString('base64') };
        }),
      );
      expect(JSON.parse(bodies[0]!.json).data.length).toBeGreaterThan(0);
      expect(bodies[0]!.sse).toContain('event: result');
      expect(bodies[1]).toEqual(bodies[0]);
    } finally {
      for (const s of servers) await s.close();
    }
  }, 120_000);

  it('aea query --backend chdb prints the bytes the default backend prints', async () => {
    const dir = await tempDir('aea-every-');
    const picks = cases().filter((c) => ['/v2/reports/visibility', '/v2/reports/citations', '/v1/reports/referrals'].includes(c.path));
    for (const c of picks) {
      const args = ['query', c.path, '--data', sampleDir, '--org', c.scope.org, '--body', JSON.stringify(c.body), '--state', `${dir}/state.duckdb`];
      const want = await aea(args);
      const got = await aea([...args, '--backend', 'chdb']);
      expect(want.code).toBe(0);
      expect(got.stderr).toBe('');
      expect(got.stdout).toBe(want.stdout);
    }
    const streamed = picks[0]!;
    const args = ['query', `${streamed.path}/stream`, '--data', sampleDir, '--org', streamed.scope.org, '--body', JSON.stringify({ ...streamed.body, limit: undefined }), '--state', `${dir}/state.duckdb`, '--format', 'ndjson'];
    const [want, got] = [await aea(args), await aea([...args, '--backend', 'chdb'])];
    expect(got.stdout.length).toBeGreaterThan(1000);
    expect(got.stdout).toBe(want.stdout);
  }, 300_000);
});
