import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { visibilityRollups } from '../src/reports/insights/visibility-rollup.ts';
import { toWire } from '../src/query/filter-node.ts';
import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { filterArbitrary } from './helpers/filter-arbitrary.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';

/**
 * v2 visibility's lean page (small aggregates ranked in JS) against its one-statement page, the form
 * streams read: every page of random requests byte for byte, info and cursors included.
 */
const fixture = insightsFixture();
let lean: Engine;
let statement: Engine;
beforeAll(async () => {
  lean = await openFixture(fixture, { cursorSecret: 'lean' });
  statement = await openFixture(fixture, { cursorSecret: 'lean', leanPages: false });
  // Current rollups, so that grouped pages read them in the lean form (a grouped page from the facts reads one statement).
  for (const engine of [lean, statement])
    for (const r of visibilityRollups) await engine.core.rollups.warm(r.def, [ids.cat1]);
});
afterAll(async () => {
  await lean.close();
  await statement.close();
});

const pools = {
  model: { exact: [...ids.models, 'ChatGPT', ''], text: ['', 'a', 'GPT'] },
  region: { exact: [...ids.regions, 'Germany', 'Nowhere'], text: ['e'] },
  persona: { exact: [...ids.personas, 'Hiker', ids.foreign.persona], text: ['H'] },
  topic: { exact: [...ids.topics, 'Boots'], text: ['%', 'boots'] },
  prompt: { exact: [...ids.prompts, 'Cheap boots'], text: ["'", 'boots'] },
  tag: { exact: [...ids.tags, 'alpha', ''], text: ['a'] },
};

type Body = Record<string, unknown>;

async function pagesOf(engine: Engine, body: Body, components: boolean): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const page = (await engine.org(ids.org1).report('visibility')(
      { ...body, ...(cursor ? { cursor } : {}) },
      { components },
    )) as { info: { next_cursor: string | null } };
    out.push(JSON.stringify(page));
    cursor = page.info.next_cursor;
  } while (cursor && out.length < 200);
  return out;
}

