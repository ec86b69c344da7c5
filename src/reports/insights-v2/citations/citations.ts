import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../../errors.ts';
import { v2Report, refuseIssues } from '../../v2-report.ts';
import { typesOf, type AnalysisType } from '../../insights/analysis-types.ts';
import { citationsDaily, servedByCitationsDaily } from '../../insights/citations-rollup.ts';
import {
  citationsAnswer,
  citationsRules,
  compileCitations,
  groupDims,
  metricNames,
  type CitationsPlan,
  type Metric,
  type Partition,
} from './citations-sql.ts';
import {
  checkUnique,
  checkWindow,
  cursorPaging,
  echoFilter,
  insightsFields,
  maxResults,
  pageLimit,
  windowedByDate,
} from '../../insights/common.ts';
import { readLayeredFilter } from '../../insights/layered-filter.ts';

export { citationsCatalog, citationsRules, type CitationsPlan } from './citations-sql.ts';

const defaultMetrics: readonly Metric[] = ['count', 'citation_share', 'rank'];
const schema = z.strictObject({
  ...insightsFields,
  group_by: z
    .array(z.enum(groupDims))
    .optional()
    .nullable()
    .describe('page makes the rows pages instead of domains; the others partition them'),
  metrics: z
    .array(z.enum(metricNames))
    .min(1)
    .optional()
    .nullable()
    .describe('default count, citation_share, rank; first_cited_at needs page in group_by'),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  scope: z
    .enum(['owned', 'all'])
    .optional()
    .nullable()
    .describe('default all; owned keeps the domains (pages) cited as owned'),
  limit: pageLimit(50, 10),
  max_results: maxResults(),
});

export type CitationsRequest = z.output<typeof schema>;

/** The docs: the default citation view reads the visibility prompts. */
const defaultTypes: readonly AnalysisType[] = ['visibility'];

function metricsOf(req: CitationsRequest): Metric[] {
  return req.metrics ? [...new Set(req.metrics)] : [...defaultMetrics];
}

function check(req: CitationsRequest, parsedFilter: ReturnType<typeof readLayeredFilter>): ValidationIssue[] {
  const issues = [
    ...checkWindow(req),
    ...checkUnique(req.group_by, 'group_by'),
    ...checkUnique(req.metrics, 'metrics'),
  ];
  const paged = (req.group_by ?? []).includes('page');
  (req.metrics ?? []).forEach((m, i) => {
    if (m === 'first_cited_at' && !paged)
      issues.push(valueError(['body', 'metrics', i], 'first_cited_at is a page metric: add page to group_by', m));
  });
  issues.push(...parsedFilter.issues);
  return issues;
}

export const citationsReport = v2Report<CitationsRequest, CitationsPlan, z.input<typeof schema>>({
  id: 'citations.v2',
  path: '/v2/reports/citations',
  streamPath: '/v2/reports/citations/stream',
  name: 'citations',
  summary:
    'Citations: the domains (or pages) answers cite, with count, citation share, rank and first citation, most cited first',
  tags: ['Reports v2'],
  schema,
  rollups: (plan) => (servedByCitationsDaily(plan) ? [{ def: citationsDaily, scopeId: plan.categoryId }] : []),
  paging: cursorPaging(10),
  read(req, ctx) {
    const parsedFilter = readLayeredFilter(req.filter, citationsRules);
    refuseIssues(check(req, parsedFilter));
    const filter = parsedFilter.filter;
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      entity: (req.group_by ?? []).includes('page') ? 'page' : 'domain',
      partitions: (req.group_by ?? []).filter((d): d is Partition => d !== 'page'),
      interval: req.interval ?? 'day',
      metrics: metricsOf(req),
      scope: req.scope ?? 'all',
      analysisTypes: typesOf(filter.top.analysis_type, defaultTypes),
      defaultTypes: !filter.top.analysis_type,
      filter,
    };
  },
  compile: compileCitations,
  answer: citationsAnswer,
  byDate: windowedByDate((plan) => (plan.partitions[0] === 'date' ? plan.interval : null)),
  info(plan, page) {
    return {
      total_results: page.total,
      count: page.count,
      next_cursor: page.nextCursor,
      scope: plan.scope,
      models: page.sqlInfo.models ?? [],
      metrics: plan.metrics,
      analysis_types: plan.analysisTypes,
      start_date: plan.startDate,
      end_date: plan.endDate,
      filter: echoFilter(plan.filter.node),
    };
  },
});
