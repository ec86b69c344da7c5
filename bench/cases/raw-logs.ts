import { planProbe } from '../lib/plan-probe.ts';
import { warmTraffic } from '../lib/traffic-setup.ts';
import { rawBotLogsReport } from '../../src/reports/traffic/raw-logs.ts';
import type { ReportCase } from '../lib/case.ts';
import { requestMaker, trafficWindow, windowDays } from '../lib/requests.ts';
import { tabularPageBody, tabularShape } from '../lib/tabular-case.ts';
import { trafficBody, trafficFloor, trafficInputRows, type TrafficQuery } from '../lib/traffic-floor.ts';

/**
 * Raw bot logs (retired, still served): visits by timestamp are the traffic family's largest results,
 * so this is where its 1,000- and 50,000-row pages and page 50 of 1,000 rows are measured. No stream.
 */

const make = requestMaker(tabularShape(trafficWindow));
type Query = Omit<TrafficQuery, 'table' | 'view'>;

const request = (spec: Parameters<typeof make>[0], query: Query, extra: Record<string, unknown> = {}) =>
  make({ ...spec, body: { ...trafficBody(query), ...extra } }, (e) =>
    trafficFloor({ table: 'bot_events', view: 'hourly', ...query }, e),
  );

const byPath: Query = { dimensions: ['path'], metrics: ['count'] };
const visits: Query = {
  dimensions: ['timestamp', 'path', 'bot_name'],
  metrics: ['count'],
  orderBy: [['timestamp', 'desc']],
};
const newest = { order_by: { timestamp: 'desc' } };

export const rawLogsCase: ReportCase = {
  report: 'raw-bot-logs',
  setup: warmTraffic,
  path: rawBotLogsReport.path,
  plan: planProbe(rawBotLogsReport),
  pageBody: tabularPageBody,
  inputRows: trafficInputRows('bot_events'),
  requests: () => [
    ...windowDays.map((d) =>
      request({ id: `window-${d}`, label: `${d} d by path`, days: d, windowSeries: true }, byPath),
    ),
    request({ id: 'visits-90-1k', label: '90 d of visits, newest first, 1,000-row page 1', days: 90 }, visits, {
      ...newest,
      pagination: { limit: 1000 },
    }),
    request(
      {
        id: 'visits-90-1k-p50',
        label: '90 d of visits, newest first, 1,000-row page 50',
        days: 90,
        page: 50,
        firstPageOf: 'visits-90-1k',
      },
      visits,
      {
        ...newest,
        pagination: { limit: 1000 },
      },
    ),
    request({ id: 'visits-365-50k', label: '365 d of visits, newest first, 50,000-row page', days: 365 }, visits, {
      ...newest,
      pagination: { limit: 50_000 },
    }),
  ],
};
