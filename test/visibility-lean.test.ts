import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
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
      filter: filterArbitrary(promptFilterFields, pools, 2),
      group_by: fc.subarray(['date', 'model', 'topic', 'region', 'prompt', 'persona'], { maxLength: 3 }),
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
          filter: toWire(r.filter),
          limit: r.limit,
          ...(r.metrics ? { metrics: r.metrics } : {}),
          ...(r.dir ? { sort: { field: metrics.at(-1), dir: r.dir } } : {}),
          ...(r.assets ? { assets: r.assets } : {}),
        };
        const expected = await pagesOf(statement, body, r.components);
        expect(await pagesOf(lean, body, r.components)).toEqual(expected);
        rows += expected.reduce((n, p) => n + (JSON.parse(p) as { data: unknown[] }).data.length, 0);
      }),
      { numRuns: 60 },
    );
    expect(rows).toBeGreaterThan(150);
  });

  it('explain shows the small statements, and a prompt edit renames the groups at once', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2026-12-31',
      group_by: ['prompt'],
      scope: 'all',
    };
    const explained = (await lean.org(ids.org1).report('visibility')(body, { explain: true })) as {
      explain: { statements: { role: string; sql: string }[] };
    };
    const roles = explained.explain.statements.map((s) => s.role);
    expect(roles).toEqual([
      'page (lean: then ranked and cut in JS) (1 of 2)',
      'page (lean: then ranked and cut in JS) (2 of 2)',
    ]);
    expect(explained.explain.statements.every((s) => !/row_number|OVER \(/.test(s.sql))).toBe(true);
    const before = (await lean.org(ids.org1).report('visibility')(body)) as {
      data: { prompt: { id: string; name: string } }[];
    };
    const target = before.data[0]!.prompt;
    await lean.org(ids.org1).call('PATCH', `/v1/org/categories/${ids.cat1}/prompts`, {
      body: { prompts: [{ id: target.id, prompt: 'Renamed for the lean page' }] },
    });
    const after = (await lean.org(ids.org1).report('visibility')({ ...body, limit: 50 })) as {
      data: { prompt: { id: string; name: string } }[];
    };
    expect(after.data.find((r) => r.prompt.id === target.id)?.prompt.name).toBe('Renamed for the lean page');
  });
});

describe('v2 visibility: past leanAnswerRows the groups are not few', () => {
  it('reads the page through the one-statement form, with the same bytes', async () => {
    const big = insightsFixture(11, 18_000);
    const [on, off] = [
      await openFixture(big, { cursorSecret: 'few', rollups: false }),
      await openFixture(big, { cursorSecret: 'few', rollups: false, leanPages: false }),
    ];
    try {
      const body = (groupBy: string[]) => ({
        category_id: ids.cat1,
        start_date: '2026-02-20',
        end_date: '2026-12-31',
        group_by: groupBy,
        scope: 'all',
        limit: 20,
      });
      const page = async (engine: Engine, groupBy: string[]) =>
        JSON.stringify(await engine.org(ids.org1).report('visibility')(body(groupBy)));
      const many = ['date', 'prompt', 'model', 'region', 'persona', 'topic'];
      expect(await page(on, many)).toBe(await page(off, many));
      expect(on.core.stats.leanFallbacks).toBe(1);
      expect(await page(on, ['model'])).toBe(await page(off, ['model']));
      expect(on.core.stats.leanFallbacks).toBe(1);
    } finally {
      await on.close();
      await off.close();
    }
  });
});
