import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine, EngineOptions } from '../src/library/engine.ts';
import { channelsReport } from '../src/reports/insights-v2/social/channels.ts';
import { videosReport } from '../src/reports/insights-v2/social/videos.ts';
import { openFixture, type Rows } from './helpers/arrow-fixture.ts';
import { claimsFixture } from './fixtures/claims.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';
import { moreIds, moreV2Fixture } from './fixtures/more-v2.ts';
import { shoppingFixture, productIds } from './fixtures/shopping.ts';
import { domains, tabularFixture, tabularIds } from './fixtures/tabular.ts';

/**
 * The golden requests answered on chdb, ClickHouse embedded: each answer must be byte for byte the
 * golden result DuckDB gives (test/golden*.test.ts check those files against DuckDB).
 */
const golden = (name: string) =>
  readFileSync(fileURLToPath(new URL(`./golden/${name}.result.json`, import.meta.url)), 'utf8');

interface Case {
  readonly name: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
}

interface Suite {
  readonly title: string;
  readonly rows: () => Rows;
  readonly options: Omit<EngineOptions, 'tables' | 'data'>;
  readonly cases: readonly Case[];
}

const window = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-06-30' };
const dst = { category_id: ids.cat1, start_date: '2026-03-08', end_date: '2026-11-01' };
const longWindow = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-11-30' };
const v1Window = {
  category_id: ids.cat1,
  start_date: '2026-03-01',
  end_date: '2026-12-01',
  pagination: { limit: 8, offset: 0 },
};
const traffic = { domain: domains.own, start_date: '2026-03-01', pagination: { limit: 8, offset: 0 } };
const goldenNow = new Date('2026-11-22T12:00:00Z');

