import { z } from 'zod';
import { plainField, type FlatCatalog, type FlatField } from '../../query/flat-filters.ts';
import { argMax, epochSeconds, instant } from '../../query/dialect.ts';
import { declaredMetric } from '../../query/metric-sql.ts';
import { declaredInstant } from '../../query/measure-sql.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import { tabularReport } from '../tabular/tabular-report.ts';
import { ownsCategory } from '../core/authorize.ts';
import {
  answerDimensions,
  answerFilterFields,
  insightsWithin,
  factsInScope,
  insightsTabularFields,
  keysMatch,
  keySelect,
  keysThen,
  plainDimension,
  positionalKeys,
  promptsCte,
  readInsights,
  rowPredicate,
  v1Tags,
  type InsightsPlan,
} from './insights-common.ts';
import { citationsDaily, factCitations, rolledCitations } from '../insights/citations-rollup.ts';
import { rolledInScope, servedByRollup } from './rollup-scope.ts';

const metricNames = ['count', 'citation_share', 'share_of_voice', 'first_cited_at'] as const;
type Metric = (typeof metricNames)[number];
const dimensionNames = [
  'hostname',
  'path',
  'date',
  'region',
  'topic',
  'topic_id',
  'model',
  'tag',
  'prompt',
  'prompt_id',
  'url',
  'root_domain',
  'persona',
  'citation_category',
] as const;

/** Dimensions of the answer (as opposed to of the cited page): citation_share is relative within them. */
const answerLevel: readonly string[] = [
  'date',
  'region',
  'topic',
  'topic_id',
  'model',
  'tag',
  'prompt',
  'prompt_id',
  'persona',
];

const schema = z.strictObject({
  ...insightsTabularFields,
  metrics: z.array(z.enum(metricNames)).min(1).describe('share_of_voice is deprecated: it is citation_share'),
  dimensions: z.array(z.enum(dimensionNames)).optional().nullable(),
});

/**
 * `mentioned is true|false`: the page's latest analysis at or before end_date says whether it mentions
 * an owned brand. A page without an analysis by then has no value, so (by the NULL rule) neither
 * `is true` nor `is false` selects it.
 */
const mentioned: FlatField = {
  ops: ['is'],
  valueType: 'boolean',
  stage: 'row',
  match: (_op, values) => sql`f.url IN (SELECT url FROM page_mentions WHERE mentioned = ${values[0] ?? null})`,
};

const pageField = (column: string): FlatField =>
  plainField(sql`f.${ident(column)}`, { dimension: column, stage: 'row' });

const catalog: FlatCatalog = {
  ...answerFilterFields,
  hostname: pageField('hostname'),
  path: pageField('path'),
  url: pageField('url'),
  root_domain: pageField('root_domain'),
  citation_category: plainField(sql`f.citation_category`, { stage: 'row' }),
  mentioned,
};

const shareParts = {
  citations: sql`num.n`,
  model_citations: sql`den.total`,
  models: sql`any_value(model_counts.models)`,
};

const metricSql: Record<Metric, Fragment> = {
  count: sql`CAST(sum(num.n) AS BIGINT)`,
  citation_share: declaredMetric('citation_share', 'citation_share').sql(shareParts),
  share_of_voice: declaredMetric('share_of_voice (citations, deprecated)', 'share_of_voice').sql(shareParts),
  first_cited_at: epochSeconds(
    declaredInstant('first_cited_at', 'first_cited_at').sql({ executed_at: sql`num.first_at` }),
  ),
};

/**
 * Citations v1. Scope filters (prompt-level) choose the answers; row filters (page fields, citation
 * category, mentioned) choose citations among them. citation_share is, per model, the row's citations
 * over every citation in scope of the same answer-level group, averaged over the models with citations
 * there: row filters never shrink that denominator.
 */
