import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../errors.ts';
import type { FilterCatalog } from '../../query/filter-compiler.ts';
import { join, key, sql, type Fragment } from '../../query/sql.ts';
import type { CalendarInterval } from '../../query/time.ts';
import type { PagedReport } from '../paged-report.ts';
import { analysisTypeField, typesOf, typesScope, type AnalysisType } from './analysis-types.ts';
import { categoryOwned, checkUnique, checkWindow, cursorPaging, echoFilter, filterPredicate, insightsFields, maxResults, pageLimit } from './common.ts';
import { promptDimensions, promptFilterFields } from './dimensions.ts';
import { dateKey, Grouping, promptKeys, textKey, type GroupKey } from './group-keys.ts';
import { readLayeredFilter, type FilterRules, type LayeredFilter } from './layered-filter.ts';
import { inWindow, modelNames, promptsCte, type WindowScope } from './scope.ts';

const metricNames = ['total_fanouts', 'fanouts_per_execution', 'query_variations', 'share'] as const;
type Metric = (typeof metricNames)[number];
const groupDims = ['prompt', 'query', 'model', 'region', 'date'] as const;
type FanoutDimension = (typeof groupDims)[number];

const schema = z.strictObject({
  ...insightsFields,
  group_by: z.array(z.enum(groupDims)).optional().nullable().describe('default [prompt]; query needs prompt'),
  metrics: z
    .array(z.enum(metricNames))
    .min(1)
    .optional()
    .nullable()
    .describe('default total_fanouts, fanouts_per_execution, query_variations (without query_variations when grouped by query); share needs query in group_by'),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  limit: pageLimit(50, 10),
  max_results: maxResults(),
});

export type FanoutsRequest = z.output<typeof schema>;

export interface FanoutsPlan extends WindowScope {
  readonly groupBy: readonly FanoutDimension[];
  readonly interval: CalendarInterval;
  readonly metrics: readonly Metric[];
  readonly analysisTypes: readonly AnalysisType[];
  readonly defaultTypes: boolean;
  readonly filter: LayeredFilter;
}

export const fanoutsCatalog: FilterCatalog = { ...promptFilterFields, analysis_type: analysisTypeField };
export const fanoutsRules: FilterRules = { catalog: fanoutsCatalog, topLevel: ['analysis_type'] };

/** The docs: the analysis_type filter defaults to visibility. */
const defaultTypes: readonly AnalysisType[] = ['visibility'];

/** The docs show a fan-out row's prompt as its text; its id follows as prompt_id. */
const promptKey: GroupKey = {
  expr: promptDimensions.prompt.column,
  lookup: (k, d) => sql`LEFT JOIN prompts AS ${d} ON ${d}.id = ${k}`,
  fields: (k, d) => sql`'prompt', ${d}.prompt, 'prompt_id', ${k}`,
  order: (k, d) => [sql`${d}.prompt NULLS LAST`, sql`${k} NULLS LAST`],
};

function groupByOf(req: FanoutsRequest): FanoutDimension[] {
  return req.group_by ?? ['prompt'];
}

function metricsOf(req: FanoutsRequest): Metric[] {
  if (req.metrics) return [...new Set(req.metrics)];
  return groupByOf(req).includes('query') ? ['total_fanouts', 'fanouts_per_execution'] : ['total_fanouts', 'fanouts_per_execution', 'query_variations'];
}

const rowValue: Record<Metric, Fragment> = {
  total_fanouts: sql`r.fanouts`,
  fanouts_per_execution: sql`r.fanouts_per_execution`,
  query_variations: sql`r.variations`,
  share: sql`r.share`,
};

/**
 * Query fan-outs: the search queries engines ran behind answers, per group. fanouts_per_execution
 * divides by the runs that searched (search_triggered) in the row's group without the query
 * dimension, and share by that group's fan-outs: runs without a search produce no fan-out data.
 */
