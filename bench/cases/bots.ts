import { planProbe } from '../lib/plan-probe.ts';
import { warmTraffic } from '../lib/traffic-setup.ts';
import { botsV1Report, botsV2Report } from '../../src/reports/traffic/bots.ts';
import type { ReportCase } from '../lib/case.ts';
import { requestMaker, trafficWindow, windowDays } from '../lib/requests.ts';
import { tabularPageBody, tabularShape } from '../lib/tabular-case.ts';
import { trafficBody, trafficInputRows, trafficFloor, type TrafficQuery } from '../lib/traffic-floor.ts';

/**
 * Bots, v1 (America/New_York days) and v2 (UTC hours): the window series by bot, a 1,000-row page, page
 * 1 and page 50 of 100 rows, and the largest page the data holds (every row of a year by hour, path and
 * bot: about 25,000 rows; by day in v1, about 15,000), and a filtered request. Neither report streams.
 */

const make = requestMaker(tabularShape(trafficWindow));
type Query = Omit<TrafficQuery, 'table' | 'view'>;

function requests(view: 'daily' | 'hourly') {
  const request = (spec: Parameters<typeof make>[0], query: Query, extra: Record<string, unknown> = {}) =>
    make({ ...spec, body: { ...trafficBody(query), ...extra } }, (e) =>
      trafficFloor({ table: 'bot_events', view, ...query }, e),
    );
  const byBot: Query = {
    dimensions: ['bot_name'],
    metrics: ['count', 'citations', 'indexing', 'training', 'last_visit'],
  };
  const days: Query = { dimensions: ['date', 'path', 'bot_name'], metrics: ['count', 'last_visit'] };
  const finest: Query = { ...days, interval: view === 'hourly' ? 'hour' : 'day' };
  const grain = view === 'hourly' ? 'hour' : 'day';
  const weekly: Query = {
    dimensions: ['date', 'bot_name'],
    interval: 'week',
    metrics: ['count', 'citations'],
    where: `f.bot_provider IN ('openai', 'anthropic')`,
    orderBy: [
      ['date', 'asc'],
      ['count', 'desc'],
    ],
  };
  return [
    ...windowDays.map((d) =>
      request({ id: `window-${d}`, label: `${d} d by bot`, days: d, windowSeries: true }, byBot),
    ),
    request({ id: 'day-path-bot-90-1k', label: '90 d by day × path × bot, 1,000-row page', days: 90 }, days, {
      pagination: { limit: 1000 },
    }),
    request(
      { id: `${grain}-path-bot-365`, label: `365 d by ${grain} × path × bot, page 1 of 100 rows`, days: 365 },
      finest,
      { pagination: { limit: 100 } },
    ),
    request(
      {
        id: `${grain}-path-bot-365-p50`,
        label: `365 d by ${grain} × path × bot, page 50 of 100 rows`,
        days: 365,
        page: 50,
        firstPageOf: `${grain}-path-bot-365`,
      },
      finest,
      { pagination: { limit: 100 } },
    ),
    request(
      {
        id: `${grain}-path-bot-365-all`,
        label: `365 d by ${grain} × path × bot, one page of up to 50,000 rows`,
        days: 365,
      },
      finest,
      { pagination: { limit: 50_000 } },
    ),
    request({ id: 'week-bot-filter-90', label: '90 d by week × bot, two providers', days: 90 }, weekly, {
      filters: [{ field: 'bot_provider', operator: 'in', value: ['openai', 'anthropic'] }],
      order_by: { date: 'asc', count: 'desc' },
    }),
  ];
}

export const botsV1Case: ReportCase = {
  report: 'bots-v1',
  setup: warmTraffic,
  path: botsV1Report.path,
  plan: planProbe(botsV1Report),
  pageBody: tabularPageBody,
  inputRows: trafficInputRows('bot_events'),
  requests: () => requests('daily'),
};

export const botsV2Case: ReportCase = {
  report: 'bots-v2',
  setup: warmTraffic,
  path: botsV2Report.path,
  plan: planProbe(botsV2Report),
  pageBody: tabularPageBody,
  inputRows: trafficInputRows('bot_events'),
  requests: () => requests('hourly'),
};
