import type { OldFloor, IterationParams } from './case.ts';
import { namedValues, type Envelope } from './floor.ts';

import { tabularFloor } from './tabular-case.ts';

/**
 * The hand-written floor of the traffic reports (bots, referrals): one GROUP BY over the domain's
 * visits in the window. The v1 reports count America/New_York days, so their window is the instants of
 * those days; the v2 reports count instants in `[start, end)` read in `zone` (UTC by default).
 */
export interface TrafficQuery {
  readonly table: 'bot_events' | 'referral_visits' | 'request_log';
  readonly view: 'daily' | 'hourly';
  readonly zone?: string;
  readonly interval?: 'hour' | 'day' | 'week' | 'month';
  readonly dimensions: readonly string[];
  readonly metrics: readonly string[];
  /** A predicate over the visit `f`, or nothing. */
  readonly where?: string;
  /** `[key, direction]` pairs; default the first metric, descending. */
  readonly orderBy?: readonly (readonly [string, 'asc' | 'desc'])[];
}

const metricSql: Record<string, string> = {
  count: 'count(*)',
  visits: 'count(*)',
  citations: `count(*) FILTER (WHERE bot_type = 'ai_assistant')`,
  indexing: `count(*) FILTER (WHERE bot_type = 'index')`,
  training: `count(*) FILTER (WHERE bot_type = 'ai_training')`,
  last_visit: 'epoch_ms(max(ts)) // 1000',
};

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

export function trafficFloor(q: TrafficQuery, e: Envelope): OldFloor {
  const zone = q.view === 'daily' ? 'America/New_York' : (q.zone ?? 'UTC');
  const z = quote(zone);
  const day = `CAST(timezone(${z}, f.ts) AS DATE)`;
  const interval = q.interval ?? 'day';
  const hourly = q.view === 'hourly' && interval === 'hour';
  const dateKey = hourly
    ? `date_trunc('hour', f.ts)`
    : interval === 'day'
      ? day
      : `CAST(date_trunc('${interval}', ${day}) AS DATE)`;
  const keyOf = (d: string) =>
    d === 'date' ? dateKey : d === 'hour' ? `hour(timezone(${z}, f.ts))` : d === 'timestamp' ? 'f.ts' : `f.${d}`;
  // A UTC hour shows its own offset, +00:00; the bench asks for hours only in UTC.
  const labelOf = (d: string, k: string) =>
    d === 'date'
      ? hourly
        ? `strftime(${k}, '%Y-%m-%dT%H:%M:%S') || '+00:00'`
        : `strftime(${k}, '%Y-%m-%d')`
      : d === 'hour'
        ? `lpad(CAST(${k} AS VARCHAR), 2, '0')`
        : d === 'timestamp'
          ? `strftime(${k}, '%Y-%m-%dT%H:%M:%SZ')`
          : k;
  const dims = q.dimensions.map((d, i) => ({ d, k: `k${i}` }));
  const orderBy = q.orderBy ?? [[q.metrics[0]!, 'desc'] as const];
  const order = [
    ...orderBy.map(
      ([key, dir]) =>
        (q.metrics.includes(key) ? `m${q.metrics.indexOf(key)}` : `k${q.dimensions.indexOf(key)}`) +
        ` ${dir.toUpperCase()} NULLS LAST`,
    ),
    ...dims.map((x) => `${x.k} ASC NULLS LAST`),
  ];
  const ctes = `WITH g AS (
  SELECT ${[...dims.map((x) => `${keyOf(x.d)} AS ${x.k}`), ...q.metrics.map((m, j) => `${metricSql[m]} AS m${j}`)].join(', ')}
  FROM ${q.table} f
  WHERE f.organization_id = $org AND f.domain = $domain
    AND f.ts >= timezone(${z}, $start::TIMESTAMP) AND f.ts < timezone(${z}, $end_next::TIMESTAMP)${q.where ? `\n    AND ${q.where}` : ''}
  ${dims.length > 0 ? `GROUP BY ${dims.map((x) => x.k).join(', ')}` : 'HAVING count(*) > 0'}
),
rows AS (
  SELECT row_number() OVER (ORDER BY ${order.join(', ')}) AS ord, 0 AS seq,
         ${[...dims.map((x, i) => `CAST(${labelOf(x.d, x.k)} AS VARCHAR) AS d${i}`), ...q.metrics.map((_, j) => `m${j}`)].join(', ')}
  FROM g
)`;
  return tabularFloor(ctes, e, q.dimensions.length, q.metrics.length);
}

/** The request body of a traffic query (its filters, as wire filters, are the caller's). */
export function trafficBody(q: Omit<TrafficQuery, 'table' | 'view'>): Record<string, unknown> {
  return {
    metrics: q.metrics,
    dimensions: q.dimensions,
    ...(q.interval ? { date_interval: q.interval } : {}),
    ...(q.zone ? { timezone: q.zone } : {}),
  };
}

/** The domain's visits in the window, for rows per second. */
export function trafficInputRows(table: TrafficQuery['table']) {
  const text = `SELECT count(*) FROM ${table} WHERE organization_id = $org AND domain = $domain AND ts >= $start::TIMESTAMPTZ AND ts < $end_next::TIMESTAMPTZ`;
  return { sql: text, params: (p: IterationParams) => namedValues(text, p) };
}
