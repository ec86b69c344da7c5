import { z } from 'zod';
import { compileFilter } from '../../query/filter-compiler.ts';
import {
  filtersAt,
  flatFiltersSchema,
  flatToNode,
  idField,
  idSetField,
  nameField,
  nameSetField,
  plainField,
  readFlatFilters,
  textSetField,
  type FlatCatalog,
  type FlatFilter,
} from '../../query/flat-filters.ts';
import {
  dateIntervals,
  etZone,
  formatInstant,
  localDate,
  toIso,
  wholeHourOffsets,
  type BucketSpec,
  type DateInterval,
  type InstantWindow,
} from '../../query/instants.ts';
import type { MsWindow } from '../extensions/compare-window.ts';
import { zUuid } from '../../query/schema-types.ts';
import { instant, listHas } from '../../query/dialect.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';

import { promptDimensions, tagTable } from '../insights/dimensions.ts';

import { throwIfAny, type Mode, type TabularShape } from '../tabular/tabular-report.ts';
import {
  Issues,
  orderBySchema,
  paginationSchema,
  readOrderBy,
  readPagination,
  readUnique,
  readWindow,
  zInstantText,
} from '../tabular/tabular-request.ts';
import { dimKey, groupByKeys, keyList } from './insights-dimensions.ts';

export {
  answerDimensions,
  dimKey,
  groupByKeys,
  keyList,
  keySelect,
  keysMatch,
  namedDimension,
  plainDimension,
  type KeyedDimension,
} from './insights-dimensions.ts';

/**
 * What the v1 Answer Engine Insights reports (citations, visibility, sentiment, query fan-outs) share:
 * the request, the ET window `[start_date, end_date)`, prompt-level filters and dimensions. A fact
 * table is aliased `f` (it repeats its execution's context) and the current prompt row `p`.
 */

export const v1Tags = ['Reports v1 (deprecated)'];

export const insightsTabularFields = {
  category_id: zUuid(),
  start_date: zInstantText(),
  end_date: zInstantText().describe('exclusive; a date alone is the start of that day in America/New_York'),
  date_interval: z
    .enum(dateIntervals)
    .optional()
    .nullable()
    .describe('buckets of the date dimension, in America/New_York; default day'),
  filters: flatFiltersSchema().optional().nullable(),
  order_by: orderBySchema().optional().nullable(),
  pagination: paginationSchema().optional().nullable(),
};

export interface InsightsRequest {
  readonly category_id: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly metrics: readonly string[];
  readonly dimensions?: readonly string[] | null;
  readonly date_interval?: DateInterval | null;
  readonly filters?:
    | readonly { field: string; operator?: FlatFilter['operator'] | undefined; value?: unknown }[]
    | null;
  readonly order_by?: Record<string, 'asc' | 'desc'> | null;
  readonly pagination?: { limit?: number | null; offset?: number | null } | null;
}

export interface InsightsPlan extends TabularShape {
  readonly organizationId: string;
  readonly categoryId: string;
  readonly window: InstantWindow;
  readonly bucket: BucketSpec;
  readonly filters: readonly FlatFilter[];
}

/** Reads the shared request into the shared plan; `orderDimensions` narrows which dimensions may sort. */
export function readInsights(
  req: InsightsRequest,
  ctx: { organizationId: string; now: Date },
  mode: Mode,
  catalog: FlatCatalog,
  orderDimensions?: readonly string[],
): InsightsPlan {
  const issues = new Issues();
  const metrics = readUnique(req.metrics, 'metrics', issues);
  const dimensions = readUnique(req.dimensions ?? [], 'dimensions', issues);
  const { filters, issues: filterIssues } = readFlatFilters(req.filters, catalog, dimensions);
  issues.add(...filterIssues);
  const orderBy = readOrderBy(req.order_by, metrics, dimensions, issues, orderDimensions);
  const { window, startMs, endMs } = readWindow(req.start_date, req.end_date, etZone, ctx.now, issues);
  throwIfAny(issues);
  const interval = req.date_interval ?? 'day';
  const pagination = readPagination(req.pagination, mode);
  return {
    organizationId: ctx.organizationId,
    categoryId: req.category_id,
    window,
    bucket: {
      interval,
      zone: etZone,
      anchor: localDate(startMs, etZone),
      wholeHours: wholeHourOffsets(etZone, startMs, endMs),
    },
    filters,
    metrics,
    dimensions,
    orderBy,
    metricFilters: [],
    pagination,
    query: {
      category_id: req.category_id,
      start_date: formatInstant(startMs, etZone),
      end_date: formatInstant(endMs, etZone),
      metrics,
      dimensions,
      date_interval: interval,
      filters: filters.map((f) => ({ field: f.field, operator: f.operator, value: f.value })),
      order_by: Object.fromEntries(orderBy.map((o) => [o.key, o.dir])),
      pagination,
    },
  };
}

