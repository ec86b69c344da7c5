import type { IterationParams } from '../lib/case.ts';
import { addDays } from '../lib/dataset.ts';
import { dayLabel, dayNumber } from './days.ts';
import type { EnumName } from './dims.ts';
import { str } from './json.ts';
import { defaultOrder, tabularFloor, type Dimension, type Metric } from './tabular.ts';
import { trafficRollups } from './traffic-rollups.ts';
import type { PageFloor, ReportFloors } from './types.ts';

/**
 * Traffic: bots and referrals, v1 (America/New_York days) and v2 (UTC hours, or a zone's), and the raw bot
 * logs (minutes). Every zone the requests use has whole-hour offsets, so a UTC-hour rollup answers v2 in
 * any of them exactly; v1 reads a rollup keyed by the New York day.
 */

/** A text key stored as an enum, shown as its text. */
const text = (column: string, enumName: EnumName): Dimension => ({
  sql: `enum_code(${column})`,
  label: async (env) => {
    const values = (await env.dims.values(enumName)).map(str);
    return (v) => values[v]!;
  },
});

const constant = (label: (v: number) => string) => () => label;
const labels = new Map<string, string>();
const cached = (key: string, make: () => string) => {
  let s = labels.get(key);
  if (s === undefined) labels.set(key, (s = make()));
  return s;
};
const hourLabel = (h: number) =>
  cached(`h${h}`, () => `"${new Date(h * 3_600_000).toISOString().slice(0, 13)}:00:00+00:00"`);
const minuteLabel = (m: number) => `"${new Date(m * 60_000).toISOString().slice(0, 16)}:00Z"`;
const dayJson = (d: number) => `"${dayLabel(d)}"`;

const dims = {
  path: text('path', 'floor_path'),
  bot: text('bot', 'floor_bot'),
  source: text('source', 'floor_source'),
  nyDay: { sql: 'd', label: constant(dayJson) },
  nyWeek: { sql: '(d - (d + 3) % 7)', label: constant(dayJson) },
  utcHour: { sql: 'h', label: constant(hourLabel) },
  utcDay: { sql: 'h // 24', label: constant(dayJson) },
  utcWeek: { sql: '(h // 24 - (h // 24 + 3) % 7)', label: constant(dayJson) },
  minute: { sql: 'm', label: constant(minuteLabel) },
  berlinHour: {
    sql: `hour(timezone('Europe/Berlin', to_timestamp(h * 3600)))`,
    label: constant((v) => cached(`hd${v}`, () => `"${String(v).padStart(2, '0')}"`)),
  },
} satisfies Record<string, Dimension>;

const metric = {
  count: { sql: 'sum(n)::INTEGER' },
  citations: { sql: 'sum(assistant)::INTEGER' },
  indexing: { sql: 'sum(indexing)::INTEGER' },
  training: { sql: 'sum(training)::INTEGER' },
  last: { sql: 'max(last)' },
} satisfies Record<string, Metric>;

/** The zone's midnight of a day as a UTC hour number (whole-hour offsets only, as the requests' zones have). */
function zoneMidnightHour(day: string, timeZone: string): number {
  const utc = Date.parse(`${day}T00:00:00Z`);
  const offset = (at: number) => {
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((x) => x.type === 'timeZoneName')!.value;
    const m = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(name)!;
    return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  };
  const guess = utc - offset(utc);
  return (utc - offset(guess)) / 3_600_000;
}

interface Query {
  readonly dimensions: readonly Dimension[];
  readonly metrics: readonly Metric[];
  readonly where?: string;
  readonly orderBy?: readonly string[];
  readonly limit?: number;
  readonly page?: number;
  readonly atGrain?: boolean;
}

type Grain = 'day' | 'hour' | 'minute';

/** The window [start_date, end_date + 1 day) of an iteration in the rollup's time unit. */
function windowOf(grain: Grain, p: IterationParams, timeZone = 'UTC'): [number, number] {
  const end = addDays(p.endDate, 1);
  if (grain === 'day') return [dayNumber(p.startDate), dayNumber(end)];
  const [a, b] = [zoneMidnightHour(p.startDate, timeZone), zoneMidnightHour(end, timeZone)];
  return grain === 'hour' ? [a, b] : [a * 60, b * 60];
}

/** A page over a rollup, or over `from` already holding the window's rows (`$1…$3` bound the same way). */
function floorOf(table: string, grain: Grain, q: Query, timeZone?: string, from?: string): PageFloor {
  const t = grain === 'day' ? 'd' : grain === 'hour' ? 'h' : 'm';
  const limit = q.limit ?? 10_000;
  return tabularFloor({
    from: from ?? table,
    where: from ? 'true' : `domain = $1 AND ${t} >= $2 AND ${t} < $3${q.where ?? ''}`,
    params: (p) => [p.domain, ...windowOf(grain, p, timeZone)],
    dimensions: q.dimensions,
    metrics: q.metrics,
    orderBy: q.orderBy ?? defaultOrder(q.dimensions.length),
    limit,
    offset: ((q.page ?? 1) - 1) * limit,
    ...(q.atGrain ? { atGrain: true } : {}),
  });
}

