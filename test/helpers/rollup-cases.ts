import type { Scope, Scopes } from './every-report.ts';

/** A request a rollup answers on DuckDB once built (and on a ClickHouse database that keeps it). */
export interface RollupCase {
  readonly report: string;
  readonly scope: Scope;
  readonly body: Record<string, unknown>;
}

const v2 = { start_date: '2026-01-01', end_date: '2026-06-30' };
const v1 = { start_date: '2026-01-01', end_date: '2026-07-01' };

/** Requests over the bundled sample, each answered from a rollup: every rollup the engine keeps is read by one at least. */
export function rollupCases(scopes: Scopes): RollupCase[] {
  const { insights, shopping, sentiment } = scopes;
  const window = (s: Scope) => ({ category_id: s.category, ...v2 });
  const traffic = (s: Scope) => ({ domain: s.domain, ...v1 });
  return [
    {
      report: 'visibility',
      scope: insights,
      body: { ...window(insights), group_by: ['model', 'date'], interval: 'week', limit: 50 },
    },
    {
      report: 'visibility',
      scope: insights,
      body: { ...window(insights), scope: 'all', group_by: ['topic'], limit: 50 },
    },
    { report: 'visibility', scope: insights, body: { ...window(insights), group_by: ['region', 'model'], limit: 50 } },
    {
      report: 'citations',
      scope: insights,
      body: { ...window(insights), group_by: ['date'], interval: 'month', limit: 50 },
    },
    {
      report: 'citations',
      scope: insights,
      body: {
        ...window(insights),
        group_by: ['model'],
        filter: { field: 'analysis_type', op: 'is', value: 'all' },
        limit: 50,
      },
    },
    {
      report: 'sentiment',
      scope: sentiment,
      body: { ...window(sentiment), asset: sentiment.brand, group_by: ['model'], limit: 50 },
    },
    { report: 'shoppingProducts', scope: shopping, body: { ...window(shopping), limit: 20 } },
    // No answers in the window: the rolled-up answers are NULL over no rows, which ClickHouse's CAST to a plain Int64 refused.
    {
      report: 'shoppingProducts',
      scope: shopping,
      body: { category_id: shopping.category, start_date: '2024-01-01', end_date: '2024-01-31', limit: 20 },
    },
    {
      report: 'youtubeChannels',
      scope: insights,
      body: {
        ...window(insights),
        group_by: ['channel', 'model'],
        interval: 'month',
        filter: { field: 'model', op: 'is', value: 'ChatGPT' },
        limit: 50,
      },
    },
    {
      report: 'youtubeVideos',
      scope: insights,
      body: { ...window(insights), group_by: ['video', 'source_type'], limit: 50 },
    },
    { report: 'factcheck', scope: insights, body: { ...window(insights), group_by: ['model'], limit: 50 } },
    {
      report: 'promptAnswers',
      scope: insights,
      body: { ...window(insights), include: ['run_id', 'model'], limit: 50 },
    },
    {
      report: 'queryFanouts',
      scope: insights,
      body: { ...window(insights), group_by: ['prompt', 'query'], limit: 50 },
    },
    {
      report: 'botsV1',
      scope: insights,
      body: { ...traffic(insights), metrics: ['count', 'last_visit'], dimensions: ['bot_name', 'host'] },
    },
    {
      report: 'bots',
      scope: insights,
      body: {
        ...traffic(insights),
        metrics: ['count', 'training'],
        dimensions: ['bot_type', 'date'],
        date_interval: 'day',
      },
    },
    {
      report: 'referralsV1',
      scope: insights,
      body: { ...traffic(insights), metrics: ['visits', 'last_visit'], dimensions: ['referral_source', 'path'] },
    },
    {
      report: 'referrals',
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
  ];
}