describe('v2 visibility: the lean page equals the one-statement page', () => {
  it('byte for byte, over random groupings, filters, scopes, sorts, page sizes and components', async () => {
    let rows = 0;
    const request = fc.record({
      filter: fc.option(filterArbitrary(promptFilterFields, pools, 2), { nil: null }),
      group_by: fc.oneof(
        fc.subarray(['date', 'model', 'region'], { maxLength: 3 }),
        fc.subarray(['date', 'topic', 'region'], { minLength: 1, maxLength: 3 }),
        fc.subarray(['date', 'model', 'topic', 'region', 'prompt', 'persona'], { maxLength: 3 }),
      ),
      interval: fc.constantFrom('day', 'week', 'month'),
      scope: fc.constantFrom('owned', 'all'),
      metrics: fc.option(fc.subarray(['visibility_score', 'share_of_voice', 'average_position'], { minLength: 1 }), {
        nil: undefined,
      }),
      dir: fc.option(fc.constantFrom('asc', 'desc'), { nil: undefined }),
      assets: fc.option(
        fc.constantFrom<unknown>(
          'Acme',
          ['Brandy', 'Zeta'],
          { op: 'not_in', value: ['Acme'] },
          {
            op: 'is',
            value: ids.assets[1]!,
          },
        ),
        { nil: undefined },
      ),
      window: fc.constantFrom(
        ['2026-02-20', '2026-12-31'],
        ['2026-03-08', '2026-03-08'],
        ['2026-11-01', '2026-11-02'],
        ['2026-04-01', '2026-05-15'],
      ),
      limit: fc.integer({ min: 1, max: 50 }),
      components: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const metrics = r.metrics ?? ['visibility_score', 'share_of_voice', 'average_position'];
        const body: Body = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          group_by: r.group_by,
          interval: r.interval,
          scope: r.scope,
          ...(r.filter ? { filter: toWire(r.filter) } : {}),
          limit: r.limit,
          ...(r.metrics ? { metrics: r.metrics } : {}),
          ...(r.dir ? { sort: { field: metrics.at(-1), dir: r.dir } } : {}),
          ...(r.assets ? { assets: r.assets } : {}),
        };
        const expected = await pagesOf(statement, body, r.components);
        expect(await pagesOf(lean, body, r.components)).toEqual(expected);
        rows += expected.reduce((n, p) => n + (JSON.parse(p) as { data: unknown[] }).data.length, 0);
      }),
      {
        numRuns: 30,
        // A long window by date and model answers many rows whatever the random draws, so the rows guard below
        // holds on every seed.
        examples: [
          [
            {
              filter: null,
              group_by: ['date', 'model'],
              interval: 'week',
              scope: 'all',
              metrics: undefined,
              dir: undefined,
              assets: undefined,
              window: ['2026-02-20', '2026-12-31'],
              limit: 50,
              components: false,
            },
          ],
        ],
      },
    );
    expect(rows).toBeGreaterThan(40);
    expect(lean.core.stats.leanPages).toBeGreaterThan(4);
  });

  it('explain shows the small statements; a grouped page from the facts is one statement; edits keep the two equal', async () => {
    const window = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31', scope: 'all' };
    const roles = async (groupBy: string[]) =>
      (
        (await lean.org(ids.org1).report('visibility')({ ...window, group_by: groupBy }, { explain: true })) as {
          explain: { statements: { role: string; sql: string }[] };
        }
      ).explain.statements.map((s) => s.role);
    const leanRole = 'page (lean: then ranked and cut in JS)';
    expect(await roles([])).toEqual([leanRole]);
    expect(await roles(['date', 'model'])).toEqual([`${leanRole} (1 of 2)`, `${leanRole} (2 of 2)`]);
    expect(await roles(['prompt'])).toEqual(['page']);
    const same = async (groupBy: string[]) => {
      const [a, b] = await Promise.all(
        [lean, statement].map(async (e) =>
          JSON.stringify(await e.org(ids.org1).report('visibility')({ ...window, group_by: groupBy, limit: 50 })),
        ),
      );
      // The fingerprints differ: each engine's state store holds its own edit times.
      const unprinted = (text: string) => text.replace(/"fingerprint":"[^"]*"/, '');
      expect(unprinted(a!), JSON.stringify(groupBy)).toBe(unprinted(b!));
    };
    for (const edit of [
      { id: ids.prompts[0], prompt: 'Renamed for the lean page' },
      { id: ids.prompts[1], topic: ids.topics[1] },
      { id: ids.prompts[2], analysis_types: ['sentiment'] },
    ]) {
      for (const e of [lean, statement])
        await e.org(ids.org1).call('PATCH', `/v1/org/categories/${ids.cat1}/prompts`, { body: { prompts: [edit] } });
      for (const groupBy of [[], ['model'], ['topic'], ['date', 'region']]) await same(groupBy);
    }
  });
});

describe('v2 visibility: past leanAnswerRows the groups are not few', () => {
  it('reads the page through the one-statement form, with the same bytes', async () => {
    const [on, off] = [
      await openFixture(fixture, { cursorSecret: 'few', leanAnswerRows: 10 }),
      await openFixture(fixture, { cursorSecret: 'few', leanPages: false }),
    ];
    try {
      for (const engine of [on, off])
        for (const r of visibilityRollups) await engine.core.rollups.warm(r.def, [ids.cat1]);
      const page = async (engine: Engine, groupBy: string[]) =>
        JSON.stringify(
          await engine.org(ids.org1).report('visibility')({
            category_id: ids.cat1,
            start_date: '2026-02-20',
            end_date: '2026-12-31',
            group_by: groupBy,
            scope: 'all',
            limit: 20,
          }),
        );
      const explained = (await on.org(ids.org1).report('visibility')(
        {
          category_id: ids.cat1,
          start_date: '2026-02-20',
          end_date: '2026-12-31',
          group_by: ['date', 'model', 'region'],
        },
        { explain: true },
      )) as { explain: { statements: { sql: string; params: unknown[] }[] } };
      expect(explained.explain.statements[0]!.sql).toMatch(/LIMIT \$\d+$/);
      expect(explained.explain.statements[0]!.params.at(-1)).toBe(11);
      expect(await page(on, ['date', 'model', 'region'])).toBe(await page(off, ['date', 'model', 'region']));
      expect(on.core.stats.leanFallbacks).toBe(1);
      expect(await page(on, ['model'])).toBe(await page(off, ['model']));
      expect(on.core.stats.leanFallbacks).toBe(1);
      await expect(openFixture(fixture, { leanAnswerRows: 0 })).rejects.toThrow(
        /leanAnswerRows must be a positive integer/,
      );
    } finally {
      await on.close();
      await off.close();
    }
  });
});
