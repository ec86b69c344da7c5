import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../../errors.ts';
import { zDate, laxBool } from '../../../query/schema-types.ts';
import { sql } from '../../../query/sql.ts';
import { v2Report, refuseIssues, type DataGuard } from '../../v2-report.ts';
import {
  answerColumns,
  answerOver,
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
import { sentimentDaily, servedBySentimentDaily } from '../../insights/sentiment-rollup.ts';
import {
  assessmentDims,
  compileSentiment,
  sentimentMetrics,
  sentimentRules,
  type SentimentMetric,
  type SentimentPlan,
  sentimentGrouping,
} from './sentiment-sql.ts';
import { ratioComponents, withParts } from '../../insights/ratio-parts.ts';

export { maxCitedWebsites, sentimentCatalog, sentimentRules, type SentimentPlan } from './sentiment-sql.ts';

const groupDims = [
  'date',
  'topic',
  'region',
  'model',
  'prompt',
  'persona',
  'tag',
  'theme',
  'claim',
  'run',
  'competitor',
] as const;

const schema = z.strictObject({
  ...insightsFields,
  asset: z.string().min(1).describe('the brand, by name (or id)'),
  source: z
    .enum(['asset', 'citation'])
    .optional()
    .nullable()
    .describe('default asset; citation ranks the cited pages by the sentiment of the answers citing them'),
  group_by: z.array(z.enum(groupDims)).max(2).optional().nullable(),
  metrics: z
    .array(z.enum(sentimentMetrics))
    .min(1)
    .optional()
    .nullable()
    .describe('default positive_sentiment, negative_sentiment; occurrence needs a theme or claim grouping or filter'),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  comparison_start_date: zDate()
    .optional()
    .nullable()
    .describe('YYYY-MM-DD, America/New_York, inclusive: adds a previous block to each row'),
  comparison_end_date: zDate().optional().nullable(),
  include_cited_websites: laxBool()
    .optional()
    .nullable()
    .describe('theme or claim grouping only: adds cited_websites to each row'),
  limit: pageLimit(50, 10),
  max_results: maxResults(),
});

export type SentimentRequest = z.output<typeof schema>;

function metricsOf(req: SentimentRequest): SentimentMetric[] {
  return req.metrics ? [...new Set(req.metrics)] : ['positive_sentiment', 'negative_sentiment'];
}

function check(req: SentimentRequest, filter: ReturnType<typeof readLayeredFilter>): ValidationIssue[] {
  const issues = [
    ...checkWindow(req),
    ...checkUnique(req.group_by, 'group_by'),
    ...checkUnique(req.metrics, 'metrics'),
  ];
  const groupBy = req.group_by ?? [];
  issues.push(...filter.issues);
  const citation = req.source === 'citation';
  if (citation && groupBy.length > 0)
    issues.push(
      valueError(
        ['body', 'group_by'],
        'the citation source mode ranks cited pages; group_by is not available with it',
        req.group_by,
      ),
    );
  const byAssessment = groupBy.some((d) => assessmentDims.includes(d));
  (req.metrics ?? []).forEach((m, i) => {
    if (m === 'occurrence' && !byAssessment && !filter.filter.row && filter.issues.length === 0) {
      issues.push(
        valueError(
          ['body', 'metrics', i],
          'occurrence needs theme or claim in group_by, or a theme or claim filter',
          m,
        ),
      );
    }
  });
  if (req.include_cited_websites && !byAssessment) {
    issues.push(
      valueError(
        ['body', 'include_cited_websites'],
        'cited_websites is available with theme or claim in group_by only',
        req.include_cited_websites,
      ),
    );
  }
  const start = req.comparison_start_date ?? null;
  const end = req.comparison_end_date ?? null;
  if ((start === null) !== (end === null)) {
    const missing = start === null ? 'comparison_start_date' : 'comparison_end_date';
    issues.push(valueError(['body', missing], 'comparison_start_date and comparison_end_date go together', null));
  } else if (start !== null && end !== null) {
    const window = checkWindow({ start_date: start, end_date: end });
    issues.push(...window.map((i) => ({ ...i, loc: ['body', 'comparison_end_date'] })));
    if (groupBy.includes('date'))
      issues.push(
        valueError(
          ['body', 'comparison_start_date'],
          'a comparison period cannot be combined with group_by date: its buckets have no counterpart',
          start,
        ),
      );
  }
  return issues;
}

function guards(plan: SentimentPlan): DataGuard[] {
  return [
    {
      query: sql`SELECT count(*) FROM assets WHERE category_id = ${plan.categoryId} AND (name = ${plan.asset} OR id = ${plan.asset})`,
      refuse: (value) =>
        Number(value) > 0
          ? null
          : valueError(['body', 'asset'], `no brand named '${plan.asset}' is tracked in this category`, plan.asset),
    },
  ];
}

export const sentimentReport = v2Report<SentimentRequest, SentimentPlan, z.input<typeof schema>>({
  id: 'sentiment.v2',
  path: '/v2/reports/sentiment',
  streamPath: '/v2/reports/sentiment/stream',
  name: 'sentiment',
  summary:
    'Sentiment: the positive and negative share of a brand’s assessments in answers, per group, or per cited page',
  tags: ['Reports v2'],
  schema,
  rollups: (plan) => (servedBySentimentDaily(plan) ? [{ def: sentimentDaily, scopeId: plan.categoryId }] : []),
  paging: cursorPaging(10),
  read(req, ctx) {
    const parsedFilter = readLayeredFilter(req.filter, sentimentRules);
    refuseIssues(check(req, parsedFilter));
    const start = req.comparison_start_date ?? null;
    const end = req.comparison_end_date ?? null;
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      asset: req.asset,
      source: req.source ?? 'asset',
      groupBy: req.group_by ?? [],
      interval: req.interval ?? 'day',
      metrics: metricsOf(req),
      comparison: start !== null && end !== null ? { startDate: start, endDate: end } : null,
      citedWebsites: req.include_cited_websites ?? false,
      filter: parsedFilter.filter,
    };
  },
  compile: compileSentiment,
  answer: answerOver((plan) =>
    withParts(answerColumns(sentimentGrouping(plan), plan.interval, plan.metrics), plan.components ? plan.metrics : []),
  ),
  components: ratioComponents<SentimentPlan>((plan) =>
    plan.metrics.includes('occurrence')
      ? "occurrence's denominator counts the answers of the row's group without its theme or claim, so rows of days or groups without the theme leave part of it out: ask for components without occurrence"
      : null,
  ),
  guards,
  byDate: windowedByDate((plan) => (plan.source === 'asset' && plan.groupBy.includes('date') ? plan.interval : null)),
  info(plan, page) {
    return {
      total_results: page.total,
      count: page.count,
      next_cursor: page.nextCursor,
      asset: page.sqlInfo.asset ?? plan.asset,
      source: plan.source,
      models: page.sqlInfo.models ?? [],
      metrics: plan.metrics,
      group_by: plan.groupBy,
      start_date: plan.startDate,
      end_date: plan.endDate,
      comparison_start_date: plan.comparison?.startDate ?? null,
      comparison_end_date: plan.comparison?.endDate ?? null,
      filter: echoFilter(plan.filter.node),
    };
  },
});
