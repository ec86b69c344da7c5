import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { operationTables, tablesOf, tablesThatMayBeEmpty } from '../src/engine/operation-tables.ts';
import { DatasetError, MissingTableError } from '../src/errors.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { createServer } from '../src/http/create-server.ts';
import { endpoints } from '../src/registry.ts';
import { ApiKeys } from '../src/state/api-keys.ts';
import { firstDifference } from './helpers/answers.ts';
import { aeaInProcess } from './helpers/cli.ts';
import { sampleScopes, type Case, type Scope, type Scopes } from './helpers/every-report.ts';
import { linkTables } from './helpers/dataset-folder.ts';
import { tempDir } from './helpers/tmp.ts';

let root: string;
const folderWith = (name: string, keep: Parameters<typeof linkTables>[1]) => linkTables(join(root, name), keep);
let full: Engine;
let scopes: Scopes;
let citationTag: string;

beforeAll(async () => {
  root = await tempDir('aea-optional-');
  full = await openEngine({ data: sampleDir, cursorSecret: 'optional' });
  scopes = await sampleScopes(full);
  const tags = await full.core.pool.use((c) =>
    c.runAndReadAll(`SELECT min(name) FROM citation_tags WHERE organization_id = '${scopes.insights.org}'`),
  );
  citationTag = String(tags.getRowsJS()[0]![0]);
}, 120_000);
afterAll(() => full.close());

const v2 = { start_date: '2026-01-01', end_date: '2026-06-30' };
const v1 = { start_date: '2026-01-01', end_date: '2026-07-01' };

