import { z } from 'zod';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.ts';
import { compileFilter } from '../../query/filter-compiler.ts';
import { flatFiltersSchema, flatToNode, plainField, readFlatFilters, type FlatCatalog, type FlatFilter } from '../../query/flat-filters.ts';
import { bucketKey, bucketLabel, dayStart, etZone, formatInstant, hourOfDay, localDate, wholeHourOffsets, toIso, utcZone, type BucketSpec, type DateInterval, type InstantWindow } from '../../query/instants.ts';
import type { MsWindow } from '../extensions/compare-window.ts';
import { zUuid } from '../../query/schema-types.ts';
import { epochSeconds, formatInstant as instantText, instant, startsWith, zoneDay } from '../../query/dialect.ts';
import { ident, join, render, sql, type Fragment } from '../../query/sql.ts';
import { rollupTable } from '../../engine/rollups.ts';
import { servedByTrafficHourly, trafficHourly } from './traffic-rollup.ts';
import { rolledDailyView, servedByTrafficDaily, trafficDaily } from './traffic-daily.ts';
import type { CallContext } from '../endpoint.ts';
import { authorize } from '../paged-report.ts';
import { groupKeys, keyColumn, metricColumn, throwIfAny, type Mode, type TabularDimension, type TabularReport, type TabularShape } from '../tabular/tabular-report.ts';
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

/**
 * Traffic reports (bots, referrals) as data: each declares its table, view, metrics, dimensions and
 * filters; this module turns a declaration into a tabular report. A traffic query names a domain of
 * the caller's organization.
 */

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
  readonly sunset?: TabularReport<unknown, TrafficPlan>['sunset'];
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

/** The latest visit, as Unix seconds: the metrics array holds numbers only. */
export const lastVisitSql = epochSeconds(sql`max(last_at)`);

/** Visits, or the visits of the view's rows that satisfy a predicate. */
export const visitsSql = (predicate?: Fragment): Fragment =>
  predicate ? sql`CAST(coalesce(sum(visits) FILTER (WHERE ${predicate}), 0) AS BIGINT)` : sql`CAST(sum(visits) AS BIGINT)`;

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The first instant of the first local day starting at or after `ms`. */
function dayBoundary(ms: number, zone: string): number {
  const day = localDate(ms, zone);
  return dayStart(day, zone) < ms ? dayStart(nextDay(day), zone) : dayStart(day, zone);
}

function schemaOf(def: TrafficDefinition) {
  const metricNames = Object.keys(def.metrics) as [string, ...string[]];
  return z.strictObject({
    domain: z.string().min(1).describe('a domain of your organization, e.g. example.com'),
    metrics: z.array(z.enum(metricNames)).min(1),
    start_date: zInstantText(),
    end_date: zInstantText().optional().nullable().describe('exclusive; default now'),
    date_interval: z.enum(def.intervals).optional().nullable().describe('buckets of the date dimension; default day'),
    dimensions: z.array(z.enum(def.dimensions as [string, ...string[]])).optional().nullable(),
    filters: flatFiltersSchema().optional().nullable(),
    metric_filters: metricFiltersSchema().optional().nullable(),
    order_by: orderBySchema().optional().nullable(),
    pagination: paginationSchema().optional().nullable(),
    organization_id: zUuid().optional().nullable(),
    ...(def.timezone ? { timezone: timezoneSchema().optional().nullable() } : {}),
    ...(def.segments ? { view_id: zUuid().optional().nullable().describe('a saved segment of the domain: its host and path prefix') } : {}),
  });
}

type TrafficRequest = z.output<ReturnType<typeof schemaOf>> & { timezone?: string | null; view_id?: string | null };

function filterCatalog(def: TrafficDefinition): FlatCatalog {
  return Object.fromEntries(def.filters.map((f) => [f, plainField(sql`f.${ident(def.columnOf?.[f] ?? f)}`)]));
}

/** The instants a window's rows come from: the window itself, or for daily views its whole days. */
function rowsWindow(def: TrafficDefinition, startMs: number, endMs: number, zone: string): InstantWindow {
  return def.view === 'daily' ? { start: toIso(dayBoundary(startMs, zone)), end: toIso(dayBoundary(endMs, zone)) } : { start: toIso(startMs), end: toIso(endMs) };
}

