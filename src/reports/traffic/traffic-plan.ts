import { z } from 'zod';
import {
  flatFiltersSchema,
  plainField,
  readFlatFilters,
  type FlatCatalog,
  type FlatFilter,
} from '../../query/flat-filters.ts';
import {
  dayStart,
  etZone,
  formatInstant,
  localDate,
  wholeHourOffsets,
  toIso,
  utcZone,
  type BucketSpec,
  type DateInterval,
  type InstantWindow,
} from '../../query/instants.ts';
import { zUuid } from '../../query/schema-types.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';
import { throwIfAny, type Mode, type TabularShape } from '../tabular/tabular-report.ts';
import type { Endpoint } from '../endpoint.ts';
import {
  Issues,
  metricFiltersSchema,
  orderBySchema,
  paginationSchema,
  readMetricFilters,
  readOrderBy,
  readPagination,
  readUnique,
  readWindow,
  readZone,
  timezoneSchema,
  zInstantText,
} from '../tabular/tabular-request.ts';

/** A traffic request read into its plan: the schema a declaration gives, its filters, zone and window. */

export interface TrafficDefinition {
  readonly id: string;
  readonly path: string;
  readonly name: string;
  readonly summary: string;
  readonly table: 'bot_events' | 'referral_visits' | 'request_log';
  /**
   * `daily`: the visits of each America/New_York day, stamped at the day's start, so a window keeps
   * the days whose start lies in `[start, end)`. `hourly`: every visit, bucketed in UTC or `timezone`.
   */
  readonly view: 'daily' | 'hourly';
  /** Columns of the table a row of the daily view keeps (besides its day). */
  readonly columns: readonly string[];
  /** Aggregates over the view's rows: `visits` (a count) and `last_at` (latest instant) per row. */
  readonly metrics: Readonly<Record<string, Fragment>>;
  /** The metrics that count visits (0 in an empty bucket); the others (latest visit) are null there. */
  readonly countMetrics: readonly string[];
  readonly dimensions: readonly string[];
  readonly intervals: readonly [DateInterval, ...DateInterval[]];
  readonly filters: readonly string[];
  /** Accepts `timezone` (else UTC for hourly views). */
  readonly timezone?: boolean;
  /** Accepts `view_id`, a saved segment of the domain. */
  readonly segments?: boolean;
  /** Dimension and filter names that read a differently named column (`timestamp` reads `ts`). */
  readonly columnOf?: Readonly<Record<string, string>>;
  readonly deprecated?: boolean;
  readonly successor?: string;
  readonly sunset?: Endpoint['sunset'];
}

