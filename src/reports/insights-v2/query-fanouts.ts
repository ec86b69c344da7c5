import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../errors.ts';
import { v2Report, refuseIssues } from '../v2-report.ts';
import { typesOf, type AnalysisType } from '../insights/analysis-types.ts';
import {
  checkUnique,
  checkWindow,
  cursorPaging,
  echoFilter,
  insightsFields,
  maxResults,
  pageLimit,
  windowedByDate,
} from '../insights/common.ts';
import { fanoutsDaily, servedByFanoutsDaily } from '../insights/fanouts-rollup.ts';
import { readLayeredFilter } from '../insights/layered-filter.ts';
import {
  compileFanouts,
  fanoutsAnswer,
  fanoutsRules,
  groupDims,
  metricNames,
  type FanoutDimension,
  type FanoutsPlan,
  type Metric,
} from './query-fanouts-sql.ts';
import { ratioComponents } from '../insights/ratio-parts.ts';

export { fanoutsCatalog, fanoutsRules, type FanoutsPlan } from './query-fanouts-sql.ts';

const schema = z.strictObject({
  ...insightsFields,
  group_by: z.array(z.enum(groupDims)).optional().nullable().describe('default [prompt]; query needs prompt'),
  metrics: z
    .array(z.enum(metricNames))
    .min(1)
    .optional()
    .nullable()
    .describe(
      'default total_fanouts, fanouts_per_execution, query_variations (without query_variations when grouped by query); share needs query in group_by',
    ),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  limit: pageLimit(50, 10),
  max_results: maxResults(),
});

export type FanoutsRequest = z.output<typeof schema>;

/** The docs: the analysis_type filter defaults to visibility. */
const defaultTypes: readonly AnalysisType[] = ['visibility'];

function groupByOf(req: FanoutsRequest): FanoutDimension[] {
  return req.group_by ?? ['prompt'];
}

function metricsOf(req: FanoutsRequest): Metric[] {
  if (req.metrics) return [...new Set(req.metrics)];
  return groupByOf(req).includes('query')
    ? ['total_fanouts', 'fanouts_per_execution']
    : ['total_fanouts', 'fanouts_per_execution', 'query_variations'];
}

function check(req: FanoutsRequest, parsedFilter: ReturnType<typeof readLayeredFilter>): ValidationIssue[] {
  const issues = [
    ...checkWindow(req),
    ...checkUnique(req.group_by, 'group_by'),
    ...checkUnique(req.metrics, 'metrics'),
  ];
  const groupBy = groupByOf(req);
  const byQuery = groupBy.includes('query');
  if (byQuery && !groupBy.includes('prompt'))
    issues.push(
      valueError(
        ['body', 'group_by'],
        'query needs prompt in group_by: a query is read within its prompt',
        req.group_by,
      ),
    );
  (req.metrics ?? []).forEach((m, i) => {
    if (m === 'share' && !byQuery)
      issues.push(
        valueError(
          ['body', 'metrics', i],
          'share needs query in group_by: it is a query’s share of its prompt’s fan-outs',
          m,
        ),
      );
    if (m === 'query_variations' && byQuery)
      issues.push(
        valueError(
          ['body', 'metrics', i],
          'query_variations cannot be combined with query in group_by: each row is one query',
          m,
        ),
      );
  });
  issues.push(...parsedFilter.issues);
  return issues;
}

const coverageNote = (info: Record<string, unknown>): string =>
  `Metrics are computed only over runs that produced fan-out data: the ${Number(info.searched ?? 0)} of ${Number(info.runs ?? 0)} runs in scope that searched the web.`;

export const queryFanoutsReport = v2Report<FanoutsRequest, FanoutsPlan, z.input<typeof schema>>({
  id: 'query-fanouts.v2',
  path: '/v2/reports/query-fanouts',
  streamPath: '/v2/reports/query-fanouts/stream',
  name: 'queryFanouts',
  summary:
    'Query fan-outs: the search queries engines generated behind answers, per prompt (or query, model, region, date)',
  tags: ['Reports v2'],
  schema,
  rollups: (plan) => (servedByFanoutsDaily(plan) ? [{ def: fanoutsDaily, scopeId: plan.categoryId }] : []),
  paging: cursorPaging(10),
  read(req, ctx) {
    const parsedFilter = readLayeredFilter(req.filter, fanoutsRules);
    refuseIssues(check(req, parsedFilter));
    const filter = parsedFilter.filter;
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
  compile: compileFanouts,
  answer: fanoutsAnswer,
  components: ratioComponents<FanoutsPlan>((plan) =>
    plan.groupBy.includes('query')
      ? "a query's row exists only where it ran, while its denominators count every searching answer (or fan-out) of its group: components does not take the query group"
      : null,
  ),
  byDate: windowedByDate((plan) => (plan.groupBy.includes('date') ? plan.interval : null)),
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
});
