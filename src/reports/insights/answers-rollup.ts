import { rollupTable, type RollupDef } from '../../engine/rollups.ts';
import { leaves, type FilterNode } from '../../query/filter-node.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';

/**
 * The answers rollup: per category, ET day and model, the answers to the category's prompts. Prompt answers
 * counts its window's answers per day and model (the total, `info.models`, the days a page reads): a year of
 * one scale-10 category is 1.12 M executions read and joined to the prompts, against 2,920 rows here. Its keys
 * keep the facts' names, so windows and model filters compile over it unchanged. The prompts are folded in:
 * a prompt edit makes it stale.
 */
export const answersDaily: RollupDef = {
  name: 'answers_daily',
  scope: { kind: 'category', prompts: 'TRUE' },
  tables: {
    answers: `SELECT f.category_id, f.day, f.model_id, count(*) AS answers
FROM executions f JOIN p ON p.id = f.prompt_id
WHERE f.category_id = $scope
GROUP BY ALL ORDER BY day, model_id`,
  },
};

/** A rollup keyed by day and model answers a filter that reads the model alone, or no filter. */
export const readsModelAlone = (filter: FilterNode | null): boolean =>
  (filter ? leaves(filter).map((l) => l.field) : []).every((f) => f === 'model');

/** The window's answers (`f`, one row per day and model, `answers` of each). */
export const answersDailyTable: Fragment = sql`${ident(rollupTable(answersDaily, 'answers'))} f`;
