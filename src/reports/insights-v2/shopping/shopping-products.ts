import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../../errors.ts';
import { laxBool, laxInt } from '../../../query/schema-types.ts';
import { v2Report, refuseIssues, refuseFields } from '../../v2-report.ts';
import {
  answerOver,
  checkUnique,
  checkWindow,
  cursorPaging,
  echoFilter,
  insightsFields,
  pageLimit,
  readFilter,
} from '../../insights/common.ts';
import {
  groupDims,
  metricNames,
  positionMetrics,
  shoppingFilterFields,
  type Metric,
  type ShoppingPlan,
} from './shopping-plan.ts';
import { compileShopping } from './shopping-sql.ts';
import { shoppingRatios } from './shopping-shape.ts';
import { ratioComponents, withParts } from '../../insights/ratio-parts.ts';
import { servedByShoppingDaily, shoppingDaily } from '../../insights/shopping-rollup.ts';

export { shoppingFilterFields, type ShoppingPlan } from './shopping-plan.ts';

const productFacts: readonly Metric[] = ['visibility_rank', 'product_rating', 'product_num_reviews'];

const schema = z.strictObject({
  ...insightsFields,
  group_by: z.array(z.enum(groupDims)).optional().nullable(),
  metrics: z.array(z.enum(metricNames)).min(1).optional().nullable(),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  include_merchants: laxBool().optional().describe('default false'),
  target_product: z
    .string()
    .min(1)
    .optional()
    .nullable()
    .describe('a product name or id: that product and its top competitors'),
  competitor_limit: laxInt(z.int().min(1)).optional().describe('default 5; used with target_product'),
  limit: pageLimit(50, 10),
  max_results: laxInt(z.int().min(1).max(50_000))
    .optional()
    .nullable()
    .describe('stream only: caps the rows, 1 to 50000'),
});

export type ShoppingRequest = z.output<typeof schema>;

function metricsOf(req: ShoppingRequest): Metric[] {
  if (req.metrics) return [...new Set(req.metrics)];
  return req.include_merchants ? metricNames.filter((m) => !positionMetrics.includes(m)) : [...metricNames];
}

function check(
  req: ShoppingRequest,
  mode: 'page' | 'stream',
  parsedFilter: ReturnType<typeof readFilter>,
): ValidationIssue[] {
  const issues = [
    ...checkWindow(req),
    ...checkUnique(req.group_by, 'group_by'),
    ...checkUnique(req.metrics, 'metrics'),
  ];
  if (mode === 'stream')
    issues.push(
      ...refuseFields(
        req,
        ['limit', 'cursor'],
        'is not accepted by the stream, which sends every row (max_results caps them)',
      ),
    );
  if (req.include_merchants) {
    if (req.group_by && req.group_by.length > 0)
      issues.push(valueError(['body', 'group_by'], 'group_by is not available with include_merchants', req.group_by));
    if (req.target_product != null)
      issues.push(
        valueError(
          ['body', 'target_product'],
          'target_product cannot be combined with include_merchants',
          req.target_product,
        ),
      );
    (req.metrics ?? []).forEach((m, i) => {
      if (positionMetrics.includes(m))
        issues.push(valueError(['body', 'metrics', i], `${m} is not available with include_merchants`, m));
    });
  }
  issues.push(...parsedFilter.issues);
  return issues;
}

export const shoppingProductsReport = v2Report<ShoppingRequest, ShoppingPlan, z.input<typeof schema>>({
  id: 'shopping-products.v2',
  path: '/v2/reports/shopping/products',
  streamPath: '/v2/reports/shopping/products/stream',
  name: 'shoppingProducts',
  summary: 'Shopping products: visibility, position and rank of the products shown in shopping answers',
  tags: ['Reports v2'],
  schema,
  rollups: (plan) => (servedByShoppingDaily(plan) ? [{ def: shoppingDaily, scopeId: plan.categoryId }] : []),
  paging: cursorPaging(10),
  read(req, ctx, mode) {
    const parsedFilter = readFilter(req.filter, shoppingFilterFields);
    refuseIssues(check(req, mode, parsedFilter));
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      groupBy: req.group_by ?? [],
      interval: req.interval ?? 'day',
      metrics: metricsOf(req),
      includeMerchants: req.include_merchants ?? false,
      target:
        req.target_product != null ? { product: req.target_product, competitors: req.competitor_limit ?? 5 } : null,
      filter: parsedFilter.node,
    };
  },
  compile: compileShopping,
  // A product's rating and reviews describe it in both windows alike; its rank is its place in its own.
  components: ratioComponents<ShoppingPlan>((plan) =>
    plan.groupBy.length > 0 && plan.metrics.includes('visibility_score')
      ? "visibility_score's denominator counts every answer of the row's bucket, while a product has rows only in the buckets that show it: ask for components without visibility_score, or without group_by"
      : null,
  ),
  answer: answerOver((plan) =>
    withParts(
      {
        keys: ['product_id', ...plan.groupBy.map((d) => `k_${d}`)],
        metrics: plan.metrics.filter((m) => !productFacts.includes(m)),
        places: ['visibility_rank'],
        about: ['product', 'product_rating', 'product_num_reviews', 'product_url', 'product_image_urls', 'merchants'],
        date: plan.groupBy.includes('date') ? { column: 'k_date', interval: plan.interval } : null,
      },
      plan.components ? plan.metrics.filter((m) => shoppingRatios.includes(m)) : [],
    ),
  ),
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
});
