import { answersByDayAndModel } from './answers-rollup.ts';

/**
 * Fact-check's answers rollup: the answers to the prompts carrying the accuracy type, per category, ET day and
 * model. A fact-check page reads its window's answers only for the models that answered (`info.models`): a year
 * of one scale-10 category is 1.12 M executions read for 262,000 answers, and 2,920 rows here.
 */
export const factcheckAnswers = answersByDayAndModel('factcheck_answers', `list_contains(analysis_types, 'accuracy')`);
