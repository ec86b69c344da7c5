import { rollupTable, type RollupDef } from '../../engine/rollups.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';

/**
 * Fact-check's answers rollup: per category, ET day and model, the answers to the prompts carrying the accuracy
 * type. A fact-check page reads its window's answers only for the models that answered (`info.models`): a year
 * of one scale-10 category is 1.12 M executions read for 262,000 answers, and 2,920 rows here. Its keys keep the
 * facts' names, so windows and model filters compile over it unchanged. The prompts' types are folded in: a
 * prompt edit makes it stale.
 */
export const factcheckAnswers: RollupDef = {
  name: 'factcheck_answers',
  scope: { kind: 'category', prompts: `list_contains(analysis_types, 'accuracy')` },
  tables: {
    answers: `SELECT f.category_id, f.day, f.model_id, count(*) AS answers
FROM executions f JOIN p ON p.id = f.prompt_id
WHERE f.category_id = $scope
GROUP BY ALL ORDER BY day, model_id`,
  },
};

/** The window's answers (`f`, one row per day and model, `answers` of each) as fact-check and its claims read them. */
export const factcheckAnswersTable: Fragment = sql`${ident(rollupTable(factcheckAnswers, 'answers'))} f`;
