import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { CursorCodec } from '../src/query/cursor.ts';
import type { Report } from '../src/reports/core/report.ts';
import { pageSql } from './helpers/page-sql.ts';
import { citationsV1Report } from '../src/reports/tabular-v1/citations.ts';
import { queryFanoutsV1Report } from '../src/reports/tabular-v1/query-fanouts.ts';
import { sentimentV1Report } from '../src/reports/tabular-v1/sentiment.ts';
import { visibilityV1Report } from '../src/reports/tabular-v1/visibility.ts';
import { botsV1Report, botsV2Report } from '../src/reports/traffic/bots.ts';
import { referralsV1Report, referralsV2Report } from '../src/reports/traffic/referrals.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { expectGolden } from './helpers/golden.ts';
import { ids } from './fixtures/insights.ts';
import { domains, tabularFixture, tabularIds } from './fixtures/tabular.ts';

const dir = fileURLToPath(new URL('./golden', import.meta.url));
const now = new Date('2026-12-01T00:00:00Z');
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(tabularFixture(), { clock: () => now, rollups: false });
});
afterAll(() => engine.close());

interface GoldenCase {
  readonly name: string;
  readonly report: Report<never, unknown>;
  readonly body: Record<string, unknown>;
}

const window = {
  category_id: ids.cat1,
  start_date: '2026-03-01',
  end_date: '2026-12-01',
  pagination: { limit: 8, offset: 0 },
};
const traffic = { domain: domains.own, start_date: '2026-03-01', pagination: { limit: 8, offset: 0 } };
const as = (r: unknown) => r as Report<never, unknown>;

const cases: GoldenCase[] = [
  {
    name: 'citations-v1/hostname-by-week-mentioned',
    report: as(citationsV1Report),
    body: {
      ...window,
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
    report: as(citationsV1Report),
    body: {
      ...window,
      metrics: ['share_of_voice', 'count'],
      dimensions: ['root_domain', 'tag'],
      filters: [{ field: 'citation_category', operator: 'not_is', value: 'social' }],
    },
  },
  {
    name: 'visibility-v1/brands-by-model',
    report: as(visibilityV1Report),
    body: {
      ...window,
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
    report: as(visibilityV1Report),
    body: { ...window, metrics: ['visibility_score', 'executions'], dimensions: ['date'], date_interval: 'quarter' },
  },
  {
    name: 'sentiment-v1/themes',
    report: as(sentimentV1Report),
    body: {
      ...window,
      metrics: ['positive', 'negative', 'occurrences'],
      dimensions: ['theme', 'persona'],
      filters: [{ field: 'asset_name', operator: 'is', value: 'Acme' }],
    },
  },
  {
    name: 'query-fanouts-v1/prompt-queries',
    report: as(queryFanoutsV1Report),
    body: {
      ...window,
      metrics: ['total_fanouts', 'fanouts_per_execution', 'share'],
      dimensions: ['prompt', 'query'],
      filters: [{ field: 'analysis_type', value: 'sentiment', operator: 'not_is' }],
    },
  },
  {
    name: 'bots-v1/providers-by-week',
    report: as(botsV1Report),
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
    report: as(botsV2Report),
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
    report: as(referralsV1Report),
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
    report: as(referralsV2Report),
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
    report: as(referralsV2Report),
    body: {
      ...traffic,
      timezone: 'Europe/Berlin',
      metrics: ['visits'],
      dimensions: ['hour'],
      order_by: { hour: 'asc' },
      pagination: { limit: 24 },
    },
  },
];

describe('golden plans, SQL and results of the tabular reports', () => {
  it.each(cases)('$name', async ({ name, report, body }) => {
    const ctx = { organizationId: ids.org1, core: engine.core, now, cursors: new CursorCodec('golden') };
    const prepared = await pageSql(report, body, ctx);
    const query = prepared.query;
    expectGolden(join(dir, `${name}.plan.json`), JSON.stringify(prepared.plan, null, 2) + '\n');
    expectGolden(join(dir, `${name}.sql`), `${query.text}\n-- params: ${JSON.stringify(query.params)}\n`);
    const result = await engine.org(ids.org1).call('POST', report.path, { body });
    expectGolden(
      join(dir, `${name}.result.json`),
      JSON.stringify(JSON.parse(result.kind === 'json' ? result.json : '{}'), null, 2) + '\n',
    );
  });
});