function cases(): Case[] {
  const { insights, shopping, videos, claims, sentiment } = scopes;
  const window = (s: Scope) => ({ category_id: s.category, ...v2 });
  const tabular = (s: Scope) => ({ category_id: s.category, ...v1 });
  const traffic = (s: Scope) => ({ domain: s.domain, ...v1 });
  return [
    {
      path: '/v2/reports/visibility',
      scope: insights,
      body: { ...window(insights), scope: 'all', group_by: ['model', 'topic', 'region', 'persona'], limit: 50 },
    },
    {
      path: '/v2/reports/visibility',
      scope: insights,
      body: {
        ...window(insights),
        group_by: ['prompt', 'date'],
        interval: 'month',
        filter: { field: 'tag', op: 'not_in', value: ['x'] },
      },
    },
    {
      path: '/v2/reports/shopping/products',
      scope: shopping,
      body: { ...window(shopping), include_merchants: true, limit: 20 },
    },
    {
      path: '/v2/reports/shopping/products',
      scope: shopping,
      body: { ...window(shopping), group_by: ['topic'], limit: 20 },
    },
    {
      path: '/v2/reports/social/youtube/channels',
      scope: videos,
      body: { ...window(videos), group_by: ['channel', 'model'], limit: 20 },
    },
    {
      path: '/v2/reports/social/youtube/videos',
      scope: videos,
      body: { ...window(videos), group_by: ['video', 'model'], limit: 20 },
    },
    {
      path: '/v2/reports/factcheck/claims',
      scope: claims,
      body: { ...window(claims), group_by: ['tag'], include: ['theme', 'models', 'evidence', 'reasoning'], limit: 20 },
    },
    {
      path: '/v2/reports/factcheck/claims',
      scope: claims,
      body: { ...window(claims), include: ['citation_sources'], limit: 20 },
    },
    {
      path: '/v2/reports/factcheck',
      scope: claims,
      body: { ...window(claims), group_by: ['theme', 'persona'], limit: 50 },
    },
    { path: '/v2/reports/factcheck', scope: claims, body: { ...window(claims), group_by: ['citation'], limit: 50 } },
    {
      path: '/v2/reports/citations',
      scope: insights,
      body: { ...window(insights), group_by: ['topic', 'persona', 'region'], limit: 50 },
    },
    {
      path: '/v2/reports/citations',
      scope: insights,
      body: { ...window(insights), group_by: ['page', 'prompt'], metrics: ['count', 'first_cited_at'], limit: 50 },
    },
    {
      path: '/v2/reports/citations',
      scope: insights,
      body: { ...window(insights), filter: { field: 'citation_tag', op: 'is', value: citationTag }, limit: 50 },
    },
    {
      path: '/v2/reports/sentiment',
      scope: sentiment,
      body: {
        ...window(sentiment),
        asset: sentiment.brand,
        group_by: ['theme', 'tag'],
        include_cited_websites: true,
        limit: 50,
      },
    },
    {
      path: '/v2/reports/sentiment',
      scope: sentiment,
      body: { ...window(sentiment), asset: sentiment.brand, group_by: ['claim', 'persona'], limit: 50 },
    },
    {
      path: '/v2/reports/sentiment',
      scope: sentiment,
      body: { ...window(sentiment), asset: sentiment.brand, source: 'citation', limit: 50 },
    },
    {
      path: '/v2/reports/query-fanouts',
      scope: insights,
      body: { ...window(insights), group_by: ['prompt', 'query', 'model', 'region'], limit: 50 },
    },
    { path: '/v2/prompts/answers', scope: insights, body: { ...window(insights), limit: 20 } },
    {
      path: '/v1/prompts/answers',
      scope: insights,
      body: { ...tabular(insights), include: { prompt_type: true, themes: true }, pagination: { limit: 20 } },
    },
    {
      path: '/v1/reports/citations',
      scope: insights,
      body: {
        ...tabular(insights),
        metrics: ['count', 'citation_share'],
        dimensions: ['root_domain', 'tag', 'persona', 'topic'],
        filters: [{ field: 'mentioned', operator: 'is', value: true }],
        pagination: { limit: 100 },
      },
    },
    {
      path: '/v1/reports/citations',
      scope: insights,
      body: {
        ...tabular(insights),
        metrics: ['count', 'first_cited_at'],
        dimensions: ['url', 'region', 'model', 'prompt', 'citation_category'],
        pagination: { limit: 100 },
      },
    },
    {
      path: '/v1/reports/visibility',
      scope: insights,
      body: {
        ...tabular(insights),
        metrics: ['share_of_voice', 'visibility_score', 'average_position'],
        dimensions: ['asset_name', 'tag', 'persona', 'region', 'topic'],
      },
    },
    {
      path: '/v1/reports/sentiment',
      scope: sentiment,
      body: {
        ...tabular(sentiment),
        metrics: ['positive', 'negative', 'occurrences'],
        dimensions: ['theme', 'asset_name', 'tag', 'persona', 'region', 'topic', 'model'],
      },
    },
    {
      path: '/v1/reports/query-fanouts',
      scope: insights,
      body: {
        ...tabular(insights),
        metrics: ['fanouts_per_execution', 'total_fanouts'],
        dimensions: ['prompt', 'model', 'region'],
      },
    },
    {
      path: '/v1/reports/bots',
      scope: insights,
      body: {
        ...traffic(insights),
        metrics: ['count', 'citations', 'last_visit'],
        dimensions: ['date', 'bot_name', 'host'],
      },
    },
    {
      path: '/v2/reports/bots',
      scope: insights,
      body: { ...traffic(insights), metrics: ['count', 'training'], dimensions: ['bot_type', 'hour'] },
    },
    {
      path: '/v1/reports/referrals',
      scope: insights,
      body: { ...traffic(insights), metrics: ['visits'], dimensions: ['referral_source', 'path'] },
    },
    {
      path: '/v2/reports/referrals',
      scope: insights,
      body: { ...traffic(insights), metrics: ['visits'], dimensions: ['referral_type', 'host'] },
    },
    {
      path: '/v1/logs/raw',
      scope: insights,
      body: { ...traffic(insights), metrics: ['count'], dimensions: ['host', 'path'] },
    },
    {
      path: '/v1/logs/raw/bots',
      scope: insights,
      body: { ...traffic(insights), metrics: ['count'], dimensions: ['bot_name', 'bot_types'] },
    },
  ];
}

const nameOf = (path: string) => endpoints.find((e) => e.path === path && e.method === 'POST')!.name;
/** A report's answer without its fingerprint, which names the dataset's files (here another folder of the same values). */
const answer = async (engine: Engine, c: Case) => {
  const page = (await engine.org(c.scope.org).report(nameOf(c.path))(c.body)) as Record<string, any>;
  const { fingerprint: _, ...info } = page.info ?? {};
  return { ...page, info };
};
const rowsOf = (json: Record<string, unknown>) => ((json.data ?? json.sections) as unknown[] | undefined)?.length ?? 0;

