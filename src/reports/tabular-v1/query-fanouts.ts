import { z } from 'zod';
import { componentColumns, type RatioParts } from '../tabular/tabular-shape.ts';
import type { FlatCatalog } from '../../query/flat-filters.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import { tabularReport } from '../tabular/tabular-report.ts';
import { ownsCategory } from '../core/authorize.ts';
import {
  answerDimensions,
  answerFilterFields,
  insightsWithin,
  factsInScope,
  groupByKeys,
  insightsTabularFields,
  keysMatch,
  keySelect,
  keysThen,
  pick,
  plainDimension,
  positionalKeys,
  promptsCte,
  readInsights,
  v1Tags,
  type InsightsPlan,
} from './insights-common.ts';
import { fanoutsDaily, fanoutsFromRollup } from '../insights/fanouts-rollup.ts';
import { rolledInScope, servedByRollup } from './rollup-scope.ts';
import { declaredMetric } from '../../query/metric-sql.ts';

const metricNames = ['fanouts_per_execution', 'total_fanouts', 'share'] as const;
type Metric = (typeof metricNames)[number];
const dimensionNames = ['prompt', 'query', 'model', 'region', 'date'] as const;

const schema = z.strictObject({
  ...insightsTabularFields,
  metrics: z.array(z.enum(metricNames)).min(1),
  dimensions: z.array(z.enum(dimensionNames)).optional().nullable(),
});

const catalog: FlatCatalog = pick(answerFilterFields, [
  'region_id',
  'region_name',
  'model_id',
  'topic_id',
  'tag_id',
  'prompt_id',
  'persona_id',
  'analysis_type',
]);

const declared = {
  fanouts_per_execution: declaredMetric('fanouts_per_execution', 'fanouts_per_execution'),
  share: declaredMetric('share (fan-outs)', 'share'),
} as const;

/** A row's fan-outs `n`, its answer group's fan-outs `pg` and searching executions `xe` (none joined: 0). */
const parts = {
  fanouts: sql`n.fanouts`,
  searching: sql`coalesce(xe.executions, 0)`,
  group_fanouts: sql`pg.group_fanouts`,
};

const metricSql: Record<Metric, Fragment> = {
  total_fanouts: sql`n.fanouts`,
  fanouts_per_execution: declared.fanouts_per_execution.sql(parts, 'v1'),
  share: declared.share.sql(parts, 'v1'),
};

/** Each ratio's parts, so that rows re-aggregate exactly. */
const ratioParts: Record<keyof typeof declared, RatioParts> = {
  fanouts_per_execution: declared.fanouts_per_execution.terms(parts),
  share: declared.share.terms(parts),
};

/**
 * Query fan-outs v1: the search queries engines ran behind answers. fanouts_per_execution divides by
 * the searching executions (search_triggered) of the row's answer group; share divides by the
 * fan-outs of the row's group without the query dimension (the same prompt when prompt is grouped).
 */
function compile(plan: InsightsPlan, rollups: ReadonlySet<string>) {
  const defs = { ...answerDimensions(plan.bucket), query: plainDimension(sql`f.query`) };
  const dims = plan.dimensions;
  const answerDims = dims.filter((d) => d !== 'query');
  const rolled = rollups.has(fanoutsDaily.name) && servedByFanoutsDailyV1(plan);
  const ctes = rolled
    ? sql`${promptsCte(plan)},
scoped_fanouts AS (
  SELECT ${keySelect(dims, defs)}f.n AS w
  ${rolledInScope(plan, catalog, fanoutsFromRollup.fanouts)}
),
row_fanouts AS (SELECT ${keysThen(dims)}${fanoutsFromRollup.count} AS fanouts FROM scoped_fanouts ${groupByKeys(dims)}),
group_fanouts AS (SELECT ${keysThen(answerDims)}${fanoutsFromRollup.count} AS group_fanouts FROM scoped_fanouts GROUP BY ALL),
searching_answers AS (
  SELECT ${keySelect(answerDims, defs)}f.searched AS w
  ${rolledInScope(plan, catalog, fanoutsFromRollup.runs)} AND f.searched > 0
),
group_searching AS (SELECT ${keysThen(answerDims)}${fanoutsFromRollup.count} AS executions FROM searching_answers GROUP BY ALL)`
    : sql`${promptsCte(plan)},
scoped_fanouts AS (
  SELECT ${keySelect(dims, defs)}f.position
  ${factsInScope('fanouts', plan, catalog)}
),
row_fanouts AS (SELECT ${keysThen(dims)}count(*) AS fanouts FROM scoped_fanouts ${groupByKeys(dims)}),
group_fanouts AS (SELECT ${keysThen(answerDims)}count(*) AS group_fanouts FROM scoped_fanouts GROUP BY ALL),
searching_answers AS (
  SELECT ${keySelect(answerDims, defs)}f.id
  ${factsInScope('executions', plan, catalog)} AND f.search_triggered
),
group_searching AS (SELECT ${keysThen(answerDims)}count(*) AS executions FROM searching_answers GROUP BY ALL)`;
  const columns = [
    ...positionalKeys(dims, 'n'),
    ...plan.metrics.map((m, j) => sql`${metricSql[m as Metric]} AS ${ident(`m${j}`)}`),
    ...componentColumns(plan, ratioParts),
  ];
  const grouped = sql`SELECT ${join(columns, ', ')}
FROM row_fanouts n LEFT JOIN group_fanouts pg ON ${keysMatch(answerDims, 'n', 'pg')} LEFT JOIN group_searching xe ON ${keysMatch(answerDims, 'n', 'xe')}`;
  return { ctes, grouped, dimensions: dims.map((d) => defs[d as keyof typeof defs]) };
}

/** The rollup keeps the prompt and the query by ET day; prompt-level filters read the prompt. */
const servedByFanoutsDailyV1 = (plan: InsightsPlan) =>
  servedByRollup(plan, ['date', 'prompt', 'query'], ['topic_id', 'tag_id', 'prompt_id', 'analysis_type']);

export const queryFanoutsV1Report = tabularReport<z.output<typeof schema>, InsightsPlan, z.input<typeof schema>>({
  id: 'query-fanouts.v1',
  path: '/v1/reports/query-fanouts',
  streamPath: null,
  name: 'queryFanoutsV1',
  summary: 'Query fan-outs (v1, tabular): the search queries engines generated behind answers',
  tags: v1Tags,
  deprecated: true,
  successor: '/v2/reports/query-fanouts',
  schema,
  fills: true,
  within: insightsWithin,
  countMetrics: ['total_fanouts'],
  ratioMetrics: Object.keys(ratioParts),
  partialDimensions: ['query'],
  read: (req, ctx, mode) => readInsights(req, ctx, mode, catalog, ['date']),
  authorize: ownsCategory,
  rollups: (plan) => (servedByFanoutsDailyV1(plan) ? [{ def: fanoutsDaily, scopeId: plan.categoryId }] : []),
  compile,
});
