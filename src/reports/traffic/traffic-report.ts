import type { z } from 'zod';
import { declaredInstant } from '../../query/measure-sql.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.ts';
import { compileFilter } from '../../query/filter-compiler.ts';
import { flatToNode, type FlatCatalog } from '../../query/flat-filters.ts';
import {
  bucketKey,
  bucketLabel,
  bucketType,
  etZone,
  hourOfDay,
  localDate,
  wholeHourOffsets,
  type BucketSpec,
} from '../../query/instants.ts';
import type { MsWindow } from '../extensions/compare-window.ts';
import { epochSeconds, formatInstant as instantText, instant, startsWith, zoneDay } from '../../query/dialect.ts';
import { ident, join, render, sql, type Fragment } from '../../query/sql.ts';
import { rollupTable } from '../../engine/rollups.ts';
import { servedByTrafficHourly, trafficHourly } from './traffic-rollup.ts';
import { rolledDailyView, servedByTrafficDaily, trafficDaily } from './traffic-daily.ts';
import type { CallContext } from '../endpoint.ts';
import { authorize } from '../core/authorize.ts';
import {
  groupKeys,
  keyColumn,
  metricColumn,
  tabularReport,
  type Extended,
  type TabularDimension,
} from '../tabular/tabular-report.ts';
import type { Report } from '../core/report.ts';
import {
  filterCatalog,
  planOf,
  rowsWindow,
  schemaOf,
  type TrafficBody,
  type TrafficDefinition,
  type TrafficPlan,
  type TrafficRequest,
} from './traffic-plan.ts';

export type { TrafficDefinition, TrafficPlan } from './traffic-plan.ts';

/**
 * Traffic reports (bots, referrals) as data: each declares its table, view, metrics, dimensions and
 * filters; this module turns a declaration into a tabular report. A traffic query names a domain of
 * the caller's organization.
 */

/** The latest visit, as Unix seconds: the metrics array holds numbers only. */
export const lastVisitSql = epochSeconds(declaredInstant('last_visit', 'last_visit').sql({ ts: sql`last_at` }));

/** Visits, or the visits of the view's rows that satisfy a predicate. */
export const visitsSql = (predicate?: Fragment): Fragment =>
  predicate
    ? sql`CAST(coalesce(sum(visits) FILTER (WHERE ${predicate}), 0) AS BIGINT)`
    : sql`CAST(sum(visits) AS BIGINT)`;

/** The domain and segment must be the caller's; a segment must belong to the domain. Nothing else is read first. */
async function authorizeTraffic(plan: TrafficPlan, ctx: CallContext): Promise<void> {
  const org = plan.requestedOrganization;
  if (org !== null && org !== ctx.organizationId) {
    if (ctx.core.catalog.hasOrganization(org))
      throw new ForbiddenError(`this API key has no access to organization ${org}`);
    throw new NotFoundError(`organization ${org} not found`);
  }
  authorize(ctx, [
    { kind: 'domain', id: plan.domain },
    ...(plan.viewId ? [{ kind: 'view' as const, id: plan.viewId }] : []),
  ]);
  if (plan.viewId) {
    const q = render(
      sql`SELECT d.name FROM domain_views v JOIN domains d ON d.id = v.domain_id WHERE v.id = ${plan.viewId}`,
    );
    const rows = (await ctx.core.pool.use((conn) => conn.runAndReadAll(q.text, q.params as never))).getRowsJS();
    const domain = rows[0]?.[0];
    if (domain !== plan.domain)
      throw ValidationError.of(
        ['body', 'view_id'],
        `view ${plan.viewId} is a segment of ${String(domain)}, not of ${plan.domain}`,
        plan.viewId,
      );
  }
}

