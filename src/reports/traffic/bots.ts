import { sql } from '../../query/sql.ts';
import { lastVisitSql, trafficReport, visitsSql } from './traffic-report.ts';

/** Every row of bot_events is one unique visit; citations, indexing and training count visits by bot type. */
const botMetrics = {
  count: visitsSql(),
  citations: visitsSql(sql`bot_type = 'ai_assistant'`),
  indexing: visitsSql(sql`bot_type = 'index'`),
  training: visitsSql(sql`bot_type = 'ai_training'`),
  last_visit: lastVisitSql,
};

const botCounts = ['count', 'citations', 'indexing', 'training'];

const columns = ['host', 'path', 'bot_name', 'bot_provider', 'bot_type'];

export const botsV1Report = trafficReport({
  id: 'bots.v1',
  path: '/v1/reports/bots',
  name: 'botsV1',
  summary: 'AI bot traffic of a domain, from the daily view (America/New_York days)',
  table: 'bot_events',
  view: 'daily',
  columns,
  metrics: botMetrics,
  countMetrics: botCounts,
  dimensions: ['date', 'host', 'path', 'bot_name', 'bot_provider'],
  intervals: ['hour', 'day', 'week', 'month', 'year', 'relative_week'],
  filters: ['path', 'bot_name', 'bot_provider'],
});

export const botsV2Report = trafficReport({
  id: 'bots.v2',
  path: '/v2/reports/bots',
  name: 'bots',
  summary: 'AI bot traffic of a domain, hourly in UTC',
  table: 'bot_events',
  view: 'hourly',
  columns,
  metrics: botMetrics,
  countMetrics: botCounts,
  dimensions: ['date', 'hour', 'host', 'path', 'bot_name', 'bot_provider', 'bot_type'],
  intervals: ['hour', 'day', 'week', 'month', 'quarter', 'year', 'relative_week'],
  filters: ['path', 'bot_name', 'bot_provider', 'bot_type'],
});
