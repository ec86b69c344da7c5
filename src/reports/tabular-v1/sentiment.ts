import { z } from 'zod';
import { idField, nameField, type FlatCatalog } from '../../query/flat-filters.ts';
import { sql, type Fragment } from '../../query/sql.ts';
import { tabularReport } from '../tabular/tabular-report.ts';
import { ownsCategory } from '../core/authorize.ts';
import {
  answerDimensions,
  answerFilterFields,
  insightsWithin,
  factsInScope,
  groupedOver,
  insightsTabularFields,
  keySelect,
  namedDimension,
  pick,
  plainDimension,
  promptsCte,
  readInsights,
  v1Tags,
  type InsightsPlan,
} from './insights-common.ts';
import { sentimentDaily, sentimentDailyTable } from '../insights/sentiment-rollup.ts';
import { rolledInScope, servedByRollup } from './rollup-scope.ts';

const metricNames = ['positive', 'negative', 'occurrences'] as const;
const dimensionNames = [
  'theme',
  'date',
  'region',
  'topic',
  'topic_id',
  'model',
  'asset_id',
  'asset_name',
  'tag',
  'prompt',
  'prompt_id',
  'sentiment_type',
  'persona',
] as const;

const schema = z.strictObject({
  ...insightsTabularFields,
  metrics: z.array(z.enum(metricNames)).min(1),
  dimensions: z.array(z.enum(dimensionNames)).optional().nullable(),
});

const assetsTable = { table: 'assets', name: 'name', scope: 'category' } as const;
const themesTable = { table: 'themes', name: 'name', scope: 'category' } as const;

const catalog: FlatCatalog = {
  ...pick(answerFilterFields, [
    'region_id',
    'region_name',
    'topic_id',
    'topic_name',
    'model_id',
    'tag_id',
    'tag_name',
    'prompt',
    'persona_id',
  ]),
  asset_id: idField(sql`f.asset_id`),
  asset_name: nameField(sql`f.asset_id`, assetsTable),
  theme: nameField(sql`f.theme_id`, themesTable),
};

const metricSql: Record<(typeof metricNames)[number], Fragment> = {
  positive: sql`count(*) FILTER (WHERE sentiment = 'positive')`,
  negative: sql`count(*) FILTER (WHERE sentiment = 'negative')`,
  occurrences: sql`count(*)`,
};

/** The same counts summed over the daily rollup's rows. */
const rolledMetricSql: typeof metricSql = {
  positive: sql`CAST(sum(w_positive) AS BIGINT)`,
  negative: sql`CAST(sum(w_negative) AS BIGINT)`,
  occurrences: sql`CAST(sum(w) AS BIGINT)`,
};

/** The rollup keeps the model and the brand by ET day. */
const servedBySentimentDailyV1 = (plan: InsightsPlan) =>
  servedByRollup(plan, ['date', 'model', 'asset_id', 'asset_name'], ['model_id', 'asset_id', 'asset_name']);

/** Sentiment v1: counts of the positive and negative assessments of brands in answers to sentiment prompts. */
export const sentimentV1Report = tabularReport<z.output<typeof schema>, InsightsPlan, z.input<typeof schema>>({
  id: 'sentiment.v1',
  path: '/v1/reports/sentiment',
  streamPath: '/v1/reports/sentiment/stream',
  name: 'sentimentV1',
  summary: 'Sentiment (v1, tabular): positive and negative assessments and their occurrences',
  tags: v1Tags,
  deprecated: true,
  successor: '/v2/reports/sentiment',
  schema,
  fills: true,
  within: insightsWithin,
  countMetrics: ['positive', 'negative', 'occurrences'],
  read: (req, ctx, mode) => readInsights(req, ctx, mode, catalog),
  authorize: ownsCategory,
  rollups: (plan) => (servedBySentimentDailyV1(plan) ? [{ def: sentimentDaily, scopeId: plan.categoryId }] : []),
  compile(plan, rollups) {
    const rolled = rollups.has(sentimentDaily.name) && servedBySentimentDailyV1(plan);
    const defs = {
      ...answerDimensions(plan.bucket),
      theme: namedDimension(sql`f.theme_id`, 'themes'),
      asset_id: plainDimension(sql`f.asset_id`),
      asset_name: namedDimension(sql`f.asset_id`, 'assets'),
      sentiment_type: plainDimension(sql`f.sentiment_type`),
    };
    const ctes = rolled
      ? sql`${promptsCte(plan, 'sentiment')},
scoped_assessments AS (
  SELECT ${keySelect(plan.dimensions, defs)}f.n AS w, f.positive AS w_positive, f.negative AS w_negative
  ${rolledInScope(plan, catalog, sentimentDailyTable)}
)`
      : sql`${promptsCte(plan, 'sentiment')},
scoped_assessments AS (
  SELECT ${keySelect(plan.dimensions, defs)}f.sentiment_type AS sentiment
  ${factsInScope('sentiments', plan, catalog)}
)`;
    const metrics = rolled ? rolledMetricSql : metricSql;
    return {
      ctes,
      grouped: groupedOver(
        'scoped_assessments',
        plan.dimensions,
        plan.metrics.map((m) => metrics[m as keyof typeof metricSql]),
      ),
      dimensions: plan.dimensions.map((d) => defs[d as keyof typeof defs]),
    };
  },
});