function dimensionOf(def: TrafficDefinition, bucket: BucketSpec, name: string): { key: Fragment } & TabularDimension {
  if (name === 'date') {
    const key = def.view === 'daily' ? bucketKey(bucket, sql`f.day`, sql`f.day`) : bucketKey(bucket, sql`f.ts`);
    return { key, label: (k) => bucketLabel(bucket, k), sortBy: 'key', type: bucketType(bucket) };
  }
  if (name === 'hour')
    return {
      key: hourOfDay(bucket.zone, sql`f.ts`),
      label: (k) => sql`lpad(CAST(${k} AS VARCHAR), 2, '0')`,
      sortBy: 'key',
    };
  const column = def.columnOf?.[name] ?? name;
  if (column === 'ts') return { key: sql`f.ts`, label: (k) => instantText(k), sortBy: 'key', type: 'instant' };
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
  const columns = join(
    def.columns.map((c) => sql`f.${ident(c)}`),
    ', ',
  );
  const view =
    rollups.has(trafficDaily.name) && servedByTrafficDaily(def)
      ? rolledDailyView(def.table, columns, plan.window, {
          organizationId: plan.organizationId,
          domain: plan.domain,
          filter,
          segment,
        })
      : def.view === 'daily'
        ? // TRICKY: the day of a visit is its America/New_York calendar day, whatever the UTC date. The view
          // stays one row per visit: summing a day's rows first gives the same sums and maxima, and cost
          // a second aggregation over every (day, host, path, …) of the window.
          sql`SELECT ${zoneDay(sql`f.ts`, sql`${etZone}`)} AS day, ${columns}, ${counted}
  FROM ${source} f WHERE ${where}`
        : sql`SELECT f.ts, ${columns}, ${counted} FROM ${source} f WHERE ${where}`;
  const dims = plan.dimensions.map((d) => dimensionOf(def, plan.bucket, d));
  const hour = plan.dimensions.indexOf('hour');
  const select = [
    ...dims.map((d, i) => sql`${d.key} AS ${keyColumn(i)}`),
    ...plan.metrics.map((m, j) => sql`${def.metrics[m]!} AS ${metricColumn(j)}`),
  ];
  return {
    ctes: sql`traffic AS (
  ${view}
)`,
    grouped: sql`SELECT ${join(select, ', ')} FROM traffic f ${groupKeys(dims.length)}`,
    dimensions: dims,
    ...(hour >= 0 && plan.bucket.interval === 'hour'
      ? { ofBucket: { [hour]: (k: Fragment) => hourOfDay(plan.bucket.zone, k) } }
      : {}),
  };
}

export function trafficReport<const D extends TrafficDefinition>(
  def: D,
): Report<TrafficRequest, Extended<TrafficPlan>, TrafficBody<D>> {
  const catalog = filterCatalog(def);
  return tabularReport<TrafficRequest, TrafficPlan, TrafficBody<D>>({
    id: def.id,
    countMetrics: def.countMetrics,
    fills: def.dimensions.includes('date'),
    instantMetrics: ['last_visit'],
    // Raw logs group by the instant itself, which no other window shares: compare does not apply.
    ...(def.dimensions.includes('timestamp')
      ? {}
      : {
          within: (plan: TrafficPlan, w: MsWindow): TrafficPlan => ({
            ...plan,
            window: rowsWindow(def, w.startMs, w.endMs, plan.bucket.zone),
            bucket: {
              ...plan.bucket,
              anchor: localDate(w.startMs, plan.bucket.zone),
              wholeHours: wholeHourOffsets(plan.bucket.zone, w.startMs, w.endMs),
            },
          }),
        }),
    path: def.path,
    streamPath: null,
    name: def.name,
    summary: def.summary,
    tags: def.sunset ? ['Raw logs (retired)'] : ['Traffic'],
    ...(def.deprecated ? { deprecated: true } : {}),
    ...(def.successor ? { successor: def.successor } : {}),
    ...(def.sunset ? { sunset: def.sunset } : {}),
    schema: schemaOf(def) as unknown as z.ZodType<TrafficRequest, TrafficBody<D>>,
    read: (req, ctx, mode) => planOf(def, catalog, req, ctx, mode),
    authorize: authorizeTraffic,
    rollups: (plan) => [
      ...(servedByTrafficDaily(def) ? [{ def: trafficDaily, scopeId: plan.organizationId }] : []),
      ...(servedByTrafficHourly(def, plan) ? [{ def: trafficHourly, scopeId: plan.organizationId }] : []),
    ],
    compile: (plan, rollups) => compileTraffic(def, catalog, plan, rollups),
  });
}
