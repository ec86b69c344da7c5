import type { Engine } from '../../src/library/engine.ts';
import { endpoints } from '../../src/registry.ts';

/**
 * A request to every report path of the registry over the bundled sample, each in a scope (an
 * organization and its category or domain) where the sample has rows; shared by the tests that
 * answer every report on two backends.
 */
export interface Scope {
  readonly org: string;
  readonly category: string;
  readonly domain: string;
  readonly brand: string;
}
export interface Case {
  readonly path: string;
  readonly scope: Scope;
  readonly body: Record<string, unknown>;
}

export type Scopes = Record<'insights' | 'shopping' | 'videos' | 'claims' | 'sentiment', Scope>;

/** The first scope of each kind in the sample, read through `duck` (a DuckDB engine over it). */
export async function sampleScopes(duck: Engine): Promise<Scopes> {
  const scopes = {} as Scopes;
  const first = async (
    table: string,
    where = 'TRUE',
    brandSql = '(SELECT min(name) FROM assets a WHERE a.category_id = f.category_id AND a.is_owned)',
  ) => {
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
  return scopes;
}

const v2 = { start_date: '2026-01-01', end_date: '2026-06-30' };
const v1 = { start_date: '2026-01-01', end_date: '2026-07-01' };

export function everyReportCases(scopes: Scopes): Case[] {
  const { insights, shopping, videos, claims, sentiment } = scopes;
  const window = (s: Scope) => ({ category_id: s.category, ...v2 });
  const tabular = (s: Scope) => ({ category_id: s.category, ...v1 });
  const traffic = (s: Scope) => ({ domain: s.domain, ...v1 });
  return [
    {
      path: '/v2/reports/visibility',
      scope: insights,
      body: { ...window(insights), scope: 'all', group_by: ['model', 'date'], interval: 'week', limit: 50 },
    },
    {
      path: '/v2/reports/shopping/products',
      scope: shopping,
      body: { ...window(shopping), include_merchants: true, limit: 20 },
    },
    {
      path: '/v2/reports/social/youtube/channels',
      scope: videos,
      body: { ...window(videos), group_by: ['channel', 'model'], limit: 20 },
    },
    {
      path: '/v2/reports/social/videoplatform/channels',
      scope: videos,
      body: { ...window(videos), group_by: ['source_type'], interval: 'month', limit: 20 },
    },
    {
      path: '/v2/reports/social/youtube/videos',
      scope: videos,
      body: { ...window(videos), group_by: ['video', 'model'], limit: 20 },
    },
    { path: '/v2/reports/social/videoplatform/videos', scope: videos, body: { ...window(videos), limit: 20 } },
    {
      path: '/v2/reports/factcheck/claims',
      scope: claims,
      body: { ...window(claims), group_by: ['tag'], include: ['theme', 'models', 'evidence', 'reasoning'], limit: 20 },
    },
    {
      path: '/v2/reports/factcheck/claims',
      scope: claims,
      body: { ...window(claims), include: ['citation_sources', 'evidence'], limit: 20 },
    },
    {
      path: '/v2/reports/factcheck',
      scope: claims,
      body: { ...window(claims), group_by: ['theme', 'persona'], limit: 50 },
    },
    {
      path: '/v2/reports/citations',
      scope: insights,
      body: {
        ...window(insights),
        group_by: ['page', 'prompt'],
        metrics: ['count', 'first_cited_at', 'citation_share', 'rank'],
        limit: 50,
      },
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
      path: '/v2/reports/query-fanouts',
      scope: insights,
      body: { ...window(insights), group_by: ['prompt', 'query', 'model'], limit: 50 },
    },
    {
      path: '/v2/prompts/answers',
      scope: insights,
      body: {
        ...window(insights),
        include: [
          'run_id',
          'date',
          'model',
          'persona',
          'tags',
          'mentions',
          'citations',
          'search_queries',
          'analysis_types',
        ],
        limit: 20,
      },
    },
    {
      path: '/v1/prompts/answers',
      scope: insights,
      body: {
        ...tabular(insights),
        include: { prompt_type: true, themes: true, sentiment_themes: true },
        pagination: { limit: 20 },
      },
    },
    {
      path: '/v1/reports/citations',
      scope: insights,
      body: {
        ...tabular(insights),
        metrics: ['count', 'citation_share', 'first_cited_at'],
        dimensions: ['root_domain', 'tag', 'persona'],
        pagination: { limit: 100 },
      },
    },
    {
      path: '/v1/reports/visibility',
      scope: insights,
      body: {
        ...tabular(insights),
        metrics: ['share_of_voice', 'visibility_score', 'average_position'],
        dimensions: ['asset_name', 'tag', 'date'],
        date_interval: 'month',
      },
    },
    {
      path: '/v1/reports/sentiment',
      scope: sentiment,
      body: {
        ...tabular(sentiment),
        metrics: ['positive', 'negative', 'occurrences'],
        dimensions: ['theme', 'asset_name', 'persona'],
      },
    },
    {
      path: '/v1/reports/query-fanouts',
      scope: insights,
      body: {
        ...tabular(insights),
        metrics: ['fanouts_per_execution', 'total_fanouts', 'share'],
        dimensions: ['prompt', 'model'],
      },
    },
    {
      path: '/v1/reports/bots',
      scope: insights,
      body: {
        ...traffic(insights),
        metrics: ['count', 'citations', 'last_visit'],
        dimensions: ['date', 'bot_name', 'host'],
        date_interval: 'week',
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
      body: { ...traffic(insights), metrics: ['visits', 'last_visit'], dimensions: ['referral_source', 'path'] },
    },
    {
      path: '/v2/reports/referrals',
      scope: insights,
      body: {
        ...traffic(insights),
        metrics: ['visits'],
        dimensions: ['date', 'referral_type'],
        date_interval: 'hour',
        start_date: '2026-03-07T20:00:00Z',
        end_date: '2026-03-09T04:00:00Z',
        timezone: 'America/New_York',
      },
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

export const reportPaths = () =>
  endpoints.filter((e) => e.group === 'reports' && !e.stream && e.method === 'POST').map((e) => e.path);
export const endpointAt = (path: string) => endpoints.find((e) => e.path === path && e.method === 'POST')!;
export const page = (engine: Engine, c: Case) => engine.org(c.scope.org).report(endpointAt(c.path).name)(c.body);
/** The stream's events, or its refusal (a stream takes fewer options than its page). */
export async function stream(engine: Engine, c: Case): Promise<unknown> {
  const events: unknown[] = [];
  const { limit: _limit, ...body } = c.body;
  try {
    for await (const e of engine.org(c.scope.org).stream(endpointAt(c.path).name)(
      'pagination' in c.body ? c.body : body,
    ))
      events.push(e);
  } catch (error) {
    return { refused: (error as Error).message };
  }
  return events;
}
export const rowsOf = (json: Record<string, unknown>) =>
  ((json.data ?? json.sections) as unknown[] | undefined)?.length ?? 0;

/**
 * Requests that filter on every report-specific filter field (and `matches`, negations that keep the
 * many executions without a persona, empty-looking names), with values read from the sample through
 * `duck`: over the sample's Parquet files they reach what the fixtures do not, such as random UUIDs in
 * the files' UUID columns (the fixtures' ids differ only in their last bytes).
 */
export async function filterCases(duck: Engine, scopes: Scopes): Promise<Case[]> {
  const { insights, shopping, videos, claims, sentiment } = scopes;
  const first = async (sql: string): Promise<string[]> =>
    (await duck.core.pool.use((c) => c.runAndReadAll(sql))).getRowsJS()[0]!.map(String);
  const [host, url, category] = await first(
    `SELECT hostname, url, citation_category FROM citations WHERE category_id = '${insights.category}' ORDER BY executed_at, position LIMIT 1`,
  );
  const [tag] = await first(`SELECT min(t.name) FROM citation_tags t WHERE t.organization_id = '${insights.org}'`);
  const [handle, title] = await first(
    `SELECT channel_handle, channel_title FROM citations WHERE category_id = '${videos.category}' AND channel_handle IS NOT NULL GROUP BY ALL ORDER BY count(*) DESC, 1 LIMIT 1`,
  );
  const [theme, claim] = await first(
    `SELECT th.name, sc.name FROM sentiments f JOIN themes th ON th.id = f.theme_id JOIN sentiment_claims sc ON sc.id = f.claim_id WHERE f.category_id = '${sentiment.category}' GROUP BY ALL ORDER BY count(*) DESC, 1, 2 LIMIT 1`,
  );
  const [brand, merchant] = await first(
    `SELECT pr.brand, pm.name FROM shopping_results f JOIN products pr ON pr.id = f.product_id JOIN product_merchants pm ON pm.product_id = pr.id WHERE f.category_id = '${shopping.category}' GROUP BY ALL ORDER BY count(*) DESC, 1, 2 LIMIT 1`,
  );
  const window = (s: Scope) => ({ category_id: s.category, ...v2 });
  const leaf = (field: string, op: string, value: unknown) => ({ field, op, value });
  // Names beyond ASCII (the generator's vocabulary has accents, ß, CJK and emoji): matched case-insensitively alike on both backends.
  const all = async (sql: string): Promise<string[][]> =>
    (await duck.core.pool.use((c) => c.runAndReadAll(sql))).getRowsJS().map((r) => r.map(String));
  const beyondAscii = (column: string) => `regexp_matches(${column}, '[^\\x00-\\x7F]')`;
  // A word whose upper case differs and keeps its length (ß becomes SS, which no lower case folds back).
  const foldable = (name: string) =>
    name.split(' ').find((w) => /[^\x00-\x7F]/.test(w) && w.toUpperCase() !== w && w.toUpperCase().length === w.length);
  const topics = await all(
    `SELECT c.organization_id, t.category_id, t.name FROM topics t JOIN categories c ON c.id = t.category_id WHERE ${beyondAscii('t.name')} AND EXISTS (SELECT 1 FROM prompts p WHERE p.topic_id = t.id) ORDER BY t.name`,
  );
  const [topicOrg, topicCategory, topicName] = topics.find((t) => foldable(t[2]!))!;
  const [brandOrg, brandCategory, brandName] = (
    await all(
      `SELECT c.organization_id, a.category_id, a.name FROM assets a JOIN categories c ON c.id = a.category_id WHERE ${beyondAscii('a.name')} ORDER BY a.name LIMIT 1`,
    )
  )[0]!;
  const topicScope = { ...insights, org: topicOrg!, category: topicCategory! };
  const brandScope = { ...insights, org: brandOrg!, category: brandCategory! };
  return [
    {
      path: '/v2/reports/visibility',
      scope: topicScope,
      body: {
        ...window(topicScope),
        scope: 'all',
        group_by: ['topic'],
        filter: leaf('topic', 'contains_case_insensitive', foldable(topicName!)!.toUpperCase()),
        limit: 10,
      },
    },
    {
      path: '/v2/reports/visibility',
      scope: brandScope,
      body: { ...window(brandScope), scope: 'all', assets: brandName, group_by: ['model'], limit: 10 },
    },
    {
      path: '/v2/prompts/answers',
      scope: topicScope,
      body: { ...window(topicScope), filter: leaf('topic', 'in', [topicName]), limit: 10 },
    },
    {
      path: '/v2/prompts/answers',
      scope: insights,
      body: { ...window(insights), filter: leaf('domain', 'is', host!.toUpperCase()), limit: 10 },
    },
    {
      path: '/v2/prompts/answers',
      scope: insights,
      body: {
        ...window(insights),
        filter: {
          and: [
            leaf('page', 'in', [url, 'https://nowhere.example/']),
            leaf('analysis_type', 'in', ['visibility', 'factcheck']),
            leaf('persona', 'not_in', ['nobody']),
          ],
        },
        limit: 10,
      },
    },
    {
      path: '/v2/reports/social/youtube/channels',
      scope: videos,
      body: { ...window(videos), filter: leaf('analysis_type', 'is', 'factcheck'), group_by: ['channel'], limit: 10 },
    },
    {
      path: '/v2/reports/social/videoplatform/channels',
      scope: videos,
      body: {
        ...window(videos),
        filter: {
          and: [
            leaf('analysis_type', 'not_in', ['sentiment']),
            {
              or: [
                leaf('channel', 'contains_case_insensitive', title!.slice(0, 4).toLowerCase()),
                leaf('channel', 'not_contains', '_'),
              ],
            },
          ],
        },
        limit: 10,
      },
    },
    {
      path: '/v2/reports/social/youtube/videos',
      scope: videos,
      body: {
        ...window(videos),
        filter: { and: [leaf('analysis_type', 'in', ['visibility']), leaf('channel', 'is', handle)] },
        limit: 10,
      },
    },
    {
      path: '/v2/reports/citations',
      scope: insights,
      body: {
        ...window(insights),
        group_by: ['page'],
        filter: {
          and: [
            leaf('analysis_type', 'is', 'visibility'),
            {
              or: [
                leaf('domain', 'in', [host!.replace(/^www\./, '')]),
                leaf('citation_tag', 'is', tag),
                leaf('citation_category', 'not_is', category),
              ],
            },
          ],
        },
        limit: 10,
      },
    },
    {
      path: '/v2/reports/citations',
      scope: insights,
      body: {
        ...window(insights),
        group_by: ['model'],
        filter: {
          and: [
            { not: leaf('persona', 'is', 'nobody') },
            leaf('page', 'matches', '^https://'),
            leaf('domain', 'not_contains', 'example'),
          ],
        },
        limit: 10,
      },
    },
    {
      path: '/v2/reports/sentiment',
      scope: sentiment,
      body: {
        ...window(sentiment),
        asset: sentiment.brand,
        group_by: ['theme'],
        filter: { and: [leaf('theme', 'is', theme), leaf('claim', 'in', [claim, 'nothing'])] },
        limit: 10,
      },
    },
    {
      path: '/v2/reports/query-fanouts',
      scope: insights,
      body: {
        ...window(insights),
        group_by: ['prompt', 'query'],
        filter: { and: [leaf('analysis_type', 'is', 'all'), leaf('prompt', 'matches', '[a-z]+ [a-z]+')] },
        limit: 10,
      },
    },
    {
      path: '/v2/reports/shopping/products',
      scope: shopping,
      body: {
        ...window(shopping),
        filter: {
          or: [leaf('brand', 'contains_case_insensitive', brand!.toUpperCase()), leaf('merchant', 'in', [merchant])],
        },
        limit: 10,
      },
    },
    {
      path: '/v2/reports/visibility',
      scope: insights,
      body: {
        ...window(insights),
        scope: 'all',
        group_by: ['persona'],
        filter: { or: [leaf('persona', 'not_in', ['nobody']), leaf('tag', 'matches', '^$')] },
        limit: 10,
      },
    },
    {
      path: '/v2/reports/factcheck',
      scope: claims,
      body: {
        ...window(claims),
        group_by: ['persona'],
        filter: { and: [leaf('topic', 'not_in', ['nothing']), leaf('prompt', 'matches', '.')] },
        limit: 10,
      },
    },
    {
      path: '/v2/reports/factcheck/claims',
      scope: claims,
      body: { ...window(claims), filter: leaf('prompt', 'contains_case_insensitive', 'E'), limit: 10 },
    },
  ];
}
