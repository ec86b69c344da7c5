import { rollupTable } from '../../../engine/rollups.ts';
import { listHas, rowAlsoAsPrompt } from '../../../query/dialect.ts';
import { ident, sql, type Fragment } from '../../../query/sql.ts';
import { filterPredicate } from '../../insights/common.ts';
import { promptFilterFields } from '../../insights/dimensions.ts';
import type { VisibilityRollup } from '../../insights/visibility-rollup.ts';
import type { VisibilityPlan } from './visibility-plan.ts';

/**
 * The answers (`answers_by_key`, aliased `e`) and each brand's mentions (`mentions_by_key`, `m`) per group key, and the models with answers in scope
 * (`scope_models`, for the info), from the rollups or the facts.
 */
/** The window and filter over a fact or rollup row `f` (and its prompt `p`). */
export function visibilityWindow(plan: VisibilityPlan): Fragment {
  const filter = filterPredicate(plan.filter, promptFilterFields, {
    organizationId: plan.organizationId,
    categoryId: plan.categoryId,
  });
  return sql`f.category_id = ${plan.categoryId} AND f.day BETWEEN CAST(${plan.startDate} AS DATE) AND CAST(${plan.endDate} AS DATE) AND ${filter}`;
}

// TRICKY: a rollup that keeps the prompt's topic stands for its prompt `p` too, so keys and filters
// written over `p` read the row itself.
export const rollupFrom = (r: VisibilityRollup, table: string): Fragment =>
  r.promptKeys
    ? sql`${ident(rollupTable(r.def, table))} f${rowAlsoAsPrompt}`
    : sql`${ident(rollupTable(r.def, table))} f`;

/** The category's prompts that track visibility, as `visibility_prompts` (the facts join it as `p`). */
export const visibilityPrompts = (plan: VisibilityPlan): Fragment => sql`visibility_prompts AS (
  SELECT id, topic_id, tag_ids FROM prompts
  WHERE category_id = ${plan.categoryId} AND ${listHas(sql`analysis_types`, sql`'visibility'`)}
)`;

export function visibilitySources(
  plan: VisibilityPlan,
  rollups: { rows: VisibilityRollup; models: VisibilityRollup } | null,
  keysSelect: Fragment,
): Fragment {
  const window = visibilityWindow(plan);
  const from = rollupFrom;
  if (rollups) {
    return sql`answers_by_key AS (
  SELECT ${keysSelect}sum(f.executions) AS n
  FROM ${from(rollups.rows, 'executions')}
  WHERE ${window}
  GROUP BY ALL
),
mentions_by_key AS (
  SELECT ${keysSelect}f.asset_id, sum(f.mentions) AS mentions, sum(f.position_sum) AS position_sum
  FROM ${from(rollups.rows, 'mentions')}
  WHERE ${window}
  GROUP BY ALL
),
scope_models AS (
  SELECT DISTINCT f.model_id FROM ${from(rollups.models, 'executions')} WHERE ${window}
)`;
  }
  return sql`${visibilityPrompts(plan)},
answers_by_key AS (
  SELECT ${keysSelect}f.model_id, count(*) AS n
  FROM executions f JOIN visibility_prompts p ON p.id = f.prompt_id
  WHERE ${window}
  GROUP BY ALL
),
mentions_by_key AS (
  SELECT ${keysSelect}f.asset_id, count(*) AS mentions, sum(f.position) AS position_sum
  FROM mentions f JOIN visibility_prompts p ON p.id = f.prompt_id
  WHERE ${window}
  GROUP BY ALL
),
scope_models AS (SELECT DISTINCT model_id FROM answers_by_key)`;
}
