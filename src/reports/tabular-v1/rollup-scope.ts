import { compileFilter } from '../../query/filter-compiler.ts';
import { filtersAt, flatToNode, type FlatCatalog } from '../../query/flat-filters.ts';
import { dayStart, etZone, localDate } from '../../query/instants.ts';
import { sql, type Fragment } from '../../query/sql.ts';
import type { InsightsPlan } from './insights-common.ts';

const etDay = (iso: string) => localDate(Date.parse(iso), etZone);

/** The instant starts an America/New_York day. */
const onEtDay = (iso: string) => dayStart(etDay(iso), etZone) === Date.parse(iso);

/**
 * A daily rollup (by ET day, keys under the facts' names) answers a v1 request exactly when its window
 * is whole ET days, its date buckets are days or longer, and it groups and filters only by keys the
 * rollup keeps.
 */
export function servedByRollup(plan: InsightsPlan, dimensions: readonly string[], filters: readonly string[]): boolean {
  if (!onEtDay(plan.window.start) || !onEtDay(plan.window.end)) return false;
  if (plan.dimensions.includes('date') && plan.bucket.interval === 'hour') return false;
  return plan.dimensions.every((d) => dimensions.includes(d)) && plan.filters.every((f) => filters.includes(f.field));
}

/** `factsInScope` over a daily rollup (`from`, the rollup as `f`, joined to what its filters read): the window's ET days and the scope filters. */
export function rolledInScope(plan: InsightsPlan, catalog: FlatCatalog, from: Fragment): Fragment {
  const node = flatToNode(filtersAt(plan.filters, catalog, 'scope'));
  const filter = node
    ? compileFilter(node, catalog, { organizationId: plan.organizationId, categoryId: plan.categoryId })
    : sql`TRUE`;
  return sql`FROM ${from}
  WHERE f.category_id = ${plan.categoryId} AND f.day >= CAST(${etDay(plan.window.start)} AS DATE) AND f.day < CAST(${etDay(plan.window.end)} AS DATE) AND ${filter}`;
}
