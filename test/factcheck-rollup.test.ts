import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { factcheckAnswers } from '../src/reports/insights/factcheck-rollup.ts';
import { factcheckReport } from '../src/reports/insights-v2/factcheck/factcheck.ts';
import { factcheckClaimsReport } from '../src/reports/insights-v2/factcheck/factcheck-claims.ts';
import { ids } from './fixtures/insights.ts';
import { answersAsFacts, rollupPair, rollupWindows } from './helpers/rollup-pair.ts';

const { engines, acrossEdit, readsV2, v2Text } = rollupPair(factcheckAnswers, [ids.cat1], {
  v2: factcheckReport,
  v2Name: 'factcheck',
});

const claims = rollupPair(factcheckAnswers, [ids.cat1], { v2: factcheckClaimsReport, v2Name: 'factcheckClaims' });

/** A fact-check filter: one leaf per field, joined by `and` when there are several. */
const leaf = fc.oneof(
  fc.constantFrom(...ids.models, 'ChatGPT', 'nope').map((value) => ({ field: 'model', op: 'is', value })),
  fc
    .uniqueArray(fc.constantFrom(...ids.models, 'Perplexity'), { minLength: 1, maxLength: 2 })
    .map((value) => ({ field: 'model', op: 'in', value })),
  fc.constantFrom(...ids.topics, 'Boots').map((value) => ({ field: 'topic', op: 'not_is', value })),
  fc.constantFrom(...ids.regions).map((value) => ({ field: 'region', op: 'is', value })),
);
const filter = fc
  .uniqueArray(leaf, { maxLength: 2, selector: (l) => l.field })
  .map((ls) => (ls.length === 0 ? null : ls.length === 1 ? ls[0] : { and: ls }));

/** A filter with a topic or region leaf reads the facts. */
const modelsOnly = (filter: unknown) => !/"field":"(topic|region)"/.test(JSON.stringify(filter));

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