function compile(plan: InsightsPlan, rollups: ReadonlySet<string>) {
  const rolled = rollups.has(citationsDaily.name) && servedByCitationsDailyV1(plan);
  const defs = {
    ...answerDimensions(plan.bucket),
    hostname: plainDimension(sql`f.hostname`),
    path: plainDimension(sql`f.path`),
    url: plainDimension(sql`f.url`),
    root_domain: plainDimension(sql`f.root_domain`),
    citation_category: plainDimension(sql`f.citation_category`),
  };
  const dims = plan.dimensions;
  const answerDims = dims.filter((d) => answerLevel.includes(d));
  const source = rolled ? rolledCitations : factCitations;
  const analyses = plan.filters.some((f) => f.field === 'mentioned')
    ? sql`
page_mentions AS (
  SELECT url, ${argMax(sql`mentioned`, sql`analyzed_at`)} AS mentioned FROM page_analyses
  WHERE category_id = ${plan.categoryId} AND analyzed_at <= ${instant(sql`${plan.window.end}`)}
  GROUP BY url
),`
    : sql``;
  const ctes = sql`${promptsCte(plan)},${analyses}
base AS (
  SELECT ${keySelect(dims, defs)}f.model_id AS model_key, ${rowPredicate(plan, catalog)} AS hit, f.executed_at AS cited_at${source.weight}
  ${rolled ? rolledInScope(plan, catalog, rolledCitations.from) : factsInScope('citations', plan, catalog)}
),
num AS (
  SELECT ${keysThen(dims)}model_key, ${source.countIf(sql`hit`)} AS n, min(cited_at) FILTER (WHERE hit) AS first_at FROM base GROUP BY ALL
),
den AS (SELECT ${keysThen(answerDims)}model_key, ${source.count} AS total FROM base GROUP BY ALL),
model_counts AS (SELECT ${keysThen(answerDims)}count(*) AS models FROM den GROUP BY ALL)`;
  const columns = [
    ...positionalKeys(dims, 'num'),
    ...plan.metrics.map((m, j) => sql`${metricSql[m as Metric]} AS ${ident(`m${j}`)}`),
  ];
  const groupBy =
    dims.length > 0
      ? sql`GROUP BY ${join(
          dims.map((_, i) => ident(`k${i}`)),
          ', ',
        )} `
      : sql``;
  const grouped = sql`SELECT ${join(columns, ', ')}
FROM num JOIN den ON ${keysMatch(answerDims, 'num', 'den')} AND num.model_key = den.model_key
JOIN model_counts ON ${keysMatch(answerDims, 'num', 'model_counts')}
${groupBy}HAVING sum(num.n) > 0`;
  return { ctes, grouped, dimensions: dims.map((d) => defs[d as keyof typeof defs]) };
}

/** The rollup keeps the model, the root domain and the citation category, by ET day. */
const servedByCitationsDailyV1 = (plan: InsightsPlan) =>
  servedByRollup(
    plan,
    ['date', 'model', 'root_domain', 'citation_category'],
    ['model_id', 'root_domain', 'citation_category'],
  );

export const citationsV1Report = tabularReport<z.output<typeof schema>, InsightsPlan, z.input<typeof schema>>({
  id: 'citations.v1',
  path: '/v1/reports/citations',
  streamPath: '/v1/reports/citations/stream',
  name: 'citationsV1',
  summary: 'Citations (v1, tabular): citation counts and share by page, domain and answer dimensions',
  tags: v1Tags,
  deprecated: true,
  successor: '/v2/reports/citations',
  schema,
  fills: true,
  within: insightsWithin,
  countMetrics: ['count'],
  instantMetrics: ['first_cited_at'],
  read: (req, ctx, mode) => readInsights(req, ctx, mode, catalog),
  authorize: ownsCategory,
  rollups: (plan) => (servedByCitationsDailyV1(plan) ? [{ def: citationsDaily, scopeId: plan.categoryId }] : []),
  compile,
});
