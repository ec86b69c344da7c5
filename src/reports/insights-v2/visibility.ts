import { z } from 'zod';
import { rollupTable } from '../../engine/rollups.ts';
import { valueError, type ValidationIssue } from '../../errors.ts';
import type { FilterNode } from '../../query/filter-node.ts';
import { and, ident, join, key, list, sql, type Fragment } from '../../query/sql.ts';
import type { CalendarInterval } from '../../query/time.ts';
import type { PagedReport } from '../paged-report.ts';
import { categoryOwned, checkUnique, checkWindow, cursorPaging, echoFilter, filterPredicate, insightsFields, maxResults, pageLimit, planFilter, readFilter } from './common.ts';
import { dimensionJoins, dimensionOrder, groupKey, keyColumn, keysEqual, promptFilterFields, dimensionStructFields, type GroupDimension } from './dimensions.ts';
import { servedByVisibilityDaily, visibilityDaily } from './visibility-rollup.ts';

const metricNames = ['visibility_score', 'share_of_voice', 'average_position'] as const;
type Metric = (typeof metricNames)[number];

/** Best first: higher visibility and share are better, a lower average position is better. */
const bestFirst: Record<Metric, 'asc' | 'desc'> = { visibility_score: 'desc', share_of_voice: 'desc', average_position: 'asc' };

const groupDims = ['date', 'model', 'topic', 'region', 'prompt', 'persona'] as const;

interface AssetSelector {
  readonly op: 'is' | 'in' | 'not_in';
  readonly value: string | string[];
}

const assetsSchema = z.unknown().meta({
  description: 'A brand name (is), a list of names (in), or {op, value} with op is, in or not_in. Names or ids.',
});

const schema = z.strictObject({
  ...insightsFields,
  group_by: z.array(z.enum(groupDims)).optional().nullable(),
  metrics: z.array(z.enum(metricNames)).min(1).optional().nullable(),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  scope: z.enum(['owned', 'all']).optional().nullable(),
  assets: assetsSchema.optional().nullable(),
  sort: z.strictObject({ field: z.string(), dir: z.enum(['asc', 'desc']).optional().nullable() }).optional().nullable(),
  limit: pageLimit(50, 10),
  max_results: maxResults(),
});

export type VisibilityRequest = z.output<typeof schema>;

export interface VisibilityPlan {
  readonly organizationId: string;
  readonly categoryId: string;
  readonly startDate: string;
  readonly endDate: string;
  readonly groupBy: readonly GroupDimension[];
  readonly interval: CalendarInterval;
  readonly metrics: readonly Metric[];
  readonly scope: 'owned' | 'all';
  readonly assets: AssetSelector | null;
  readonly sort: { readonly field: Metric; readonly dir: 'asc' | 'desc' };
  readonly filter: FilterNode | null;
}

function readAssets(input: unknown): { selector: AssetSelector | null; issues: ValidationIssue[] } {
  const loc = ['body', 'assets'];
  if (input === undefined || input === null) return { selector: null, issues: [] };
  const nonEmptyStrings = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' && x.length > 0);
  if (typeof input === 'string') {
    return input.length > 0 ? { selector: { op: 'is', value: input }, issues: [] } : { selector: null, issues: [valueError(loc, 'assets must name at least one brand', input)] };
  }
  if (Array.isArray(input)) {
    return nonEmptyStrings(input) ? { selector: { op: 'in', value: input }, issues: [] } : { selector: null, issues: [valueError(loc, 'assets as a list must hold at least one non-empty brand name', input)] };
  }
  if (typeof input === 'object') {
    const o = input as Record<string, unknown>;
    const extra = Object.keys(o).filter((k) => k !== 'op' && k !== 'value');
    if (extra.length > 0) return { selector: null, issues: extra.map((k) => ({ type: 'extra_forbidden', loc: [...loc, k], msg: 'Extra inputs are not permitted', input: o[k] })) };
    if (o.op === 'is' && typeof o.value === 'string' && o.value.length > 0) return { selector: { op: 'is', value: o.value }, issues: [] };
    if ((o.op === 'in' || o.op === 'not_in') && nonEmptyStrings(o.value)) return { selector: { op: o.op, value: o.value }, issues: [] };
    if (o.op !== 'is' && o.op !== 'in' && o.op !== 'not_in') {
      return { selector: null, issues: [{ type: 'literal_error', loc: [...loc, 'op'], msg: "Input should be 'is', 'in' or 'not_in'", input: o.op, ctx: { expected: "'is', 'in' or 'not_in'" } }] };
    }
    const msg = o.op === 'is' ? "op 'is' takes one brand name as value" : `op '${String(o.op)}' takes a non-empty list of brand names as value`;
    return { selector: null, issues: [valueError([...loc, 'value'], msg, o.value)] };
  }
  return { selector: null, issues: [valueError(loc, 'assets must be a brand name, a list of names, or {op, value}', input)] };
}

