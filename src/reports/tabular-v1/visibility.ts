import { z } from 'zod';
import { componentColumns, type RatioParts } from '../tabular/tabular-shape.ts';
import { compileFilter } from '../../query/filter-compiler.ts';
import { filtersAt, flatToNode, nameField, type FlatCatalog } from '../../query/flat-filters.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import { declaredMetric } from '../../query/metric-sql.ts';
import { tabularReport } from '../tabular/tabular-report.ts';
import { ownsCategory } from '../core/authorize.ts';
import {
  answerDimensions,
  answerFilterFields,
  insightsWithin,
  dimKey,
  factsInScope,
  groupByKeys,
  insightsTabularFields,
  keysMatch,
  keySelect,
  keysThen,
  namedDimension,
  pick,
  plainDimension,
  promptsCte,
  readInsights,
  v1Tags,
  type InsightsPlan,
} from './insights-common.ts';
import { rolledBrandMentions, rolledVisibility, visibilityV1Rollup } from './visibility-rolled.ts';

const metricNames = ['share_of_voice', 'mentions_count', 'visibility_score', 'executions', 'average_position'] as const;
type Metric = (typeof metricNames)[number];
const dimensionNames = [
  'date',
  'region',
  'topic',
  'topic_id',
  'model',
  'asset_id',
  'asset_name',
  'prompt',
  'prompt_id',
  'tag',
  'persona',
] as const;
const brandDimensions: readonly string[] = ['asset_id', 'asset_name'];

const schema = z.strictObject({
  ...insightsTabularFields,
  metrics: z.array(z.enum(metricNames)).min(1),
  dimensions: z.array(z.enum(dimensionNames)).optional().nullable(),
});

const assetsTable = { table: 'assets', name: 'name', scope: 'category' } as const;

/** asset_name chooses brands (rows, or the brands taken together); it never shrinks share_of_voice's denominator. */
const catalog: FlatCatalog = {
  ...pick(answerFilterFields, [
    'region_id',
    'region_name',
    'model_id',
    'topic_id',
    'topic_name',
    'tag_id',
    'tag_name',
    'prompt_id',
    'prompt',
    'persona_id',
  ]),
  asset_name: nameField(sql`f.asset_id`, assetsTable, { stage: 'row' }),
};
const brandCatalog: FlatCatalog = { asset_name: nameField(sql`b.id`, assetsTable, { stage: 'row' }) };

/** The declarations v2 visibility computes from too, so the two agree to the last bit for the same window. */
const declared = {
  visibility_score: declaredMetric('visibility_score', 'visibility_score'),
  share_of_voice: declaredMetric('share_of_voice (visibility)', 'share_of_voice'),
  average_position: declaredMetric('average_position', 'average_position'),
} as const;

/** A group `g`, a brand's counts `bm` in it (none when it was not mentioned) and the group's mentions `t`. */
const parts = {
  mentioned: sql`coalesce(bm.mentioned, 0)`,
  mentions: sql`coalesce(bm.mentions, 0)`,
  executions: sql`g.executions`,
  total_mentions: sql`coalesce(t.total_mentions, 0)`,
  position_sum: sql`bm.position_sum`,
};

const metricSql: Record<Metric, Fragment> = {
  executions: sql`g.executions`,
  mentions_count: sql`coalesce(bm.mentions, 0)`,
  visibility_score: declared.visibility_score.sql(parts, 'v1'),
  share_of_voice: declared.share_of_voice.sql(parts, 'v1'),
  // The client types metrics as numbers: a brand without a mention has position 0 (positions start at 1).
  average_position: declared.average_position.sql(parts, 'v1'),
};

/** Each ratio's parts, so that rows re-aggregate exactly: the sums of a column's parts give its ratio. */
const ratioParts: Record<keyof typeof declared, RatioParts> = {
  visibility_score: declared.visibility_score.terms(parts),
  share_of_voice: declared.share_of_voice.terms(parts),
  average_position: declared.average_position.terms({ ...parts, position_sum: sql`coalesce(bm.position_sum, 0)` }),
};

/**
 * Visibility v1. With an asset dimension every brand of the category gets a row in each group with an
 * answer (v2's scope all); asset_name filters those rows. Without one, the row is the chosen brands
 * taken together: those asset_name selects, else the organization's own.
 */
