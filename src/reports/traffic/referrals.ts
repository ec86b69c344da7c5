import { lastVisitSql, trafficReport, visitsSql } from './traffic-report.ts';

const referralMetrics = { visits: visitsSql(), last_visit: lastVisitSql };
const columns = ['host', 'path', 'referral_source', 'referral_type'];

export const referralsV1Report = trafficReport({
  id: 'referrals.v1',
  path: '/v1/reports/referrals',
  name: 'referralsV1',
  summary: 'Visits referred by answer engines to a domain, from the daily view (America/New_York days)',
  table: 'referral_visits',
  view: 'daily',
  columns,
  metrics: referralMetrics,
  countMetrics: ['visits'],
  dimensions: ['date', 'host', 'path', 'referral_source'],
  intervals: ['hour', 'day', 'week', 'month', 'year', 'relative_week'],
  filters: ['path', 'referral_source'],
});

export const referralsV2Report = trafficReport({
  id: 'referrals.v2',
  path: '/v2/reports/referrals',
  name: 'referrals',
  summary: 'Visits referred by answer engines to a domain, hourly in UTC or a time zone, optionally in a saved segment',
  table: 'referral_visits',
  view: 'hourly',
  columns,
  metrics: referralMetrics,
  countMetrics: ['visits'],
  dimensions: ['date', 'hour', 'host', 'path', 'referral_source', 'referral_type'],
  intervals: ['hour', 'day', 'week', 'month', 'quarter', 'year', 'relative_week'],
  filters: ['path', 'referral_source', 'referral_type'],
  timezone: true,
  segments: true,
});