function metricsOf(req: VisibilityRequest): Metric[] {
  return req.metrics ? [...new Set(req.metrics)] : [...metricNames];
}

function sortOf(req: VisibilityRequest): { field: Metric; dir: 'asc' | 'desc' } {
  const metrics = metricsOf(req);
  const field = (req.sort?.field ?? (metrics.includes('visibility_score') ? 'visibility_score' : metrics[0]!)) as Metric;
  return { field, dir: req.sort?.dir ?? bestFirst[field] };
}

const metricSql: Record<Metric, Fragment> = {
  visibility_score: sql`mentions / executions`,
  share_of_voice: sql`CASE WHEN total_mentions = 0 THEN 0.0 ELSE mentions / total_mentions END`,
  average_position: sql`position_sum / NULLIF(mentions, 0)`,
};

/**
 * Visibility: for each group (or the whole window), every brand of the category ranked by the sort
 * metric. Executions and mentions are filtered by the same predicate over their own context columns,
 * so no join between the two fact tables is needed. When the daily rollup is current and keeps every
 * key and filter field of the request, both are read from it instead of the facts.
 */
function compile(plan: VisibilityPlan, rollups: ReadonlySet<string>) {
  const fromRollup = rollups.has(visibilityDaily.name) && servedByVisibilityDaily(plan);
  const scope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const filter = filterPredicate(plan.filter, promptFilterFields, scope);
  const dims = plan.groupBy;
  const keys = dims.map((d) => groupKey(d, plan.interval));
  const keyList = dims.map((d) => keyColumn(d));
  const keysSelect = keys.length > 0 ? sql`${join(keys, ', ')}, ` : sql``;
  const gKeys = dims.map((d) => keyColumn(d, 'g'));
  const partition = keyList.length > 0 ? sql`PARTITION BY ${join(keyList, ', ')}` : sql``;
  const best = bestFirst[plan.sort.field];
  const rankOrder = sql`${ident(plan.sort.field)} ${best === 'desc' ? sql`DESC` : sql`ASC`} NULLS LAST, name, asset_id`;
  const window = sql`f.category_id = ${plan.categoryId} AND f.day BETWEEN CAST(${plan.startDate} AS DATE) AND CAST(${plan.endDate} AS DATE) AND ${filter}`;
  const selection: Fragment[] = [];
  if (plan.scope === 'owned') selection.push(sql`r.is_owned`);
  if (plan.assets) {
    const values = Array.isArray(plan.assets.value) ? plan.assets.value : [plan.assets.value];
    const hit = sql`(r.name IN (${list(values)}) OR r.asset_id IN (${list(values)}))`;
    selection.push(plan.assets.op === 'not_in' ? sql`NOT ${hit}` : hit);
  }
  const fields = [
    ...dimensionStructFields(dims, 'r'),
    sql`'asset': {'name': r.name, 'owned': r.is_owned}`,
    sql`'rank': r.rank`,
    ...plan.metrics.map((m) => sql`${key(m)}: r.${ident(m)}`),
  ];
  const reversed = plan.sort.dir !== best;
  const place =
    selection.length === 0
      ? reversed
        ? sql`w.k + 1 - r.rank`
        : sql`r.rank`
      : sql`row_number() OVER (${partition} ORDER BY r.rank${reversed ? sql` DESC` : sql``})`;

  const sources = fromRollup
    ? sql`e AS (
  SELECT ${keysSelect}f.model_id, f.executions AS n
  FROM ${ident(rollupTable(visibilityDaily, 'executions'))} f
  WHERE ${window}
),
m AS (
  SELECT ${keysSelect}f.asset_id, sum(f.mentions) AS mentions, sum(f.position_sum) AS position_sum
  FROM ${ident(rollupTable(visibilityDaily, 'mentions'))} f
  WHERE ${window}
  GROUP BY ALL
)`
    : sql`p AS (
  SELECT id, topic_id, tag_ids FROM prompts
  WHERE category_id = ${plan.categoryId} AND list_contains(analysis_types, 'visibility')
),
e AS (
  SELECT ${keysSelect}f.model_id, count(*) AS n
  FROM executions f JOIN p ON p.id = f.prompt_id
  WHERE ${window}
  GROUP BY ALL
),
m AS (
  SELECT ${keysSelect}f.asset_id, count(*) AS mentions, sum(f.position) AS position_sum
  FROM mentions f JOIN p ON p.id = f.prompt_id
  WHERE ${window}
  GROUP BY ALL
)`;

  const ctes = sql`${sources},
g AS (
  SELECT ${keyList.length > 0 ? sql`${join(keyList, ', ')}, ` : sql``}sum(n) AS executions FROM e
  ${keyList.length > 0 ? sql`GROUP BY ${join(keyList, ', ')}` : sql`HAVING sum(n) > 0`}
),
t AS (
  SELECT ${keyList.length > 0 ? sql`${join(keyList, ', ')}, ` : sql``}sum(mentions) AS total_mentions FROM m
  ${keyList.length > 0 ? sql`GROUP BY ${join(keyList, ', ')}` : sql``}
),
scored AS (
  SELECT ${gKeys.length > 0 ? sql`${join(gKeys, ', ')}, ` : sql``}a.id AS asset_id, a.name, a.is_owned, g.executions,
         coalesce(m.mentions, 0) AS mentions, m.position_sum, coalesce(t.total_mentions, 0) AS total_mentions
  FROM g
  CROSS JOIN (SELECT id, name, is_owned FROM assets WHERE category_id = ${plan.categoryId}) a
  LEFT JOIN m ON m.asset_id = a.id AND ${keysEqual(dims, 'm', 'g')}
  LEFT JOIN t ON ${keysEqual(dims, 't', 'g')}
),
metrics AS (
  SELECT *, ${join(metricNames.map((m) => sql`${metricSql[m]} AS ${ident(m)}`), ', ')} FROM scored
),
ranked AS (
  SELECT *, row_number() OVER (${partition} ORDER BY ${rankOrder}) AS rank FROM metrics
),
width AS (
  SELECT count(*) AS k FROM (SELECT id AS asset_id, name, is_owned FROM assets WHERE category_id = ${plan.categoryId}) r WHERE ${and(selection)}
),
kept AS (
  SELECT r.*, ${place} AS place FROM ranked r CROSS JOIN width w WHERE ${and(selection)}
),
ordinals AS (
  SELECT ${gKeys.length > 0 ? sql`${join(gKeys, ', ')}, ` : sql``}row_number() OVER (${dims.length > 0 ? sql`ORDER BY ${join(dimensionOrder(dims, 'g'), ', ')}` : sql``}) AS ordinal
  FROM g
  ${dimensionJoins(dims, 'g')}
)`;

  // TRICKY: every group holds every brand of the category and the selection keeps the same k brands in each,
  // so a row's unit is arithmetic: (the group's ordinal - 1) × k + its place in the group. Only the groups
  // are sorted, never all the rows.
  const rows = sql`SELECT (o.ordinal - 1) * w.k + r.place AS unit,
       0 AS seq,
       to_json({${join(fields, ', ')}})::VARCHAR AS row
FROM kept r
JOIN ordinals o ON ${keysEqual(dims, 'o', 'r')}
CROSS JOIN width w
${dimensionJoins(dims, 'r')}`;

  const info = sql`SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM e JOIN models mo ON mo.id = e.model_id), []))`;
  const total = sql`SELECT count(*) * (SELECT k FROM width) FROM g`;
  return { ctes, rows, info, total };
}

