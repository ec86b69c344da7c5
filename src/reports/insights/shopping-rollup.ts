import { rollupTable, type RollupDef } from '../../engine/rollups.ts';
import { bigintOrNull } from '../../query/dialect.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';
import { inWindow, type WindowScope } from './scope.ts';

/**
 * Shopping's daily rollup: per category, ET day, model and product, the results showing it (`shown`),
 * their position sum and those at positions 1, 2 and 3; and per category and day the shopping answers
 * (distinct executions with a result). An answer has one day, so the day's distinct answers add up
 * exactly over any window or date bucket. Prompt-level keys and filters (topic, prompt, region, persona,
 * tag) are left out: with the prompt it would keep 94% of the results at scale 1. The prompts are folded
 * in (a result counts while its prompt is current), so a prompt edit makes it stale.
 */
export const shoppingDaily: RollupDef = {
  name: 'shopping_daily',
  scope: { kind: 'category', prompts: 'TRUE' },
  tables: {
    results: `SELECT f.category_id, f.day, f.model_id, f.product_id, count(*) AS shown, sum(f.position) AS position_sum,
       count(*) FILTER (WHERE f.position = 1) AS at1, count(*) FILTER (WHERE f.position = 2) AS at2, count(*) FILTER (WHERE f.position = 3) AS at3
FROM shopping_results f JOIN p ON p.id = f.prompt_id
WHERE f.category_id = $scope
GROUP BY ALL ORDER BY day, product_id`,
    answers: `SELECT f.category_id, f.day, count(DISTINCT f.execution_id) AS answers
FROM shopping_results f JOIN p ON p.id = f.prompt_id
WHERE f.category_id = $scope
GROUP BY ALL ORDER BY day`,
  },
};

/** The rollup answers unfiltered requests that group by date or not at all. */
export const servedByShoppingDaily = (plan: {
  readonly groupBy: readonly string[];
  readonly filter: unknown;
}): boolean => plan.filter === null && plan.groupBy.every((d) => d === 'date');

/** A product's counts in a group, over relation `hit` of the rollup's rows (as `counts` is over result rows). */
export const rolledCounts = sql`CAST(sum(w_shown) AS BIGINT) AS shown, sum(w_position) AS position_sum,
         CAST(sum(w_at1) AS BIGINT) AS at1, CAST(sum(w_at2) AS BIGINT) AS at2, CAST(sum(w_at3) AS BIGINT) AS at3`;

/** A group's shopping answers, over relation `scoped_results` of the rollup's answers. */
export const rolledAnswers = bigintOrNull(sql`sum(answers)`);

/**
 * The CTEs `scoped_results` (answers per day), `hit` (the category's products' counts per day and model) and
 * `window_counts` (each product's counts over the window), read from the rollup.
 */
export function rolledShoppingFacts(plan: WindowScope, keysSelect: Fragment): Fragment {
  const table = (name: string) => sql`${ident(rollupTable(shoppingDaily, name))} f`;
  return sql`scoped_results AS (
  SELECT ${keysSelect}f.answers FROM ${table('answers')} WHERE ${inWindow(plan)}
),
hit AS (
  SELECT ${keysSelect}f.product_id, f.model_id, f.shown AS w_shown, f.position_sum AS w_position, f.at1 AS w_at1, f.at2 AS w_at2, f.at3 AS w_at3
  FROM ${table('results')}
  WHERE ${inWindow(plan)} AND f.product_id IN (SELECT id FROM category_products)
),
window_counts AS (
  SELECT product_id, ${rolledCounts}, (SELECT ${rolledAnswers} FROM scoped_results) AS executions FROM hit GROUP BY product_id
)`;
}