const windows = [1, 7, 30, 90, 365];
const byWindow = (f: () => PageFloor) => Object.fromEntries(windows.map((d) => [`window-${d}`, f()]));
const providers = ` AND provider IN ('openai', 'anthropic')`;

function bots(view: 'daily' | 'hourly'): ReportFloors {
  const [table, grain] =
    view === 'daily' ? (['floor_bots_day', 'day'] as const) : (['floor_bots_hour', 'hour'] as const);
  const day = view === 'daily' ? dims.nyDay : dims.utcDay;
  const finest = view === 'daily' ? dims.nyDay : dims.utcHour;
  const week = view === 'daily' ? dims.nyWeek : dims.utcWeek;
  const at = (q: Query) => floorOf(table, grain, q);
  const paths = (limit: number, pageNo = 1) =>
    at({ dimensions: [finest, dims.path, dims.bot], metrics: [metric.count, metric.last], limit, page: pageNo });
  const g = view === 'daily' ? 'day' : 'hour';
  return {
    report: view === 'daily' ? 'bots-v1' : 'bots-v2',
    rollups: [view === 'daily' ? trafficRollups.botsDay : trafficRollups.botsHour],
    floors: () => ({
      ...byWindow(() =>
        at({
          dimensions: [dims.bot],
          metrics: [metric.count, metric.citations, metric.indexing, metric.training, metric.last],
        }),
      ),
      'day-path-bot-90-1k': at({
        dimensions: [day, dims.path, dims.bot],
        metrics: [metric.count, metric.last],
        limit: 1000,
      }),
      [`${g}-path-bot-365`]: paths(100),
      [`${g}-path-bot-365-p50`]: paths(100, 50),
      [`${g}-path-bot-365-all`]: paths(50_000),
      'week-bot-filter-90': at({
        dimensions: [week, dims.bot],
        metrics: [metric.count, metric.citations],
        where: providers,
        orderBy: ['k0', 'm0 DESC', 'k0', 'k1'],
      }),
    }),
  };
}

function referrals(view: 'daily' | 'hourly'): ReportFloors {
  const [table, grain] =
    view === 'daily' ? (['floor_referrals_day', 'day'] as const) : (['floor_referrals_hour', 'hour'] as const);
  const day = view === 'daily' ? dims.nyDay : dims.utcDay;
  const finest = view === 'daily' ? dims.nyDay : dims.utcHour;
  const week = view === 'daily' ? dims.nyWeek : dims.utcWeek;
  const at = (q: Query) => floorOf(table, grain, q);
  const paths = (limit: number, pageNo = 1) =>
    at({ dimensions: [finest, dims.path, dims.source], metrics: [metric.count, metric.last], limit, page: pageNo });
  const g = view === 'daily' ? 'day' : 'hour';
  // TRICKY: the zone's hour of day is computed once per (UTC hour, source), after a first aggregation.
  const berlin = floorOf(
    table,
    'hour',
    { dimensions: [dims.berlinHour, dims.source], metrics: [metric.count] },
    'Europe/Berlin',
    `(SELECT h, source, sum(n) AS n FROM ${table} WHERE domain = $1 AND h >= $2 AND h < $3 GROUP BY ALL)`,
  );
  return {
    report: view === 'daily' ? 'referrals-v1' : 'referrals-v2',
    rollups: [view === 'daily' ? trafficRollups.referralsDay : trafficRollups.referralsHour],
    floors: () => ({
      ...byWindow(() => at({ dimensions: [dims.source], metrics: [metric.count, metric.last] })),
      'day-path-source-90-1k': at({
        dimensions: [day, dims.path, dims.source],
        metrics: [metric.count, metric.last],
        limit: 1000,
      }),
      [`${g}-path-source-365`]: paths(100),
      [`${g}-path-source-365-p50`]: paths(100, 50),
      [`${g}-path-source-365-all`]: paths(50_000),
      'week-source-filter-90': at({
        dimensions: [week, dims.source],
        metrics: [metric.count],
        where: ` AND source NOT IN ('none', 'internal')`,
      }),
      ...(view === 'hourly' ? { 'hour-of-day-berlin-30': berlin } : {}),
    }),
  };
}

export const botsV1Floors = bots('daily');
export const botsV2Floors = bots('hourly');
export const referralsV1Floors = referrals('daily');
export const referralsV2Floors = referrals('hourly');

export const rawLogsFloors: ReportFloors = {
  report: 'raw-bot-logs',
  rollups: [trafficRollups.botsHour, trafficRollups.botMinutes],
  floors: () => {
    const visits = (limit: number, pageNo = 1) =>
      floorOf('floor_bot_minutes', 'minute', {
        dimensions: [dims.minute, dims.path, dims.bot],
        metrics: [{ sql: 'n' }],
        orderBy: ['k0 DESC', 'k1', 'k2'],
        limit,
        page: pageNo,
        atGrain: true,
      });
    return {
      ...byWindow(() => floorOf('floor_bots_hour', 'hour', { dimensions: [dims.path], metrics: [metric.count] })),
      'visits-90-1k': visits(1000),
      'visits-90-1k-p50': visits(1000, 50),
      'visits-365-50k': visits(50_000),
    };
  },
};
