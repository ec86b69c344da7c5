import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answersDaily } from '../src/reports/insights/answers-rollup.ts';
import { promptAnswersReport } from '../src/reports/answers/prompt-answers.ts';
import { ids } from './fixtures/insights.ts';
import { answersAsFacts, modelOrPromptFilter, modelsOnly, rollupPair, rollupWindows } from './helpers/rollup-pair.ts';

const { engines, acrossEdit, readsV2, v2Text } = rollupPair(answersDaily, [ids.cat1], {
  v2: promptAnswersReport,
  v2Name: 'promptAnswers',
});

const filter = modelOrPromptFilter('not_in');

describe('the answers rollup', () => {
  it('counts prompt answers as the facts do (every page, the total, the models), and serves just the requests filtered by the model', async () => {
    await answersAsFacts(
      { engines, readsV2, v2Text },
      fc.record({
        filter,
        include: fc.subarray(['run_id', 'date', 'model', 'prompt', 'mentions'] as const, { minLength: 1 }),
        window: fc.constantFrom(...rollupWindows),
      }),
      (r) => ({ include: r.include }),
      (r) => modelsOnly(r.filter),
    );
  });

  it('is not read once a prompt changes, and answers as the facts do once rebuilt', async () => {
    const body = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };
    const { after } = await acrossEdit(body, {}, (engine) =>
      engine.org(ids.org1).call('PATCH', `/v1/org/categories/${ids.cat1}/prompts`, {
        body: { prompts: [{ id: ids.prompts[0], analysis_types: ['sentiment'] }] },
      }),
    );
    expect(await v2Text(engines.factsOnly, body)).not.toBe(after[0]);
  });
});
