import { planProbe } from '../lib/plan-probe.ts';
import { warmTraffic } from '../lib/traffic-setup.ts';
import { referralsV1Report, referralsV2Report } from '../../src/reports/traffic/referrals.ts';
import type { ReportCase } from '../lib/case.ts';
import { requestMaker, trafficWindow, windowDays } from '../lib/requests.ts';
import { tabularPageBody, tabularShape } from '../lib/tabular-case.ts';
import { trafficBody, trafficFloor, trafficInputRows, type TrafficQuery } from '../lib/traffic-floor.ts';

/**
 * Referrals, v1 (America/New_York days) and v2 (UTC hours, or a time zone): the window series by source,
 * a 1,000-row page, page 1 and page 50 of 100 rows, the largest page the data holds (a year by hour,
 * path and source: about 20,000 rows; by day in v1, about 11,000), a filtered request and, in v2, hours
 * of the day in Europe/Berlin. Neither report streams.
 */

const make = requestMaker(tabularShape(trafficWindow));
type Query = Omit<TrafficQuery, 'table' | 'view'>;

function requests(view: 'daily' | 'hourly') {
  const request = (spec: Parameters<typeof make>[0], query: Query, extra: Record<string, unknown> = {}) =>
    make({ ...spec, body: { ...trafficBody(query), ...extra } }, (e) =>
      trafficFloor({ table: 'referral_visits', view, ...query }, e),
    );
  const bySource: Query = { dimensions: ['referral_source'], metrics: ['visits', 'last_visit'] };
  const days: Query = { dimensions: ['date', 'path', 'referral_source'], metrics: ['visits', 'last_visit'] };
  const grain = view === 'hourly' ? 'hour' : 'day';
  const finest: Query = { ...days, interval: grain };
  const answerEngines: Query = {
    dimensions: ['date', 'referral_source'],
    interval: 'week',
    metrics: ['visits'],
    where: `f.referral_source NOT IN ('none', 'internal')`,
  };
  const berlin: Query = { dimensions: ['hour', 'referral_source'], metrics: ['visits'], zone: 'Europe/Berlin' };
  return [
    ...windowDays.map((d) =>
      request({ id: `window-${d}`, label: `${d} d by source`, days: d, windowSeries: true }, bySource),
    ),
    request({ id: 'day-path-source-90-1k', label: '90 d by day × path × source, 1,000-row page', days: 90 }, days, {
      pagination: { limit: 1000 },
    }),
    request(
      { id: `${grain}-path-source-365`, label: `365 d by ${grain} × path × source, page 1 of 100 rows`, days: 365 },
      finest,
      { pagination: { limit: 100 } },
    ),
    request(
      {
        id: `${grain}-path-source-365-p50`,
        label: `365 d by ${grain} × path × source, page 50 of 100 rows`,
        days: 365,
        page: 50,
        firstPageOf: `${grain}-path-source-365`,
      },
      finest,
      { pagination: { limit: 100 } },
    ),
    request(
      {
        id: `${grain}-path-source-365-all`,
        label: `365 d by ${grain} × path × source, one page of up to 50,000 rows`,
        days: 365,
      },
      finest,
      { pagination: { limit: 50_000 } },
    ),
    request(
      { id: 'week-source-filter-90', label: '90 d by week × source, answer engines only', days: 90 },
      answerEngines,
      {
        filters: [{ field: 'referral_source', operator: 'not_in', value: ['none', 'internal'] }],
      },
    ),
    ...(view === 'hourly'
      ? [
          request(
            { id: 'hour-of-day-berlin-30', label: '30 d by hour of day (Europe/Berlin) × source', days: 30 },
            berlin,
          ),
        ]
      : []),
  ];
}

export const referralsV1Case: ReportCase = {
  report: 'referrals-v1',
  setup: warmTraffic,
  path: referralsV1Report.path,
  plan: planProbe(referralsV1Report),
  pageBody: tabularPageBody,
  inputRows: trafficInputRows('referral_visits'),
  requests: () => requests('daily'),
};

export const referralsV2Case: ReportCase = {
  report: 'referrals-v2',
  setup: warmTraffic,
  path: referralsV2Report.path,
  plan: planProbe(referralsV2Report),
  pageBody: tabularPageBody,
  inputRows: trafficInputRows('referral_visits'),
  requests: () => requests('hourly'),
};
