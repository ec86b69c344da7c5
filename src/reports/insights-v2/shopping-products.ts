import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../errors.ts';
import type { FilterCatalog } from '../../query/filter-compiler.ts';
import { textOps, textPredicate } from '../../query/filter-fields.ts';
import { leaves, type FilterNode } from '../../query/filter-node.ts';
import { laxBool, laxInt } from '../../query/schema-types.ts';
import { ident, join, key, list, sql, type Fragment } from '../../query/sql.ts';
import type { CalendarInterval } from '../../query/time.ts';
import { refuseFields, type PagedReport } from '../paged-report.ts';
import { categoryOwned, checkUnique, checkWindow, cursorPaging, echoFilter, filterPredicate, insightsFields, pageLimit, planFilter, readFilter } from './common.ts';
import { dimensionFields, dimensionJoins, dimensionOrder, groupKey, keyColumn, keysEqual, promptFilterFields } from './dimensions.ts';
import { inWindow, modelNames, pickFields, promptsCte, type WindowScope } from './scope.ts';

const metricNames = [
  'visibility_score',
  'average_position',
  'visibility_rank',
  'position1_percentage',
  'position2_percentage',
  'position3_percentage',
  'position_above3_percentage',
  'product_rating',
  'product_num_reviews',
] as const;
type Metric = (typeof metricNames)[number];

const positionMetrics: readonly Metric[] = ['position1_percentage', 'position2_percentage', 'position3_percentage', 'position_above3_percentage'];
const groupDims = ['date', 'topic', 'prompt'] as const;
type ShoppingDimension = (typeof groupDims)[number];

const schema = z.strictObject({
  ...insightsFields,
  group_by: z.array(z.enum(groupDims)).optional().nullable(),
  metrics: z.array(z.enum(metricNames)).min(1).optional().nullable(),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  include_merchants: laxBool().optional().describe('default false'),
  target_product: z.string().min(1).optional().nullable().describe('a product name or id: that product and its top competitors'),
  competitor_limit: laxInt(z.int().min(1)).optional().describe('default 5; used with target_product'),
  limit: pageLimit(50, 10),
  max_results: laxInt(z.int().min(1).max(50_000)).optional().nullable().describe('stream only: caps the rows, 1 to 50000'),
});

export type ShoppingRequest = z.output<typeof schema>;

export interface ShoppingPlan extends WindowScope {
  readonly groupBy: readonly ShoppingDimension[];
  readonly interval: CalendarInterval;
  readonly metrics: readonly Metric[];
  readonly includeMerchants: boolean;
  readonly target: { readonly product: string; readonly competitors: number } | null;
  readonly filter: FilterNode | null;
}

/**
 * Prompt-level fields read the shopping answer (`f`, its prompt `p`); brand and merchant read the
 * product `pr`. A leaf is evaluated for one answer showing one product.
 */
const productFields: FilterCatalog = {
  brand: {
    ops: textOps,
    valueType: 'string',
    match: (op, values, scope) =>
      op === 'is' || op === 'in'
        ? sql`(pr.brand IN (${list(values)}) OR pr.brand IN (SELECT name FROM assets WHERE category_id = ${scope.categoryId ?? null} AND id IN (${list(values)})))`
        : textPredicate(sql`pr.brand`, op, values),
  },
  merchant: {
    ops: textOps,
    valueType: 'string',
    match: (op, values) => sql`EXISTS (SELECT 1 FROM product_merchants pm WHERE pm.product_id = pr.id AND ${textPredicate(sql`pm.name`, op, values)})`,
  },
};

export const shoppingFilterFields: FilterCatalog = {
  ...pickFields(promptFilterFields, { topic: 'all', region: 'all', persona: 'all', prompt: 'all', tag: 'all' }),
  ...productFields,
};

function metricsOf(req: ShoppingRequest): Metric[] {
  if (req.metrics) return [...new Set(req.metrics)];
  return req.include_merchants ? metricNames.filter((m) => !positionMetrics.includes(m)) : [...metricNames];
}

/** Metric values from the counts of one product in one group: shown, position_sum, at1..at3, executions. */
const ratioSql = {
  visibility_score: sql`shown / executions`,
  average_position: sql`position_sum / shown`,
  position1_percentage: sql`at1 / shown`,
  position2_percentage: sql`at2 / shown`,
  position3_percentage: sql`at3 / shown`,
  position_above3_percentage: sql`(shown - at1 - at2 - at3) / shown`,
} as const;

