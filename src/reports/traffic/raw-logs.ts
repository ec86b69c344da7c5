import { trafficReport, visitsSql } from './traffic-report.ts';

/**
 * The retired raw-log operations, kept for keys made before 2026-04-10 until the 2026-06-10 sunset.
 * They group the visits this dataset records; fields it does not record (ip, user agent, status code,
 * bytes, duration, query string) are not offered.
 */
const retirement = {
  deprecated: true,
  successor: '/v2/reports/bots',
  sunset: { deprecatedOn: '2026-04-10', newKeysFrom: '2026-04-10', sunsetOn: '2026-06-10' },
} as const;

export const rawLogsReport = trafficReport({
  ...retirement,
  successor: '/v2/reports/referrals',
  id: 'logs.raw',
  path: '/v1/logs/raw',
  name: 'rawLogs',
  summary: 'Deprecated: request counts of a domain (bot and referred visits) by timestamp, host and path',
  table: 'request_log',
  view: 'hourly',
  columns: ['host', 'path'],
  metrics: { count: visitsSql() },
  countMetrics: ['count'],
  dimensions: ['timestamp', 'host', 'path'],
  intervals: ['hour', 'day', 'week', 'month', 'year', 'relative_week'],
  filters: ['host', 'path'],
  columnOf: { timestamp: 'ts' },
});

export const rawBotLogsReport = trafficReport({
  ...retirement,
  id: 'logs.raw.bots',
  path: '/v1/logs/raw/bots',
  name: 'rawBotLogs',
  summary: 'Deprecated: bot visit counts of a domain by timestamp, host, path and bot',
  table: 'bot_events',
  view: 'hourly',
  columns: ['host', 'path', 'bot_name', 'bot_provider', 'bot_type'],
  metrics: { count: visitsSql() },
  countMetrics: ['count'],
  dimensions: ['timestamp', 'host', 'path', 'bot_name', 'bot_provider', 'bot_types'],
  intervals: ['hour', 'day', 'week', 'month', 'year', 'relative_week'],
  filters: ['path', 'bot_name', 'bot_provider', 'bot_types'],
  columnOf: { timestamp: 'ts', bot_types: 'bot_type' },
});
