import { jsonText, orderedList, semiJoin, struct } from '../../../query/dialect.ts';
import { leaves } from '../../../query/filter-node.ts';
import { ident, join, sql, type Fragment } from '../../../query/sql.ts';
import { declaredRank } from '../../../query/measure-sql.ts';
import type { ShapedReport, UnitRange } from '../../rows-query.ts';
import { filterPredicate } from '../../insights/common.ts';
import {
  dimensionColumns,
  dimensionJoins,
  dimensionOrder,
  groupKey,
  keyColumn,
  keysEqual,
} from '../../insights/dimensions.ts';
import { partColumns } from '../../insights/ratio-parts.ts';
import { modelNames, inWindow, promptsCte } from '../../insights/scope.ts';
import { productFields, shoppingFilterFields, type ShoppingDimension, type ShoppingPlan } from './shopping-plan.ts';
import { countParts, metricColumns, partsOf, shapeOf, shoppingDeclared } from './shopping-shape.ts';
import {
  rolledAnswers,
  rolledCounts,
  rolledShoppingFacts,
  servedByShoppingDaily,
  shoppingDaily,
} from '../../insights/shopping-rollup.ts';

const productRank = declaredRank('visibility_rank (product rank)', 'visibility_rank');
/** Metric values from the counts of one product in one group: shown, position_sum, at1..at3, executions. */
const ratioSql = Object.fromEntries(
  Object.entries(shoppingDeclared).map(([name, metric]) => [name, metric.sql(countParts())]),
);

/** Counts to metrics, ranked within each group by visibility, then position, then name and id (when `ranked`). */
function scored(counts: string, dims: readonly ShoppingDimension[], ranked: boolean): Fragment {
  const partition =
    dims.length > 0
      ? sql`PARTITION BY ${join(
          dims.map((d) => keyColumn(d)),
          ', ',
        )} `
      : sql``;
  const ratios = join(
    Object.entries(ratioSql).map(([name, expr]) => sql`${expr} AS ${ident(name)}`),
    ', ',
  );
  const metrics = sql`SELECT c.*, pr.name, ${ratios} FROM ${ident(counts)} c JOIN category_products pr ON pr.id = c.product_id`;
  if (!ranked) return metrics;
  const order = productRank.order(
    { visibility_score: sql`visibility_score`, average_position: sql`average_position` },
    [sql`name`, sql`product_id`],
  );
  return sql`SELECT *, row_number() OVER (${partition}ORDER BY ${join(order, ', ')}) AS visibility_rank
  FROM (${metrics})`;
}

const counts = sql`count(*) AS shown, sum(position) AS position_sum,
         count(*) FILTER (WHERE position = 1) AS at1, count(*) FILTER (WHERE position = 2) AS at2, count(*) FILTER (WHERE position = 3) AS at3`;

/**
 * Shopping: the products shown in shopping answers, ranked. The filter is read for each answer showing
 * a product, so a product's visibility is the share of the shopping answers the filter selects for it
 * (its denominator) that show it. Buckets (date, topic, prompt) partition answers, so a product's
 * window counts are its counts over all its buckets. A product is a page unit; its rows (one per bucket
 * it is shown in) are counted, scored and built only for the products of the range, and the other
 * products only in the buckets a bucket rank compares them in.
 */
