import { shoppingProductsReport } from '../../src/reports/insights-v2/shopping/shopping-products.ts';
import { shoppingDaily } from '../../src/reports/insights/shopping-rollup.ts';
import type { ReportCase } from '../lib/case.ts';
import { modelsHead, namedValues, v2Floor, type Envelope, type Row } from '../lib/floor.ts';
import { pagedPageBody, planProbe } from '../lib/plan-probe.ts';
import { requestMaker, windowDays } from '../lib/requests.ts';
import { v2Shape } from '../lib/v2-case.ts';
import {
  keyCols,
  keyFields,
  keyOrder,
  keyOutputs,
  keys,
  nameJoins,
  partitionBy,
  sameKeys,
  selectKeys,
  type FloorKey,
} from '../lib/v2-keys.ts';
import { warmCategoryRollups } from '../lib/warm-rollups.ts';

/**
 * Shopping products: the window series (products ranked over the window), by day, by week, by topic
 * with a region filter, and a stream by day × prompt. A category shows about 30 products, so there is
 * no page 50; pages hold at most 50 products.
 *
 * The floor: per bucket, each product's appearances and positions, over the distinct shopping answers
 * the filter keeps; products ranked over the window by visibility, then position, name and id, and
 * within each bucket the same way.
 */

function floorSql(ks: readonly FloorKey[], where: string): string {
  const metrics = (
    x: string,
  ) => `${x}.shown / ${x}.executions AS visibility_score, ${x}.pos / ${x}.shown AS average_position,
         ${x}.at1 / ${x}.shown AS p1, ${x}.at2 / ${x}.shown AS p2, ${x}.at3 / ${x}.shown AS p3, (${x}.shown - ${x}.at1 - ${x}.at2 - ${x}.at3) / ${x}.shown AS p4`;
  const head = `WITH p AS (SELECT id, topic_id FROM prompts WHERE category_id = $category),
pr AS (SELECT id, name, brand, rating, num_reviews FROM products WHERE category_id = $category),
e AS (
  SELECT ${selectKeys(ks)}f.execution_id, f.product_id, f.position, f.model_id, f.product_id IN (SELECT id FROM pr) AS ours
  FROM shopping_results f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $category AND f.day BETWEEN $start::DATE AND $end::DATE${where}
),
d AS (SELECT ${keyCols(ks)}count(DISTINCT execution_id) AS executions FROM e GROUP BY ALL),
s AS (
  SELECT ${keyCols(ks)}product_id, count(*) AS shown, sum(position) AS pos,
         count(*) FILTER (WHERE position = 1) AS at1, count(*) FILTER (WHERE position = 2) AS at2, count(*) FILTER (WHERE position = 3) AS at3
  FROM e WHERE ours GROUP BY ALL
),
w AS (
  SELECT product_id, sum(shown) AS shown, sum(pos) AS pos, sum(at1) AS at1, sum(at2) AS at2, sum(at3) AS at3, (SELECT sum(executions) FROM d) AS executions
  FROM s GROUP BY product_id
),
u AS (
  SELECT *, row_number() OVER (ORDER BY visibility_score DESC, average_position, name, product_id) AS rank
  FROM (SELECT w.product_id, pr.name, ${metrics('w')} FROM w JOIN pr ON pr.id = w.product_id)
)`;
  if (ks.length === 0) {
    return `${head},
rows AS (
  SELECT u.rank AS ord, 0 AS seq, pr.name, pr.brand, u.visibility_score, u.average_position, u.rank AS visibility_rank, u.p1, u.p2, u.p3, u.p4, pr.rating, pr.num_reviews
  FROM u JOIN pr ON pr.id = u.product_id
)`;
  }
  return `${head},
b AS (
  SELECT *, row_number() OVER (${partitionBy(ks)}ORDER BY visibility_score DESC, average_position, name, product_id) AS visibility_rank
  FROM (
    SELECT x.*, pr.name, ${metrics('x')}
    FROM (SELECT s.*, d.executions FROM s JOIN d ON TRUE${sameKeys(ks, 's', 'd')}) x JOIN pr ON pr.id = x.product_id
  )
),
rows AS (
  SELECT u.rank AS ord, row_number() OVER (PARTITION BY u.rank ORDER BY ${keyOrder(ks, 'b').join(', ')}) AS seq, ${keyOutputs(ks, 'b')}
         pr.name, pr.brand, b.visibility_score, b.average_position, b.visibility_rank, b.p1, b.p2, b.p3, b.p4, pr.rating, pr.num_reviews
  FROM b JOIN u ON u.product_id = b.product_id JOIN pr ON pr.id = b.product_id
  ${nameJoins(ks, 'b')}
)`;
}

const row = (ks: readonly FloorKey[]) => (r: Row) => ({
  product: { name: r.name, brand: r.brand },
  ...keyFields(ks, r),
  visibility_score: r.visibility_score,
  average_position: r.average_position,
  visibility_rank: r.visibility_rank,
  position1_percentage: r.p1,
  position2_percentage: r.p2,
  position3_percentage: r.p3,
  position_above3_percentage: r.p4,
  product_rating: r.rating,
  product_num_reviews: r.num_reviews,
});

const floor =
  (ks: readonly FloorKey[], where = '') =>
  (e: Envelope) =>
    v2Floor(floorSql(ks, where), { ...e, head: modelsHead('(SELECT model_id FROM e WHERE ours)') }, row(ks));

const make = requestMaker(v2Shape(10));
const unitedStates = { field: 'region', op: 'is', value: 'United States' };
const inUnitedStates = `\n    AND f.region_id = (SELECT id FROM regions WHERE name = 'United States')`;
const inputRows = `SELECT count(*) FROM shopping_results WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE`;

export const shoppingCase: ReportCase = {
  report: 'shopping',
  path: shoppingProductsReport.path,
  streamPath: shoppingProductsReport.streamPath!,
  plan: planProbe(shoppingProductsReport),
  pageBody: pagedPageBody(shoppingProductsReport),
  setup: warmCategoryRollups(shoppingDaily),
  categories: 'SELECT DISTINCT category_id FROM shopping_results',
  inputRows: { sql: inputRows, params: (p) => namedValues(inputRows, p) },
  requests: () => [
    ...windowDays.map((d) =>
      make({ id: `window-${d}`, label: `${d} d, products, page 1`, days: d, windowSeries: true }, floor([])),
    ),
    make({ id: 'date-30', label: '30 d by day', days: 30, body: { group_by: ['date'] } }, floor([keys.day])),
    make(
      {
        id: 'week-365',
        label: '365 d by week, 50 products',
        days: 365,
        body: { group_by: ['date'], interval: 'week', limit: 50 },
      },
      floor([keys.week]),
    ),
    make(
      {
        id: 'topic-region-90',
        label: '90 d by topic, one region',
        days: 90,
        body: { group_by: ['topic'], filter: unitedStates },
      },
      floor([keys.topic], inUnitedStates),
    ),
    make(
      {
        id: 'stream-date-prompt-365',
        label: 'stream: 365 d by day × prompt',
        days: 365,
        stream: true,
        body: { group_by: ['date', 'prompt'] },
      },
      floor([keys.day, keys.prompt]),
    ),
  ],
};