export const suites: readonly Suite[] = [
  {
    title: 'visibility',
    rows: insightsFixture,
    options: { cursorSecret: 'golden', clock: () => goldenNow },
    cases: [
      { name: 'visibility/owned-default', path: '/v2/reports/visibility', body: longWindow },
      {
        name: 'visibility/all-by-model-and-week',
        path: '/v2/reports/visibility',
        body: { ...longWindow, scope: 'all', group_by: ['model', 'date'], interval: 'week', limit: 5 },
      },
      {
        name: 'visibility/filtered-assets-sorted',
        path: '/v2/reports/visibility',
        body: {
          ...longWindow,
          scope: 'all',
          metrics: ['share_of_voice', 'average_position'],
          sort: { field: 'average_position', dir: 'desc' },
          assets: { op: 'not_in', value: ['Quiet'] },
          filter: {
            and: [
              { field: 'topic', op: 'is', value: 'Tents 50%_off' },
              { not: { field: 'persona', op: 'in', value: ['Hiker', ''] } },
            ],
          },
        },
      },
      {
        name: 'visibility/by-persona-with-nulls',
        path: '/v2/reports/visibility',
        body: { ...longWindow, scope: 'all', group_by: ['persona'], metrics: ['visibility_score'] },
      },
    ],
  },
  {
    title: 'shopping, channels and fact-check claims',
    rows: () => ({ ...shoppingFixture(), ...claimsFixture() }),
    options: { cursorSecret: 'golden', clock: () => goldenNow },
    cases: [
      { name: 'shopping/default', path: '/v2/reports/shopping/products', body: { ...window, limit: 3 } },
      {
        name: 'shopping/with-merchants',
        path: '/v2/reports/shopping/products',
        body: {
          ...window,
          include_merchants: true,
          filter: {
            or: [
              { field: 'merchant', op: 'is', value: 'REI' },
              { field: 'brand', op: 'is', value: '' },
            ],
          },
        },
      },
      {
        name: 'shopping/target-product-by-week',
        path: '/v2/reports/shopping/products',
        body: {
          ...window,
          end_date: '2026-03-31',
          target_product: productIds[2],
          competitor_limit: 2,
          group_by: ['date'],
          interval: 'week',
          metrics: ['visibility_score', 'visibility_rank', 'position1_percentage'],
        },
      },
      { name: 'channels/channel', path: channelsReport.path, body: { ...window, limit: 3 } },
      { name: 'channels/video-category', path: channelsReport.path, body: { ...window, group_by: ['video_category'] } },
      {
        name: 'channels/source-type-by-month',
        path: channelsReport.path,
        body: { ...window, group_by: ['source_type'], interval: 'month', source_types: ['video', 'short'] },
      },
      {
        name: 'channels/channel-x-video-category',
        path: channelsReport.path,
        body: { ...window, group_by: ['channel', 'video_category'], limit: 2 },
      },
      {
        name: 'channels/channel-x-source-type-filtered',
        path: channelsReport.path,
        body: {
          ...window,
          group_by: ['channel', 'source_type'],
          limit: 2,
          filter: {
            and: [
              { field: 'topic', op: 'is', value: 'Boots' },
              { not: { field: 'channel', op: 'contains_case_insensitive', value: 'ZED' } },
              { field: 'channel', op: 'in', value: ['@trailtalk', '@gearlab', '@zed_'] },
            ],
          },
        },
      },
      {
        name: 'channels/channel-x-model',
        path: channelsReport.path,
        body: { ...window, group_by: ['channel', 'model'], limit: 1 },
      },
      {
        name: 'claims/flat-with-sources',
        path: '/v2/reports/factcheck/claims',
        body: { ...window, include: ['citation_sources', 'evidence'], limit: 3 },
      },
      {
        name: 'claims/sectioned-by-tag',
        path: '/v2/reports/factcheck/claims',
        body: {
          ...window,
          group_by: ['tag'],
          include: ['theme', 'models', 'evidence'],
          filter: { field: 'topic', op: 'not_is', value: 'Tents 50%_off' },
        },
      },
      {
        name: 'claims/sectioned-by-theme',
        path: '/v2/reports/factcheck/claims',
        body: { ...window, group_by: ['theme'], include: ['reasoning'] },
      },
    ],
  },
  {
    title: 'citations, sentiment, fan-outs, fact-check, answers and videos',
    rows: moreV2Fixture,
    options: { cursorSecret: 'golden', clock: () => goldenNow },
    cases: [
      { name: 'citations/domains', path: '/v2/reports/citations', body: { ...window, limit: 4 } },
      {
        name: 'citations/pages-by-model-owned',
        path: '/v2/reports/citations',
        body: {
          ...dst,
          group_by: ['page', 'model'],
          scope: 'owned',
          metrics: ['rank', 'count', 'first_cited_at', 'citation_share'],
          filter: { field: 'analysis_type', op: 'is', value: 'all' },
          limit: 4,
        },
      },
      {
        name: 'citations/tagged-subdomains-by-week',
        path: '/v2/reports/citations',
        body: {
          ...window,
          group_by: ['date'],
          interval: 'week',
          limit: 3,
          filter: {
            and: [
              { field: 'citation_tag', op: 'in', value: ['Press', moreIds.tags.foreign] },
              { not: { field: 'domain', op: 'is', value: 'blog.acme.example' } },
              { field: 'persona', op: 'not_is', value: '' },
            ],
          },
        },
      },
      { name: 'sentiment/brand', path: '/v2/reports/sentiment', body: { ...window, asset: 'Acme' } },
      {
        name: 'sentiment/themes-compared-with-sites',
        path: '/v2/reports/sentiment',
        body: {
          ...window,
          asset: 'Brandy',
          group_by: ['theme', 'tag'],
          metrics: ['positive_sentiment', 'occurrence'],
          include_cited_websites: true,
          comparison_start_date: '2026-07-01',
          comparison_end_date: '2026-10-31',
          limit: 3,
        },
      },
      {
        name: 'sentiment/citation-source',
        path: '/v2/reports/sentiment',
        body: {
          ...window,
          asset: ids.assets[2],
          source: 'citation',
          filter: { field: 'claim', op: 'in', value: ['soft', 'too pricey'] },
          limit: 3,
        },
      },
      { name: 'query-fanouts/prompts', path: '/v2/reports/query-fanouts', body: { ...window } },
      {
        name: 'query-fanouts/prompt-queries-share',
        path: '/v2/reports/query-fanouts',
        body: {
          ...window,
          group_by: ['prompt', 'query'],
          metrics: ['share', 'total_fanouts', 'fanouts_per_execution'],
          limit: 4,
        },
      },
      {
        name: 'query-fanouts/months-every-type',
        path: '/v2/reports/query-fanouts',
        body: {
          ...dst,
          group_by: ['date', 'model'],
          interval: 'month',
          limit: 4,
          filter: {
            and: [
              { field: 'analysis_type', op: 'in', value: ['all'] },
              { field: 'topic', op: 'is', value: 'Tents 50%_off' },
            ],
          },
        },
      },
      { name: 'factcheck/flat', path: '/v2/reports/factcheck', body: { ...window } },
      {
        name: 'factcheck/theme-by-model',
        path: '/v2/reports/factcheck',
        body: {
          ...window,
          group_by: ['theme', 'model'],
          limit: 4,
          filter: { field: 'topic', op: 'not_in', value: ['Boots'] },
        },
      },
      {
        name: 'factcheck/citation',
        path: '/v2/reports/factcheck',
        body: { ...window, group_by: ['citation'], limit: 3 },
      },
      {
        name: 'factcheck/tag-by-week',
        path: '/v2/reports/factcheck',
        body: { ...dst, group_by: ['tag', 'date'], interval: 'week', limit: 4 },
      },
      {
        name: 'prompt-answers/cited-domain',
        path: '/v2/prompts/answers',
        body: {
          ...window,
          limit: 2,
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
          filter: {
            and: [
              { field: 'domain', op: 'is', value: 'WWW.Acme.Example' },
              { field: 'analysis_type', op: 'in', value: ['factcheck', 'sentiment'] },
            ],
          },
        },
      },
      { name: 'videos/video', path: videosReport.path, body: { ...window, limit: 3 } },
      {
        name: 'videos/video-x-model-by-month',
        path: videosReport.path,
        body: {
          ...window,
          group_by: ['video', 'model'],
          interval: 'month',
          source_types: ['short'],
          limit: 2,
          filter: { field: 'channel', op: 'not_contains_case_insensitive', value: 'trail' },
        },
      },
      {
        name: 'prompt-answers/v1',
        path: '/v1/prompts/answers',
        body: {
          ...window,
          start_date: '2026-03-08 01:59',
          end_date: '2026-04-20T03:30:00-04:00',
          include: { response: false, prompt: false, sentiment_themes: true, themes: true },
          filters: [{ field: 'prompt_type', operator: 'is', value: 'sentiment' }],
          pagination: { limit: 2, offset: 1 },
        },
      },
    ],
  },
  {
    title: 'tabular (v1 Insights and traffic)',
    rows: tabularFixture,
    options: { clock: () => new Date('2026-12-01T00:00:00Z') },
    cases: [
      {
        name: 'citations-v1/hostname-by-week-mentioned',
        path: '/v1/reports/citations',
        body: {
          ...v1Window,
          metrics: ['count', 'citation_share', 'first_cited_at'],
          dimensions: ['hostname', 'date'],
          date_interval: 'week',
          filters: [
            { field: 'model', operator: 'in', value: [ids.models[0], ids.models[1]] },
            { field: 'mentioned', operator: 'is', value: true },
            { field: 'hostname', operator: 'contains_case_insensitive', value: 'EXAMPLE' },
          ],
        },
      },
      {
        name: 'citations-v1/root-domains-by-tag',
        path: '/v1/reports/citations',
        body: {
          ...v1Window,
          metrics: ['share_of_voice', 'count'],
          dimensions: ['root_domain', 'tag'],
          filters: [{ field: 'citation_category', operator: 'not_is', value: 'social' }],
        },
      },
      {
        name: 'visibility-v1/brands-by-model',
        path: '/v1/reports/visibility',
        body: {
          ...v1Window,
          metrics: ['visibility_score', 'share_of_voice', 'average_position', 'mentions_count', 'executions'],
          dimensions: ['asset_name', 'model'],
          filters: [
            { field: 'tag_name', operator: 'in', value: ['alpha', ''] },
            { field: 'persona_id', operator: 'not_is', value: ids.personas[0] },
          ],
          order_by: { asset_name: 'asc', visibility_score: 'desc' },
        },
      },
      {
        name: 'visibility-v1/owned-by-quarter',
        path: '/v1/reports/visibility',
        body: {
          ...v1Window,
          metrics: ['visibility_score', 'executions'],
          dimensions: ['date'],
          date_interval: 'quarter',
        },
      },
      {
        name: 'sentiment-v1/themes',
        path: '/v1/reports/sentiment',
        body: {
          ...v1Window,
          metrics: ['positive', 'negative', 'occurrences'],
          dimensions: ['theme', 'persona'],
          filters: [{ field: 'asset_name', operator: 'is', value: 'Acme' }],
        },
      },
      {
        name: 'query-fanouts-v1/prompt-queries',
        path: '/v1/reports/query-fanouts',
        body: {
          ...v1Window,
          metrics: ['total_fanouts', 'fanouts_per_execution', 'share'],
          dimensions: ['prompt', 'query'],
          filters: [{ field: 'analysis_type', value: 'sentiment', operator: 'not_is' }],
        },
      },
      {
        name: 'bots-v1/providers-by-week',
        path: '/v1/reports/bots',
        body: {
          ...traffic,
          metrics: ['count', 'citations', 'indexing', 'training', 'last_visit'],
          dimensions: ['date', 'bot_provider'],
          date_interval: 'week',
          order_by: { date: 'asc' },
        },
      },
      {
        name: 'bots-v2/hours-across-dst',
        path: '/v2/reports/bots',
        body: {
          ...traffic,
          start_date: '2026-03-08T05:00:00Z',
          end_date: '2026-03-08T09:00:00Z',
          metrics: ['count', 'last_visit'],
          dimensions: ['date', 'bot_type'],
          date_interval: 'hour',
          filters: [{ field: 'bot_name', operator: 'not_contains', value: ['Claude', 'Operator'] }],
        },
      },
      {
        name: 'referrals-v1/sources',
        path: '/v1/reports/referrals',
        body: {
          ...traffic,
          end_date: '2026-06-01',
          metrics: ['visits', 'last_visit'],
          dimensions: ['referral_source'],
          metric_filters: [{ field: 'visits', value: 5 }],
        },
      },
      {
        name: 'referrals-v2/kolkata-docs-segment',
        path: '/v2/reports/referrals',
        body: {
          ...traffic,
          end_date: '2026-07-02',
          timezone: 'Asia/Kolkata',
          view_id: tabularIds.views.docs,
          metrics: ['visits', 'last_visit'],
          dimensions: ['date', 'path'],
          date_interval: 'month',
          filters: [{ field: 'referral_type', operator: 'in', value: ['referer', 'utm'] }],
        },
      },
      {
        name: 'referrals-v2/berlin-hours-of-day',
        path: '/v2/reports/referrals',
        body: {
          ...traffic,
          timezone: 'Europe/Berlin',
          metrics: ['visits'],
          dimensions: ['hour'],
          order_by: { hour: 'asc' },
          pagination: { limit: 24 },
        },
      },
    ],
  },
];

for (const suite of suites) {
  describe(`chdb answers the ${suite.title} golden requests as DuckDB does`, () => {
    let engine: Engine;
    beforeAll(async () => {
      engine = await openFixture(suite.rows(), { ...suite.options, backend: 'chdb' });
    }, 60_000);
    afterAll(() => engine?.close());

    it.each(suite.cases)('$name', async ({ name, path, body }) => {
      const result = await engine.org(ids.org1).call('POST', path, { body });
      expect(result.kind).toBe('json');
      const text = result.kind === 'json' ? result.json : '';
      expect(JSON.stringify(JSON.parse(text), null, 2) + '\n').toBe(golden(name));
    });
  });
}