const rowValue: Record<Metric, Fragment> = {
  visibility_score: sql`m.visibility_score`,
  average_position: sql`m.average_position`,
  visibility_rank: sql`m.visibility_rank`,
  position1_percentage: sql`m.position1_percentage`,
  position2_percentage: sql`m.position2_percentage`,
  position3_percentage: sql`m.position3_percentage`,
  position_above3_percentage: sql`m.position_above3_percentage`,
  product_rating: sql`pr.rating`,
  product_num_reviews: sql`pr.num_reviews`,
};

/** Counts to metrics, ranked within each group by visibility, then position, then name and id. */
function scored(counts: string, dims: readonly ShoppingDimension[]): Fragment {
  const partition = dims.length > 0 ? sql`PARTITION BY ${join(dims.map((d) => keyColumn(d)), ', ')} ` : sql``;
  const ratios = join(Object.entries(ratioSql).map(([name, expr]) => sql`${expr} AS ${ident(name)}`), ', ');
  return sql`SELECT *, row_number() OVER (${partition}ORDER BY visibility_score DESC, average_position ASC, name, product_id) AS visibility_rank
  FROM (SELECT c.*, pr.name, ${ratios} FROM ${ident(counts)} c JOIN pr ON pr.id = c.product_id)`;
}

/**
 * Shopping: the products shown in shopping answers, ranked. The filter is read for each answer showing
 * a product, so a product's visibility is the share of the shopping answers the filter selects for it
 * (its denominator) that show it. Buckets (date, topic, prompt) partition answers, so the window's
 * counts are the sums of the buckets' counts (denominators over every bucket, shown in it or not).
 */
function compile(plan: ShoppingPlan) {
  const scope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const filter = filterPredicate(plan.filter, shoppingFilterFields, scope);
  const dims = plan.groupBy;
  const keys = dims.map((d) => groupKey(d, plan.interval));
  const keysSelect = keys.length > 0 ? sql`${join(keys, ', ')}, ` : sql``;
  const keyList = dims.map((d) => keyColumn(d));
  const byKeys = keyList.length > 0 ? sql`${join(keyList, ', ')}, ` : sql``;

  const target = plan.target
    ? sql`,
tp AS (SELECT id, brand FROM pr WHERE id = ${plan.target.product} OR name = ${plan.target.product}),
candidates AS (
  SELECT w.product_id, w.visibility_rank, w.product_id IN (SELECT id FROM tp) AS is_target,
         pr.brand IN (SELECT brand FROM tp) AS same_brand
  FROM w JOIN pr ON pr.id = w.product_id
  WHERE EXISTS (SELECT 1 FROM tp)
),
units AS (
  SELECT product_id, row_number() OVER (ORDER BY is_target DESC, visibility_rank) AS unit
  FROM (SELECT *, row_number() OVER (PARTITION BY same_brand ORDER BY visibility_rank) AS place FROM candidates)
  WHERE is_target OR (NOT same_brand AND place <= ${plan.target.competitors})
)`
    : sql`,
units AS (SELECT product_id, visibility_rank AS unit FROM w)`;

  // TRICKY: with a brand or merchant leaf (alone or inside or/not) the filter decides per product which
  // answers it selects, so the denominator pairs every shopping answer with every shown product; without
  // one, every product of a bucket shares the bucket's count of selected answers.
  const perProduct = plan.filter !== null && leaves(plan.filter).some((l) => Object.hasOwn(productFields, l.field));
  const pairedDenominators = sql`selected AS (
  SELECT ${keysSelect}pr.id AS product_id, count(*) AS executions
  FROM e f JOIN p ON p.id = f.prompt_id CROSS JOIN pr
  WHERE pr.id IN (SELECT product_id FROM hit) AND ${filter}
  GROUP BY ALL
)`;
  const sharedDenominators = sql`answers AS (
  SELECT ${keysSelect}count(*) AS executions FROM e f JOIN p ON p.id = f.prompt_id WHERE ${filter} GROUP BY ALL
),
selected AS (
  SELECT ${join([...dims.map((d) => keyColumn(d, 'a')), sql`pr.id AS product_id`, sql`a.executions`], ', ')}
  FROM answers a CROSS JOIN pr
  WHERE pr.id IN (SELECT product_id FROM hit)
)`;

  const ctes = sql`${promptsCte(plan.categoryId)},
pr AS (
  SELECT id, name, brand, rating, num_reviews, url, image_urls FROM products WHERE category_id = ${plan.categoryId}
),
e AS (
  SELECT DISTINCT f.execution_id, f.prompt_id, f.model_id, f.region_id, f.persona_id, f.day
  FROM shopping_results f
  WHERE ${inWindow(plan)}
),
hit AS (
  SELECT ${keysSelect}f.product_id, f.model_id, f.position
  FROM shopping_results f JOIN p ON p.id = f.prompt_id JOIN pr ON pr.id = f.product_id
  WHERE ${inWindow(plan)} AND ${filter}
),
shown AS (
  SELECT ${byKeys}product_id, count(*) AS shown, sum(position) AS position_sum,
         count(*) FILTER (WHERE position = 1) AS at1, count(*) FILTER (WHERE position = 2) AS at2, count(*) FILTER (WHERE position = 3) AS at3
  FROM hit GROUP BY ALL
),
${perProduct ? pairedDenominators : sharedDenominators},
bucket_counts AS (
  SELECT s.*, d.executions FROM shown s JOIN selected d ON d.product_id = s.product_id AND ${keysEqual(dims, 's', 'd')}
),
window_counts AS (
  SELECT s.*, d.executions
  FROM (SELECT product_id, sum(shown) AS shown, sum(position_sum) AS position_sum, sum(at1) AS at1, sum(at2) AS at2, sum(at3) AS at3 FROM shown GROUP BY product_id) s
  JOIN (SELECT product_id, sum(executions) AS executions FROM selected GROUP BY product_id) d USING (product_id)
),
w AS (${scored('window_counts', [])})${dims.length > 0 ? sql`,
b AS (${scored('bucket_counts', dims)})` : sql``}${target}`;

  const merchants = plan.includeMerchants
    ? [
        sql`'product_url', pr.url`,
        sql`'product_image_urls', pr.image_urls`,
        sql`'merchants', (SELECT coalesce(list(json_object('name', pm.name, 'price', pm.price) ORDER BY pm.name, pm.price), []) FROM product_merchants pm WHERE pm.product_id = pr.id)`,
      ]
    : [];
  const fields = [
    sql`'product', json_object('name', pr.name, 'brand', pr.brand)`,
    ...dimensionFields(dims, 'm'),
    ...plan.metrics.map((name) => sql`${key(name)}, ${rowValue[name]}`),
    ...merchants,
  ];
  const source = dims.length > 0 ? 'b' : 'w';
  const seq = dims.length > 0 ? sql`row_number() OVER (PARTITION BY u.unit ORDER BY ${join(dimensionOrder(dims, 'm'), ', ')})` : sql`0`;
  const rows = sql`SELECT u.unit, ${seq} AS seq, json_object(${join(fields, ', ')})::VARCHAR AS row
FROM units u
JOIN ${ident(source)} m ON m.product_id = u.product_id
JOIN pr ON pr.id = u.product_id
${dimensionJoins(dims, 'm')}`;

  const info = sql`SELECT json_object('models', ${modelNames('hit')})`;
  return { ctes, rows, info };
}