/** The same plan over another window (compare): its buckets anchored there. */
export function insightsWithin(plan: InsightsPlan, w: MsWindow): InsightsPlan {
  return {
    ...plan,
    window: { start: toIso(w.startMs), end: toIso(w.endMs) },
    bucket: {
      ...plan.bucket,
      anchor: localDate(w.startMs, plan.bucket.zone),
      wholeHours: wholeHourOffsets(plan.bucket.zone, w.startMs, w.endMs),
    },
  };
}

/** Prompt-level filter fields of the v1 reports: `_id` fields take UUIDs, `_name` fields match names. */
export const answerFilterFields: FlatCatalog = {
  region_id: idField(sql`f.region_id`),
  region_name: nameField(sql`f.region_id`, promptDimensions.region.table),
  model_id: idField(sql`f.model_id`),
  topic_id: idField(sql`p.topic_id`),
  topic_name: nameField(sql`p.topic_id`, promptDimensions.topic.table),
  tag_id: idSetField(sql`p.tag_ids`),
  tag_name: nameSetField(sql`p.tag_ids`, tagTable),
  persona_id: idField(sql`f.persona_id`),
  prompt_id: idField(sql`f.prompt_id`),
  prompt: plainField(sql`p.prompt`),
  analysis_type: textSetField(sql`p.analysis_types`),
};

export function pick(catalog: FlatCatalog, names: readonly string[]): FlatCatalog {
  return Object.fromEntries(names.map((n) => [n, catalog[n]!]));
}

/** The current prompts of the category, optionally those with one analysis type. */
export function promptsCte(plan: InsightsPlan, analysisType?: string): Fragment {
  const type = analysisType ? sql` AND ${listHas(sql`analysis_types`, sql`${analysisType}`)}` : sql``;
  return sql`scope_prompts AS (
  SELECT id, prompt, topic_id, tag_ids, analysis_types FROM prompts WHERE category_id = ${plan.categoryId}${type}
)`;
}

/** The facts of the category in the window `[start, end)` with the scope filters applied. */
export function factsInScope(table: string, plan: InsightsPlan, catalog: FlatCatalog): Fragment {
  const node = flatToNode(filtersAt(plan.filters, catalog, 'scope'));
  const filter = node
    ? compileFilter(node, catalog, { organizationId: plan.organizationId, categoryId: plan.categoryId })
    : sql`TRUE`;
  return sql`FROM ${ident(table)} f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE f.category_id = ${plan.categoryId} AND f.executed_at >= ${instant(sql`${plan.window.start}`)} AND f.executed_at < ${instant(sql`${plan.window.end}`)} AND ${filter}`;
}

/** The row-stage filters (they select inside the scope) as a predicate, TRUE when none. */
export function rowPredicate(plan: InsightsPlan, catalog: FlatCatalog): Fragment {
  const node = flatToNode(filtersAt(plan.filters, catalog, 'row'));
  return node
    ? compileFilter(node, catalog, { organizationId: plan.organizationId, categoryId: plan.categoryId })
    : sql`TRUE`;
}

/** The positional `k<i>` columns of `grouped` from internal key columns of `alias`. */
export const positionalKeys = (dims: readonly string[], alias: string): Fragment[] =>
  dims.map((d, i) => sql`${dimKey(d, alias)} AS ${ident(`k${i}`)}`);

/** `k_a, k_b, ` (with a trailing comma), or nothing. */
export const keysThen = (dims: readonly string[], alias?: string): Fragment =>
  dims.length === 0 ? sql`` : sql`${keyList(dims, alias)}, `;

/** `grouped` of a report whose metrics are plain aggregates over one fact CTE. */
export function groupedOver(from: string, dims: readonly string[], metrics: readonly Fragment[]): Fragment {
  const columns = [...positionalKeys(dims, from), ...metrics.map((m, j) => sql`${m} AS ${ident(`m${j}`)}`)];
  return sql`SELECT ${join(columns, ', ')} FROM ${ident(from)} ${groupByKeys(dims)}`;
}