export const visibilityReport: PagedReport<VisibilityRequest, VisibilityPlan> = {
  id: 'visibility.v2',
  path: '/v2/reports/visibility',
  streamPath: '/v2/reports/visibility/stream',
  name: 'visibility',
  summary: 'Brand visibility: visibility score, share of voice and average position, ranked',
  tags: ['Reports v2'],
  schema,
  check(req) {
    const issues = [...checkWindow(req), ...checkUnique(req.group_by, 'group_by'), ...checkUnique(req.metrics, 'metrics')];
    issues.push(...readAssets(req.assets).issues);
    if (req.sort && !metricsOf(req).includes(req.sort.field as Metric)) {
      issues.push(valueError(['body', 'sort', 'field'], `sort.field must name a requested metric: ${metricsOf(req).join(', ')}`, req.sort.field));
    }
    issues.push(...readFilter(req.filter, promptFilterFields).issues);
    return issues;
  },
  owned: categoryOwned,
  rollup: (plan) => (servedByVisibilityDaily(plan) ? { def: visibilityDaily, categoryId: plan.categoryId } : null),
  paging: cursorPaging(10),
  plan(req, ctx) {
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      groupBy: req.group_by ?? [],
      interval: req.interval ?? 'day',
      metrics: metricsOf(req),
      scope: req.scope ?? 'owned',
      assets: readAssets(req.assets).selector,
      sort: sortOf(req),
      filter: planFilter(req.filter, promptFilterFields),
    };
  },
  compile,
  info(plan, page) {
    return {
      total_results: page.total,
      count: page.count,
      next_cursor: page.nextCursor,
      scope: plan.scope,
      models: page.sqlInfo.models ?? [],
      start_date: plan.startDate,
      end_date: plan.endDate,
      asset_filter: plan.assets,
      filter: echoFilter(plan.filter),
    };
  },
};