describe('a dataset may leave out the tables its reports do not read', () => {
  it('declares the tables of every operation', () => {
    const operations = new Set(endpoints.map((e) => e.path.replace(/\/stream$/, '')));
    expect([...operations].filter((p) => !(p in operationTables))).toEqual([]);
    expect(Object.keys(operationTables).filter((p) => !operations.has(p))).toEqual([]);
  });

  it('answers every report over a folder of only its declared tables exactly as over the whole sample', async () => {
    const all = cases();
    expect(new Set(all.map((c) => c.path))).toEqual(
      new Set(
        endpoints
          .filter((e) => e.group === 'reports' && !e.stream)
          .map((e) => e.path)
          .filter((p) => !/videoplatform/.test(p)),
      ),
    );
    const bySet = new Map<string, Case[]>();
    for (const c of all) {
      const key = tablesOf(c.path).join(',');
      bySet.set(key, [...(bySet.get(key) ?? []), c]);
    }
    const problems: string[] = [];
    for (const [key, group] of bySet) {
      const dir = await folderWith(`only-${[...bySet.keys()].indexOf(key)}`, [
        ...tablesOf(group[0]!.path),
        ...tablesThatMayBeEmpty,
      ]);
      const partial = await openEngine({ data: dir, cursorSecret: 'optional' });
      try {
        expect(partial.core.missingTables.size).toBeGreaterThan(0);
        for (const c of group) {
          const label = `${c.path} ${JSON.stringify(c.body)}`;
          const expected = await answer(full, c).catch((e: Error) => ({ error: e.message }));
          if (rowsOf(expected) === 0)
            problems.push(`${label}: no rows in the whole sample ${JSON.stringify(expected).slice(0, 200)}`);
          else {
            const difference = firstDifference(await answer(partial, c), expected);
            if (difference) problems.push(`${label}: over ${key} differs at ${difference}`);
          }
        }
      } finally {
        await partial.close();
      }
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it('refuses a report that needs a missing table, naming every missing table it needs: library, HTTP and CLI', async () => {
    const dir = await folderWith('visibility-only', tablesOf('/v2/reports/visibility'));
    const engine = await openEngine({ data: dir });
    const { org, category, domain } = scopes.insights;
    try {
      expect(engine.core.missingTables.has('bot_events')).toBe(true);
      expect((await engine.org(org).reports.visibility({ category_id: category, ...v2 })).data).not.toHaveLength(0);
      const bots = { domain, ...v1, metrics: ['visits'] } as const;
      const refused = await engine
        .org(org)
        .report('bots')(bots)
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(MissingTableError);
      expect((refused as MissingTableError).tables).toEqual(['domains', 'bot_events']);
      expect((refused as Error).message).toBe(
        '/v2/reports/bots needs the tables "domains", "bot_events", which the dataset does not have; add them (see docs/own-data.md)',
      );
      const stream = engine.org(org).reports.citationsStream({ category_id: category, ...v2 });
      await expect(stream[Symbol.asyncIterator]().next()).rejects.toMatchObject({
        code: 'missing_table',
        tables: ['citations'],
      });

      const app = await createServer({ engine, logger: false });
      try {
        const key = (
          await ApiKeys.of(engine.core.state).create({
            organizationId: org,
            name: 'optional tables',
            expiresOn: '2099-01-01',
            now: new Date(),
          })
        ).key;
        const r = await app.inject({
          method: 'POST',
          url: '/v2/reports/bots',
          headers: { 'x-api-key': key },
          payload: bots,
        });
        expect(r.statusCode).toBe(501);
        expect(r.headers['x-should-retry']).toBe('false');
        expect(r.json()).toEqual({ detail: (refused as Error).message, code: 'missing_table' });
      } finally {
        await app.close();
      }
    } finally {
      await engine.close();
    }
    const cli = await aeaInProcess([
      'query',
      '/v1/reports/bots',
      '--data',
      dir,
      '--state',
      join(root, 'cli.duckdb'),
      '--org',
      org,
      '--body',
      JSON.stringify({ domain, ...v1, metrics: ['visits'] }),
    ]);
    expect(cli.code).toBe(1);
    expect(JSON.parse(cli.stdout)).toMatchObject({
      code: 'missing_table',
      detail: expect.stringContaining('"domains", "bot_events"'),
    });
  });

  it('answers without the tables that may be empty (no personas, tags, page analyses, evidence, merchants, …)', async () => {
    const picked = cases().filter((c) => /visibility|shopping|claims|v1\/reports\/citations/.test(c.path));
    const byPath = new Map(picked.map((c) => [c.path, c]));
    for (const c of byPath.values()) {
      const dir = await folderWith(`bare-${byPath.size}-${[...byPath.keys()].indexOf(c.path)}`, tablesOf(c.path));
      const bare = await openEngine({ data: dir });
      try {
        expect(tablesThatMayBeEmpty.every((t) => bare.core.missingTables.has(t))).toBe(true);
        await expect(answer(bare, c)).resolves.toHaveProperty('info');
      } finally {
        await bare.close();
      }
    }
  });

  it('needs the organizations table', async () => {
    const dir = await folderWith('no-orgs', ['models']);
    const { rm } = await import('node:fs/promises');
    await rm(join(dir, 'organizations.parquet'));
    const error = await openEngine({ data: dir }).then(
      (e) => e.close(),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as Error).message).toContain('missing table "organizations"');
  });
});