export interface TrafficPlan extends TabularShape {
  readonly organizationId: string;
  readonly domain: string;
  readonly requestedOrganization: string | null;
  readonly viewId: string | null;
  /** The instants the rows come from: the request's window, or for daily views its whole days. */
  readonly window: InstantWindow;
  readonly bucket: BucketSpec;
  readonly filters: readonly FlatFilter[];
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The first instant of the first local day starting at or after `ms`. */
function dayBoundary(ms: number, zone: string): number {
  const day = localDate(ms, zone);
  return dayStart(day, zone) < ms ? dayStart(nextDay(day), zone) : dayStart(day, zone);
}

export function schemaOf(def: TrafficDefinition) {
  const metricNames = Object.keys(def.metrics) as [string, ...string[]];
  return z.strictObject({
    domain: z.string().min(1).describe('a domain of your organization, e.g. example.com'),
    metrics: z.array(z.enum(metricNames)).min(1),
    start_date: zInstantText(),
    end_date: zInstantText().optional().nullable().describe('exclusive; default now'),
    date_interval: z.enum(def.intervals).optional().nullable().describe('buckets of the date dimension; default day'),
    dimensions: z
      .array(z.enum(def.dimensions as [string, ...string[]]))
      .optional()
      .nullable(),
    filters: flatFiltersSchema().optional().nullable(),
    metric_filters: metricFiltersSchema().optional().nullable(),
    order_by: orderBySchema().optional().nullable(),
    pagination: paginationSchema().optional().nullable(),
    organization_id: zUuid().optional().nullable(),
    ...(def.timezone ? { timezone: timezoneSchema().optional().nullable() } : {}),
    ...(def.segments
      ? { view_id: zUuid().optional().nullable().describe('a saved segment of the domain: its host and path prefix') }
      : {}),
  });
}

/** The body a traffic report takes, its metric, dimension and interval names those its definition declares. */
export type TrafficBody<D extends TrafficDefinition> = Omit<
  z.input<ReturnType<typeof schemaOf>>,
  'metrics' | 'dimensions' | 'date_interval'
> & {
  metrics: (keyof D['metrics'] & string)[];
  dimensions?: D['dimensions'][number][] | null;
  date_interval?: D['intervals'][number] | null;
} & (D['timezone'] extends true ? { timezone?: string | null } : unknown) &
  (D['segments'] extends true ? { view_id?: string | null } : unknown);

export type TrafficRequest = z.output<ReturnType<typeof schemaOf>> & {
  timezone?: string | null;
  view_id?: string | null;
};

export function filterCatalog(def: TrafficDefinition): FlatCatalog {
  return Object.fromEntries(def.filters.map((f) => [f, plainField(sql`f.${ident(def.columnOf?.[f] ?? f)}`)]));
}

/** The instants a window's rows come from: the window itself, or for daily views its whole days. */
export function rowsWindow(def: TrafficDefinition, startMs: number, endMs: number, zone: string): InstantWindow {
  return def.view === 'daily'
    ? { start: toIso(dayBoundary(startMs, zone)), end: toIso(dayBoundary(endMs, zone)) }
    : { start: toIso(startMs), end: toIso(endMs) };
}

export function planOf(
  def: TrafficDefinition,
  catalog: FlatCatalog,
  req: TrafficRequest,
  ctx: { organizationId: string; now: Date },
  mode: Mode,
): TrafficPlan {
  const issues = new Issues();
  const metrics = readUnique(req.metrics, 'metrics', issues);
  const dimensions = readUnique(req.dimensions ?? [], 'dimensions', issues);
  const { filters, issues: filterIssues } = readFlatFilters(req.filters, catalog, dimensions);
  issues.add(...filterIssues);
  const orderBy = readOrderBy(req.order_by, metrics, dimensions, issues);
  const metricFilters = readMetricFilters(req.metric_filters, metrics, issues);
  const zone = def.view === 'daily' ? etZone : readZone(req.timezone, utcZone, issues);
  const { startMs, endMs } = readWindow(req.start_date, req.end_date, zone, ctx.now, issues);
  throwIfAny(issues);
  // The daily view has nothing finer than a day.
  const interval: DateInterval =
    def.view === 'daily' && req.date_interval === 'hour' ? 'day' : (req.date_interval ?? 'day');
  const pagination = readPagination(req.pagination, mode);
  const rows = rowsWindow(def, startMs, endMs, zone);
  return {
    organizationId: ctx.organizationId,
    domain: req.domain,
    requestedOrganization: req.organization_id ?? null,
    viewId: req.view_id ?? null,
    window: rows,
    bucket: { interval, zone, anchor: localDate(startMs, zone), wholeHours: wholeHourOffsets(zone, startMs, endMs) },
    filters,
    metrics,
    dimensions,
    orderBy,
    metricFilters,
    pagination,
    query: {
      domain: req.domain,
      organization_id: ctx.organizationId,
      start_date: formatInstant(startMs, zone),
      end_date: formatInstant(endMs, zone),
      metrics,
      dimensions,
      date_interval: interval,
      filters: filters.map((f) => ({ field: f.field, operator: f.operator, value: f.value })),
      metric_filters: metricFilters,
      order_by: Object.fromEntries(orderBy.map((o) => [o.key, o.dir])),
      pagination,
      ...(def.timezone ? { timezone: req.timezone ?? utcZone } : {}),
      ...(def.segments ? { view_id: req.view_id ?? null } : {}),
    },
  };
}