function check(req: ShoppingRequest, mode: 'page' | 'stream'): ValidationIssue[] {
  const issues = [...checkWindow(req), ...checkUnique(req.group_by, 'group_by'), ...checkUnique(req.metrics, 'metrics')];
  if (mode === 'stream') issues.push(...refuseFields(req, ['limit', 'cursor'], 'is not accepted by the stream, which sends every row (max_results caps them)'));
  if (req.include_merchants) {
    if (req.group_by && req.group_by.length > 0) issues.push(valueError(['body', 'group_by'], 'group_by is not available with include_merchants', req.group_by));
    if (req.target_product != null) issues.push(valueError(['body', 'target_product'], 'target_product cannot be combined with include_merchants', req.target_product));
    (req.metrics ?? []).forEach((m, i) => {
      if (positionMetrics.includes(m)) issues.push(valueError(['body', 'metrics', i], `${m} is not available with include_merchants`, m));
    });
  }
  issues.push(...readFilter(req.filter, shoppingFilterFields).issues);
  return issues;
}

export const shoppingProductsReport: PagedReport<ShoppingRequest, ShoppingPlan> = {
  id: 'shopping-products.v2',
  path: '/v2/reports/shopping/products',
  streamPath: '/v2/reports/shopping/products/stream',
  name: 'shoppingProducts',
  summary: 'Shopping products: visibility, position and rank of the products shown in shopping answers',
  tags: ['Reports v2'],
  schema,
  check,
  owned: categoryOwned,
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
      includeMerchants: req.include_merchants ?? false,
      target: req.target_product != null ? { product: req.target_product, competitors: req.competitor_limit ?? 5 } : null,
      filter: planFilter(req.filter, shoppingFilterFields),
    };
  },
  compile,
  info(plan, page) {
    return {
      total_results: page.total,
      count: page.count,
      next_cursor: page.nextCursor,
      models: page.sqlInfo.models ?? [],
      start_date: plan.startDate,
      end_date: plan.endDate,
      filter: echoFilter(plan.filter),
      include_merchants: plan.includeMerchants,
      metrics: plan.metrics,
    };
  },
};
