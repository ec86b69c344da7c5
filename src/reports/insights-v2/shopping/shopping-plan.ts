import type { FilterCatalog } from '../../../query/filter-compiler.ts';
import { textOps, textPredicate } from '../../../query/filter-fields.ts';
import type { FilterNode } from '../../../query/filter-node.ts';
import { list, sql } from '../../../query/sql.ts';
import type { CalendarInterval } from '../../../query/time.ts';
import { promptFilterFields } from '../../insights/dimensions.ts';
import { pickFields, type WindowScope } from '../../insights/scope.ts';

export const metricNames = [
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
export type Metric = (typeof metricNames)[number];

export const positionMetrics: readonly Metric[] = [
  'position1_percentage',
  'position2_percentage',
  'position3_percentage',
  'position_above3_percentage',
];
export const groupDims = ['date', 'topic', 'prompt'] as const;
export type ShoppingDimension = (typeof groupDims)[number];

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
export const productFields: FilterCatalog = {
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
    match: (op, values) =>
      sql`EXISTS (SELECT 1 FROM product_merchants pm WHERE pm.product_id = pr.id AND ${textPredicate(sql`pm.name`, op, values)})`,
  },
};

export const shoppingFilterFields: FilterCatalog = {
  ...pickFields(promptFilterFields, { topic: 'all', region: 'all', persona: 'all', prompt: 'all', tag: 'all' }),
  ...productFields,
};
