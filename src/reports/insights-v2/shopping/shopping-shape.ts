import {
  field,
  object,
  repeated,
  value,
  type RowShape,
  type ScalarType,
  type ShapeField,
} from '../../../query/row-shape.ts';
import { ident, sql, type Fragment } from '../../../query/sql.ts';
import { declaredMetric, type DeclaredMetric, type PartsSql } from '../../../query/metric-sql.ts';
import { dimensionShape } from '../../insights/dimensions.ts';
import { partFields, type RatioPart } from '../../insights/ratio-parts.ts';
import type { Metric, ShoppingPlan } from './shopping-plan.ts';

/** A shopping row: its product, its groups, its metrics (each over the scored counts `m` and the product `pr`) and their parts. */

/** The ratio metrics of shopping, as src/model/metrics.ts declares them. */
export const shoppingDeclared = {
  visibility_score: declaredMetric('shopping visibility_score', 'visibility_score'),
  average_position: declaredMetric('shopping average_position', 'average_position'),
  ...Object.fromEntries(
    (
      ['position1_percentage', 'position2_percentage', 'position3_percentage', 'position_above3_percentage'] as const
    ).map((m) => [m, declaredMetric('position1_percentage … position3_percentage, position_above3_percentage', m)]),
  ),
} as Readonly<
  Record<
    | 'visibility_score'
    | 'average_position'
    | 'position1_percentage'
    | 'position2_percentage'
    | 'position3_percentage'
    | 'position_above3_percentage',
    DeclaredMetric
  >
>;

/** A product's counts in a group, as columns of `alias` (none: bare names); its answers are the group's shopping answers. */
export const countParts = (alias?: string): PartsSql => {
  const column = (name: string) => (alias ? sql`${ident(alias)}.${ident(name)}` : ident(name));
  return {
    shown: column('shown'),
    answers: column('executions'),
    position_sum: column('position_sum'),
    at1: column('at1'),
    at2: column('at2'),
    at3: column('at3'),
  };
};

/** The ratio metrics of shopping, which components takes. */
export const shoppingRatios = Object.keys(shoppingDeclared) as Metric[];

export const partsOf = (plan: ShoppingPlan): RatioPart[] =>
  plan.components
    ? plan.metrics.flatMap((m) =>
        m in shoppingDeclared
          ? [{ ratio: m, ...shoppingDeclared[m as keyof typeof shoppingDeclared].terms(countParts('m')) }]
          : [],
      )
    : [];

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

const merchantList = {
  list: {
    struct: [
      { name: 'name', type: 'text' as const },
      { name: 'price', type: 'text' as const },
    ],
  },
};

export function shapeOf(plan: ShoppingPlan): RowShape {
  const merchants: ShapeField[] = plan.includeMerchants
    ? [
        field('product_url', value('product_url', 'text')),
        field('product_image_urls', value('product_image_urls', { list: 'text' }, 'json')),
        field('merchants', value('merchants', merchantList, 'json')),
      ]
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
