import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answersDaily } from '../src/reports/insights/answers-rollup.ts';
import { promptAnswersReport } from '../src/reports/answers/prompt-answers.ts';
import { ids } from './fixtures/insights.ts';
import { answersAsFacts, rollupPair, rollupWindows } from './helpers/rollup-pair.ts';

const { engines, acrossEdit, readsV2, v2Text } = rollupPair(answersDaily, [ids.cat1], {
  v2: promptAnswersReport,
  v2Name: 'promptAnswers',
});

/** A prompt answers filter: one leaf per field, joined by `and` when there are several. */
const leaf = fc.oneof(
  fc.constantFrom(...ids.models, 'ChatGPT', 'nope').map((value) => ({ field: 'model', op: 'is', value })),
  fc
    .uniqueArray(fc.constantFrom(...ids.models, 'Perplexity'), { minLength: 1, maxLength: 2 })
    .map((value) => ({ field: 'model', op: 'not_in', value })),
  fc.constantFrom(...ids.topics, 'Boots').map((value) => ({ field: 'topic', op: 'not_is', value })),
  fc.constantFrom(...ids.regions).map((value) => ({ field: 'region', op: 'is', value })),
);
const filter = fc
  .uniqueArray(leaf, { maxLength: 2, selector: (l) => l.field })
  .map((ls) => (ls.length === 0 ? null : ls.length === 1 ? ls[0] : { and: ls }));

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
      (r) => !/"field":"(topic|region)"/.test(JSON.stringify(r.filter)),
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