function compile(plan: InsightsPlan, rollups: ReadonlySet<string>) {
  const defs = {
    ...answerDimensions(plan.bucket),
    asset_id: plainDimension(sql`b.id`),
    asset_name: namedDimension(sql`b.id`, 'assets'),
  };
  const dims = plan.dimensions;
  const answerDims = dims.filter((d) => !brandDimensions.includes(d));
  const perBrand = answerDims.length < dims.length;
  const brandNode = flatToNode(filtersAt(plan.filters, catalog, 'row'));
  const chosen = brandNode
    ? compileFilter(brandNode, brandCatalog, { organizationId: plan.organizationId, categoryId: plan.categoryId })
    : perBrand
      ? sql`TRUE`
      : sql`b.is_owned`;
  const rollup = visibilityV1Rollup(plan);
  const rolled = rollup !== null && rollups.has(rollup.def.name) ? rollup : null;
  const b = sql`chosen_brands AS (SELECT id, name FROM assets b WHERE category_id = ${plan.categoryId} AND ${chosen})`;
  const ctes = rolled
    ? sql`${promptsCte(plan, 'visibility')},
${rolledVisibility(plan, rolled, catalog, defs, answerDims)},
${b},
brand_mentions AS (
  ${rolledBrandMentions(answerDims)}
)`
    : sql`${promptsCte(plan, 'visibility')},
scoped_answers AS (
  SELECT ${keySelect(answerDims, defs)}f.id AS execution_id
  ${factsInScope('executions', plan, catalog)}
),
answer_groups AS (SELECT ${keysThen(answerDims)}count(*) AS executions FROM scoped_answers ${groupByKeys(answerDims)}),
scoped_mentions AS (
  SELECT ${keySelect(answerDims, defs)}f.execution_id, f.asset_id, f.position
  ${factsInScope('mentions', plan, catalog)}
),
group_mentions AS (SELECT ${keysThen(answerDims)}count(*) AS total_mentions FROM scoped_mentions GROUP BY ALL),
${b},
brand_mentions AS (
  SELECT ${keysThen(answerDims)}${perBrand ? sql`asset_id, ` : sql``}count(*) AS mentions, count(DISTINCT execution_id) AS mentioned, sum(position) AS position_sum
  FROM scoped_mentions WHERE asset_id IN (SELECT id FROM chosen_brands) GROUP BY ALL
)`;
  const keys = dims.map(
    (d, i) => sql`${brandDimensions.includes(d) ? sql`b.id` : dimKey(d, 'g')} AS ${ident(`k${i}`)}`,
  );
  const columns = [
    ...keys,
    ...plan.metrics.map((m, j) => sql`${metricSql[m as Metric]} AS ${ident(`m${j}`)}`),
    ...componentColumns(plan, ratioParts),
  ];
  const from = perBrand
    ? sql`answer_groups g CROSS JOIN chosen_brands b LEFT JOIN brand_mentions bm ON ${keysMatch(answerDims, 'bm', 'g')} AND bm.asset_id = b.id`
    : sql`answer_groups g LEFT JOIN brand_mentions bm ON ${keysMatch(answerDims, 'bm', 'g')}`;
  const grouped = sql`SELECT ${join(columns, ', ')}
FROM ${from}
LEFT JOIN group_mentions t ON ${keysMatch(answerDims, 't', 'g')}`;
  return { ctes, grouped, dimensions: dims.map((d) => defs[d as keyof typeof defs]) };
}

export const visibilityV1Report = tabularReport<z.output<typeof schema>, InsightsPlan, z.input<typeof schema>>({
  id: 'visibility.v1',
  path: '/v1/reports/visibility',
  streamPath: '/v1/reports/visibility/stream',
  name: 'visibilityV1',
  summary: 'Visibility (v1, tabular): share of voice, mentions, visibility score, executions and average position',
  tags: v1Tags,
  deprecated: true,
  successor: '/v2/reports/visibility',
  schema,
  fills: true,
  within: insightsWithin,
  countMetrics: ['mentions_count', 'executions'],
  ratioMetrics: Object.keys(ratioParts),
  read: (req, ctx, mode) => readInsights(req, ctx, mode, catalog),
  authorize: ownsCategory,
  rollups: (plan) => {
    const rollup = visibilityV1Rollup(plan);
    return rollup ? [{ def: rollup.def, scopeId: plan.categoryId }] : [];
  },
  compile,
});