function compile(plan: FanoutsPlan) {
  const filterScope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const g = new Grouping({ ...promptKeys, prompt: promptKey, query: textKey('query', sql`f.query`), date: dateKey(plan.interval) }, plan.groupBy);
  const runs = g.without('query');
  const scope = sql`${inWindow(plan)} AND ${typesScope(plan)} AND ${filterPredicate(plan.filter.node, fanoutsCatalog, filterScope)}`;
  const rankPartition = g.has('date') ? sql`PARTITION BY ${g.col('date', 'x')} ` : sql``;

  const ctes = sql`${promptsCte(plan.categoryId)},
fo AS (
  SELECT ${g.select()}f.query AS q FROM fanouts f JOIN p ON p.id = f.prompt_id WHERE ${scope}
),
runs AS (
  SELECT ${runs.select()}f.model_id, f.search_triggered FROM executions f JOIN p ON p.id = f.prompt_id WHERE ${scope}
),
n AS (SELECT ${g.cols()}count(*) AS fanouts, count(DISTINCT q) AS variations FROM fo ${g.groupBy()}),
pg AS (SELECT ${runs.cols()}count(*) AS group_fanouts FROM fo ${runs.groupBy()}),
xe AS (SELECT ${runs.cols()}count(*) AS executions FROM runs WHERE search_triggered ${runs.groupBy()}),
scored AS (
  SELECT n.*, n.fanouts / NULLIF(xe.executions, 0) AS fanouts_per_execution, n.fanouts / pg.group_fanouts AS share
  FROM n LEFT JOIN pg ON ${runs.equal('n', 'pg')} LEFT JOIN xe ON ${runs.equal('n', 'xe')}
),
ranked AS (
  SELECT x.*, row_number() OVER (${rankPartition}ORDER BY ${join([sql`x.fanouts DESC`, ...g.order('x')], ', ')}) AS rank
  FROM scored x
  ${g.lookups('x')}
)`;

  const fields = [...g.fields('r'), sql`'rank', r.rank`, ...metricNames.filter((m) => plan.metrics.includes(m)).map((m) => sql`${key(m)}, ${rowValue[m]}`)];
  const rows = sql`SELECT row_number() OVER (ORDER BY ${g.has('date') ? sql`${g.col('date', 'r')}, ` : sql``}r.rank) AS unit, 0 AS seq,
       json_object(${join(fields, ', ')})::VARCHAR AS row
FROM ranked r
${g.lookups('r')}`;

  const info = sql`SELECT json_object('models', ${modelNames('runs')}, 'runs', (SELECT count(*) FROM runs), 'searched', (SELECT count(*) FROM runs WHERE search_triggered))`;
  return { ctes, rows, info };
}

function check(req: FanoutsRequest): ValidationIssue[] {
  const issues = [...checkWindow(req), ...checkUnique(req.group_by, 'group_by'), ...checkUnique(req.metrics, 'metrics')];
  const groupBy = groupByOf(req);
  const byQuery = groupBy.includes('query');
  if (byQuery && !groupBy.includes('prompt')) issues.push(valueError(['body', 'group_by'], 'query needs prompt in group_by: a query is read within its prompt', req.group_by));
  (req.metrics ?? []).forEach((m, i) => {
    if (m === 'share' && !byQuery) issues.push(valueError(['body', 'metrics', i], 'share needs query in group_by: it is a query’s share of its prompt’s fan-outs', m));
    if (m === 'query_variations' && byQuery) issues.push(valueError(['body', 'metrics', i], 'query_variations cannot be combined with query in group_by: each row is one query', m));
  });
  issues.push(...readLayeredFilter(req.filter, fanoutsRules).issues);
  return issues;
}

const coverageNote = (info: Record<string, unknown>): string =>
  `Metrics are computed only over runs that produced fan-out data: the ${Number(info.searched ?? 0)} of ${Number(info.runs ?? 0)} runs in scope that searched the web.`;

export const queryFanoutsReport: PagedReport<FanoutsRequest, FanoutsPlan> = {
  id: 'query-fanouts.v2',
  path: '/v2/reports/query-fanouts',
  streamPath: '/v2/reports/query-fanouts/stream',
  name: 'queryFanouts',
  summary: 'Query fan-outs: the search queries engines generated behind answers, per prompt (or query, model, region, date)',
  tags: ['Reports v2'],
  schema,
  check,
  owned: categoryOwned,
  paging: cursorPaging(10),
  plan(req, ctx) {
    const filter = readLayeredFilter(req.filter, fanoutsRules).filter;
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      groupBy: groupByOf(req),
      interval: req.interval ?? 'day',
      metrics: metricsOf(req),
      analysisTypes: typesOf(filter.top.analysis_type, defaultTypes),
      defaultTypes: !filter.top.analysis_type,
      filter,
    };
  },
  compile,
  info(plan, page) {
    return {
      total_results: page.total,
      count: page.count,
      next_cursor: page.nextCursor,
      models: page.sqlInfo.models ?? [],
      metrics: plan.metrics,
      group_by: plan.groupBy,
      analysis_types: plan.analysisTypes,
      start_date: plan.startDate,
      end_date: plan.endDate,
      filter: echoFilter(plan.filter.node),
      coverage_note: coverageNote(page.sqlInfo),
    };
  },
};
