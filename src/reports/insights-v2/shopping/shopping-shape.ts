import { field, object, repeated, value, type RowShape, type ScalarType, type ShapeField } from '../../../query/row-shape.ts';
import { sql, type Fragment } from '../../../query/sql.ts';
import { dimensionShape } from '../../insights/dimensions.ts';
import { partFields, type RatioPart } from '../../insights/ratio-parts.ts';
import type { Metric, ShoppingPlan } from './shopping-plan.ts';

/** A shopping row: its product, its groups, its metrics (each over the scored counts `m` and the product `pr`) and their parts. */

/** Each ratio's parts over the scored counts `m` (components). */
const ratioParts: Partial<Record<Metric, readonly [Fragment, Fragment]>> = {
  visibility_score: [sql`m.shown`, sql`m.executions`],
  average_position: [sql`m.position_sum`, sql`m.shown`],
  position1_percentage: [sql`m.at1`, sql`m.shown`],
  position2_percentage: [sql`m.at2`, sql`m.shown`],
  position3_percentage: [sql`m.at3`, sql`m.shown`],
  position_above3_percentage: [sql`m.shown - m.at1 - m.at2 - m.at3`, sql`m.shown`],
};

/** The ratio metrics of shopping, which components takes. */
export const shoppingRatios = Object.keys(ratioParts) as Metric[];

export const partsOf = (plan: ShoppingPlan): RatioPart[] =>
  plan.components ? plan.metrics.flatMap((m) => (ratioParts[m] ? [{ ratio: m, numerator: ratioParts[m][0], denominator: ratioParts[m][1] }] : [])) : [];

/** Each metric of a row over its scored counts `m` and its product `pr`, and how it is typed. */
export const metricColumns: Record<Metric, { readonly expr: Fragment; readonly type: ScalarType }> = {
  visibility_score: { expr: sql`m.visibility_score`, type: 'float' },
  average_position: { expr: sql`m.average_position`, type: 'float' },
  visibility_rank: { expr: sql`m.visibility_rank`, type: 'integer' },
  position1_percentage: { expr: sql`m.position1_percentage`, type: 'float' },
  position2_percentage: { expr: sql`m.position2_percentage`, type: 'float' },
  position3_percentage: { expr: sql`m.position3_percentage`, type: 'float' },
  position_above3_percentage: { expr: sql`m.position_above3_percentage`, type: 'float' },
  product_rating: { expr: sql`pr.rating`, type: 'float' },
  product_num_reviews: { expr: sql`pr.num_reviews`, type: 'integer' },
};

const merchantList = { list: { struct: [{ name: 'name', type: 'text' as const }, { name: 'price', type: 'text' as const }] } };

export function shapeOf(plan: ShoppingPlan): RowShape {
  const merchants: ShapeField[] = plan.includeMerchants
    ? [field('product_url', value('product_url', 'text')), field('product_image_urls', value('product_image_urls', { list: 'text' }, 'json')), field('merchants', value('merchants', merchantList, 'json'))]
    : [];
  return {
    fields: [
      field('product', object([field('name', repeated('product_name')), field('brand', repeated('product_brand'))])),
      ...dimensionShape(plan.groupBy),
      ...plan.metrics.map((m) => field(m, value(m, metricColumns[m].type))),
      ...partFields(partsOf(plan)),
      ...merchants,
    ],
  };
}