function planOf(def: TrafficDefinition, catalog: FlatCatalog, req: TrafficRequest, ctx: { organizationId: string; now: Date }, mode: Mode): TrafficPlan {
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
  const interval: DateInterval = def.view === 'daily' && req.date_interval === 'hour' ? 'day' : (req.date_interval ?? 'day');
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

/** The domain and segment must be the caller's; a segment must belong to the domain. Nothing else is read first. */
async function authorizeTraffic(plan: TrafficPlan, ctx: CallContext): Promise<void> {
  const org = plan.requestedOrganization;
  if (org !== null && org !== ctx.organizationId) {
    if (ctx.core.catalog.hasOrganization(org)) throw new ForbiddenError(`this API key has no access to organization ${org}`);
    throw new NotFoundError(`organization ${org} not found`);
  }
  authorize(ctx, [{ kind: 'domain', id: plan.domain }, ...(plan.viewId ? [{ kind: 'view' as const, id: plan.viewId }] : [])]);
  if (plan.viewId) {
    const q = render(sql`SELECT d.name FROM domain_views v JOIN domains d ON d.id = v.domain_id WHERE v.id = ${plan.viewId}`);
    const rows = (await ctx.core.pool.use((conn) => conn.runAndReadAll(q.text, q.params as never))).getRowsJS();
    const domain = rows[0]?.[0];
    if (domain !== plan.domain) throw ValidationError.of(['body', 'view_id'], `view ${plan.viewId} is a segment of ${String(domain)}, not of ${plan.domain}`, plan.viewId);
  }
}

function dimensionOf(def: TrafficDefinition, bucket: BucketSpec, name: string): { key: Fragment } & TabularDimension {
  if (name === 'date') {
    const key = def.view === 'daily' ? bucketKey(bucket, sql`f.day`, sql`f.day`) : bucketKey(bucket, sql`f.ts`);
    return { key, label: (k) => bucketLabel(bucket, k), sortBy: 'key' };
  }
  if (name === 'hour') return { key: hourOfDay(bucket.zone, sql`f.ts`), label: (k) => sql`lpad(CAST(${k} AS VARCHAR), 2, '0')`, sortBy: 'key' };
  const column = def.columnOf?.[name] ?? name;
  if (column === 'ts') return { key: sql`f.ts`, label: (k) => instantText(k), sortBy: 'key' };
  return { key: sql`f.${ident(column)}`, label: (k) => k, sortBy: 'label' };
}

function compileTraffic(def: TrafficDefinition, catalog: FlatCatalog, plan: TrafficPlan, rollups: ReadonlySet<string>) {
  const fromRollup = rollups.has(trafficHourly.name) && servedByTrafficHourly(def, plan);
  const source = ident(fromRollup ? rollupTable(trafficHourly, def.table) : def.table);
  const counted = fromRollup ? sql`f.visits, f.last_at` : sql`1 AS visits, f.ts AS last_at`;
  const node = flatToNode(plan.filters);
  const filter = node ? compileFilter(node, catalog, { organizationId: plan.organizationId }) : sql`TRUE`;
  const segment = plan.viewId
    ? sql` AND EXISTS (SELECT 1 FROM domain_views v WHERE v.id = ${plan.viewId} AND (v.host IS NULL OR v.host = f.host) AND (v.path_prefix IS NULL OR ${startsWith(sql`f.path`, sql`v.path_prefix`)}))`
    : sql``;
  const where = sql`f.organization_id = ${plan.organizationId} AND f.domain = ${plan.domain} AND f.ts >= ${instant(sql`${plan.window.start}`)} AND f.ts < ${instant(sql`${plan.window.end}`)} AND ${filter}${segment}`;
  const columns = join(def.columns.map((c) => sql`f.${ident(c)}`), ', ');
  const view = rollups.has(trafficDaily.name) && servedByTrafficDaily(def)
    ? rolledDailyView(def.table, columns, plan.window, { organizationId: plan.organizationId, domain: plan.domain, filter, segment })
    : def.view === 'daily'
      ? // TRICKY: the day of a visit is its America/New_York calendar day, whatever the UTC date. The view
        // stays one row per visit: summing a day's rows first gives the same sums and maxima, and cost
        // a second aggregation over every (day, host, path, …) of the window.
        sql`SELECT ${zoneDay(sql`f.ts`, sql`${etZone}`)} AS day, ${columns}, ${counted}
  FROM ${source} f WHERE ${where}`
      : sql`SELECT f.ts, ${columns}, ${counted} FROM ${source} f WHERE ${where}`;
  const dims = plan.dimensions.map((d) => dimensionOf(def, plan.bucket, d));
  const select = [...dims.map((d, i) => sql`${d.key} AS ${keyColumn(i)}`), ...plan.metrics.map((m, j) => sql`${def.metrics[m]!} AS ${metricColumn(j)}`)];
  return {
    ctes: sql`traffic AS (
  ${view}
)`,
    grouped: sql`SELECT ${join(select, ', ')} FROM traffic f ${groupKeys(dims.length)}`,
    dimensions: dims,
  };
}

export function trafficReport(def: TrafficDefinition): TabularReport<TrafficRequest, TrafficPlan> {
  const catalog = filterCatalog(def);
  return {
    id: def.id,
    countMetrics: def.countMetrics,
    fills: def.dimensions.includes('date'),
    instantMetrics: ['last_visit'],
    // Raw logs group by the instant itself, which no other window shares: compare does not apply.
    ...(def.dimensions.includes('timestamp') ? {} : { within: (plan: TrafficPlan, w: MsWindow): TrafficPlan => ({ ...plan, window: rowsWindow(def, w.startMs, w.endMs, plan.bucket.zone), bucket: { ...plan.bucket, anchor: localDate(w.startMs, plan.bucket.zone), wholeHours: wholeHourOffsets(plan.bucket.zone, w.startMs, w.endMs) } }) }),
    path: def.path,
    streamPath: null,
    name: def.name,
    summary: def.summary,
    tags: def.sunset ? ['Raw logs (retired)'] : ['Traffic'],
    ...(def.deprecated ? { deprecated: true } : {}),
    ...(def.successor ? { successor: def.successor } : {}),
    ...(def.sunset ? { sunset: def.sunset } : {}),
    schema: schemaOf(def) as z.ZodType<TrafficRequest>,
    plan: (req, ctx, mode) => planOf(def, catalog, req, ctx, mode),
    authorize: authorizeTraffic,
    rollups: (plan) => [
      ...(servedByTrafficDaily(def) ? [{ def: trafficDaily, scopeId: plan.organizationId }] : []),
      ...(servedByTrafficHourly(def, plan) ? [{ def: trafficHourly, scopeId: plan.organizationId }] : []),
    ],
    compile: (plan, rollups) => compileTraffic(def, catalog, plan, rollups),
  };
}
