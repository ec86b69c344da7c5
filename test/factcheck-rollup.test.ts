import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { factcheckAnswers } from '../src/reports/insights/factcheck-rollup.ts';
import { factcheckReport } from '../src/reports/insights-v2/factcheck/factcheck.ts';
import { factcheckClaimsReport } from '../src/reports/insights-v2/factcheck/factcheck-claims.ts';
import { ids } from './fixtures/insights.ts';
import { answersAsFacts, modelOrPromptFilter, modelsOnly, rollupPair, rollupWindows } from './helpers/rollup-pair.ts';

const { engines, acrossEdit, readsV2, v2Text } = rollupPair(factcheckAnswers, [ids.cat1], {
  v2: factcheckReport,
  v2Name: 'factcheck',
});

const claims = rollupPair(factcheckAnswers, [ids.cat1], { v2: factcheckClaimsReport, v2Name: 'factcheckClaims' });

const filter = modelOrPromptFilter('in');

describe('the fact-check answers rollup', () => {
  it('gives every request it serves the models the facts give, and serves just those filtered by the model', async () => {
    await answersAsFacts(
      { engines, readsV2, v2Text },
      fc.record({
        filter,
        group_by: fc.constantFrom(
          [],
          ['date'],
          ['model'],
          ['date', 'model'],
          ['theme', 'date'],
          ['citation'],
          ['topic'],
        ),
        interval: fc.constantFrom('day', 'week', 'month'),
        window: fc.constantFrom(...rollupWindows),
      }),
      (r) => ({ group_by: r.group_by, interval: r.interval }),
      (r) => modelsOnly(r.filter),
    );
  });

  it('is not read once a prompt changes, and answers as the facts do once rebuilt', async () => {
    const body = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31', group_by: ['model'] };
    const { after } = await acrossEdit(body, {}, (engine) =>
      engine.org(ids.org1).call('PATCH', `/v1/org/categories/${ids.cat1}/prompts`, {
        body: { prompts: [{ id: ids.prompts[0], analysis_types: ['sentiment'] }] },
      }),
    );
    expect(await v2Text(engines.factsOnly, body)).not.toBe(after[0]);
  });
});

describe('the fact-check answers rollup, for the claims', () => {
  it('counts the answers claims divide by as the facts do, and serves just those filtered by the model, flat or by model or theme', async () => {
    await answersAsFacts(
      claims,
      fc.record({
        filter,
        group_by: fc.constantFrom(undefined, ['model'], ['topic'], ['theme']),
        include: fc.subarray(['theme', 'models', 'evidence', 'citation_sources']),
        window: fc.constantFrom(...rollupWindows),
      }),
      (r) => ({
        ...(r.group_by ? { group_by: r.group_by } : {}),
        // citation_sources is refused with a section.
        include: r.group_by ? r.include.filter((i) => i !== 'citation_sources') : r.include,
      }),
      (r) => r.group_by?.[0] !== 'topic' && modelsOnly(r.filter),
    );
  });
});