export function compileShopping(plan: ShoppingPlan, rollups: ReadonlySet<string>): ShapedReport {
  const rolled = rollups.has(shoppingDaily.name) && servedByShoppingDaily(plan);
  const tally = rolled ? rolledCounts : counts;
  const filter = filterPredicate(plan.filter, shoppingFilterFields, {
    organizationId: plan.organizationId,
    categoryId: plan.categoryId,
  });
  const dims = plan.groupBy;
  const keysSelect =
    dims.length > 0
      ? sql`${join(
          dims.map((d) => groupKey(d, plan.interval)),
          ', ',
        )}, `
      : sql``;
  const keyList = join(
    dims.map((d) => keyColumn(d)),
    ', ',
  );

  // TRICKY: with a brand or merchant leaf (alone or inside or/not) the filter decides per product which
  // answers it selects, so the denominator pairs every shopping answer with every shown product; without
  // one, every product of a bucket shares the bucket's count of selected answers, and one scan gives both
  // the shown products and the answers (a prompt-level filter holds for every result of an answer alike).
  const perProduct = plan.filter !== null && leaves(plan.filter).some((l) => Object.hasOwn(productFields, l.field));
  const facts = rolled
    ? rolledShoppingFacts(plan, keysSelect)
    : perProduct
      ? sql`shopping_answers AS (
  SELECT DISTINCT f.execution_id, f.prompt_id, f.model_id, f.region_id, f.persona_id, f.day
  FROM shopping_results f
  WHERE ${inWindow(plan)}
),
hit AS (
  SELECT ${keysSelect}f.product_id, f.model_id, f.position
  FROM shopping_results f JOIN scope_prompts p ON p.id = f.prompt_id JOIN category_products pr ON pr.id = f.product_id
  WHERE ${inWindow(plan)} AND ${filter}
),
selected AS (
  SELECT ${keysSelect}pr.id AS product_id, count(*) AS executions
  FROM shopping_answers f JOIN scope_prompts p ON p.id = f.prompt_id CROSS JOIN category_products pr
  WHERE pr.id IN (SELECT DISTINCT product_id FROM hit) AND ${filter}
  GROUP BY ALL
),
window_counts AS (
  SELECT s.*, d.executions
  FROM (SELECT product_id, ${counts} FROM hit GROUP BY product_id) s
  JOIN (SELECT product_id, sum(executions) AS executions FROM selected GROUP BY product_id) d USING (product_id)
)`
      : sql`scoped_results AS (
  SELECT ${keysSelect}f.execution_id, f.product_id, f.model_id, f.position
  FROM shopping_results f JOIN scope_prompts p ON p.id = f.prompt_id
  WHERE ${inWindow(plan)} AND ${filter}
),
hit AS (SELECT * FROM scoped_results WHERE product_id IN (SELECT id FROM category_products)),
window_counts AS (
  SELECT product_id, ${counts}, (SELECT count(DISTINCT execution_id) FROM scoped_results) AS executions FROM hit GROUP BY product_id
)`;

  const units = plan.target
    ? sql`target_product AS (SELECT id, brand FROM category_products WHERE id = ${plan.target.product} OR name = ${plan.target.product}),
candidates AS (
  SELECT w.product_id, w.visibility_rank, w.product_id IN (SELECT id FROM target_product) AS is_target,
         pr.brand IN (SELECT brand FROM target_product) AS same_brand
  FROM window_scores w JOIN category_products pr ON pr.id = w.product_id
  WHERE EXISTS (SELECT 1 FROM target_product)
),
units AS (
  SELECT product_id, row_number() OVER (ORDER BY is_target DESC, visibility_rank) AS unit
  FROM (SELECT *, row_number() OVER (PARTITION BY same_brand ORDER BY visibility_rank) AS place FROM candidates)
  WHERE is_target OR (NOT same_brand AND place <= ${plan.target.competitors})
)`
    : sql`units AS (SELECT product_id, visibility_rank AS unit FROM window_scores)`;

  const ctes = sql`${promptsCte(plan.categoryId)},
category_products AS (
  SELECT id, name, brand, rating, num_reviews, url, image_urls FROM products WHERE category_id = ${plan.categoryId}
),
${facts},
window_scores AS (${scored('window_counts', [], true)}),
${units}`;

  const inRange = (range: UnitRange) =>
    sql`u.unit > ${range.after}${range.upTo === null ? sql`` : sql` AND u.unit <= ${range.upTo}`}`;
  const merchantColumns = plan.includeMerchants
    ? sql`, pr.url AS product_url, ${jsonText(sql`pr.image_urls`)} AS product_image_urls,
       ${jsonText(sql`coalesce(pmx.merchants, [])`)} AS merchants`
    : sql``;
  const merchantJoin = plan.includeMerchants
    ? sql`
LEFT JOIN (
  SELECT pm.product_id, ${orderedList(
    struct([
      ['name', sql`pm.name`],
      ['price', sql`pm.price`],
    ]),
    [{ by: sql`pm.name` }, { by: sql`pm.price` }],
  )} AS merchants
  FROM product_merchants pm WHERE pm.product_id IN (SELECT id FROM category_products) GROUP BY pm.product_id
) pmx ON pmx.product_id = pr.id`
    : sql``;
  const columns = sql`${plan.keyed ? sql`pr.id AS product_id, ` : sql``}pr.name AS product_name, pr.brand AS product_brand, ${join(
    [
      ...dimensionColumns(dims, 'm'),
      ...plan.metrics.map((name) => sql`${metricColumns[name].expr} AS ${ident(name)}`),
      ...partColumns(partsOf(plan)),
    ],
    ', ',
  )}${merchantColumns}`;

  const rows = (range: UnitRange): Fragment => {
    if (dims.length === 0) {
      return sql`SELECT u.unit, 0 AS seq, ${columns}
FROM units u
JOIN window_scores m ON m.product_id = u.product_id
JOIN category_products pr ON pr.id = u.product_id${merchantJoin}
WHERE ${inRange(range)}`;
    }
    // A bucket's rank compares every product shown in it, so the buckets of the range's products are
    // counted for every product; without the rank, only the range's products are counted.
    const ranked = plan.metrics.includes('visibility_rank');
    const denominator = perProduct
      ? sql`JOIN selected d ON d.product_id = s.product_id AND ${keysEqual(dims, 's', 'd')}`
      : sql`JOIN (SELECT ${keyList}, ${rolled ? rolledAnswers : sql`count(DISTINCT execution_id)`} AS executions FROM scoped_results x ${semiJoin} page_buckets pk ON ${keysEqual(dims, 'x', 'pk')} GROUP BY ALL) d ON ${keysEqual(dims, 's', 'd')}`;
    return sql`WITH page_products AS (SELECT u.product_id, u.unit FROM units u WHERE ${inRange(range)}),
page_buckets AS (SELECT DISTINCT ${keyList} FROM hit WHERE product_id IN (SELECT product_id FROM page_products)),
shown AS (
  SELECT ${keyList}, product_id, ${tally}
  FROM hit h ${ranked ? sql`${semiJoin} page_buckets pk ON ${keysEqual(dims, 'h', 'pk')}` : sql`WHERE h.product_id IN (SELECT product_id FROM page_products)`}
  GROUP BY ALL
),
bucket_counts AS (SELECT s.*, d.executions FROM shown s ${denominator}),
bucket_scores AS (${scored('bucket_counts', dims, ranked)})
SELECT u.unit, row_number() OVER (PARTITION BY u.unit ORDER BY ${join(dimensionOrder(dims, 'm'), ', ')}) AS seq, ${columns}
FROM bucket_scores m
JOIN page_products u ON u.product_id = m.product_id
JOIN category_products pr ON pr.id = m.product_id${merchantJoin}
${dimensionJoins(dims, 'm')}`;
  };

  return {
    ctes,
    shape: shapeOf(plan),
    rows,
    total: sql`SELECT count(*) FROM units`,
    info: sql`SELECT ${modelNames('hit')} AS models`,
    // Products rank by whole-window counts and a bucket ranks every product shown in it, so each slice would
    // redo most of the statement: the stream is one statement of (products × their buckets) rows.
    sliceUnits: Number.POSITIVE_INFINITY,
    unitRows:
      dims.length === 0
        ? sql`SELECT unit, 1 AS n FROM units`
        : sql`SELECT u.unit, count(*) AS n FROM units u JOIN (SELECT DISTINCT ${keyList}, product_id FROM hit) s ON s.product_id = u.product_id GROUP BY u.unit`,
  };
}
