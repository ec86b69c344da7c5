import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { CursorCodec } from '../src/query/cursor.ts';
import { toWire } from '../src/query/filter-node.ts';

import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { visibilityDaily, visibilityRollups } from '../src/reports/insights/visibility-rollup.ts';
import { visibilityReport } from '../src/reports/insights-v2/visibility/visibility.ts';
import { pageSql } from './helpers/page-sql.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { filterArbitrary } from './helpers/filter-arbitrary.ts';
import { expectGolden } from './helpers/golden.ts';
import { allPages } from './helpers/walk.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';
import { referenceVisibility, type VisibilityQuery } from './reference/visibility.ts';

const fixture = insightsFixture();
let withRollups: Engine;
let factsOnly: Engine;
beforeAll(async () => {
  [withRollups, factsOnly] = await Promise.all([openFixture(fixture), openFixture(fixture, { rollups: false })]);
  for (const r of visibilityRollups) await withRollups.core.rollups.warm(r.def, [ids.cat1, ids.cat2]);
});
afterAll(() => {
  withRollups.close();
  factsOnly.close();
});

const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };
const sqlOf = async (engine: Engine, body: object) =>
  (await pageSql(visibilityReport as never, body, engine.org(ids.org1).context(), 'use')).query.text;
const readsRollup = async (engine: Engine, body: object) => (await sqlOf(engine, body)).includes('rollup_visibility_');
const everything = async (engine: Engine, body: object) =>
  (await allPages(engine.org(ids.org1), 'visibility', body as Record<string, unknown>, 50)).flatMap((p) => p.data);

describe('the visibility daily rollup', () => {
  it('answer requests grouped and filtered by the keys each keeps exactly as the facts and the reference do', async () => {
    const pools = {
      model: { exact: [...ids.models, 'ChatGPT', '', 'nope'], text: ['', 'a', 'GPT'] },
      region: { exact: [...ids.regions, 'Germany', 'Nowhere'], text: ['', 'ger', 'STATES'] },
      topic: { exact: [...ids.topics, 'Boots', 'Tents 50%_off'], text: ['%', '_', 'boots'] },
    };
    const request = fc.constantFrom(...visibilityRollups.map((r) => r.keeps)).chain((keeps) =>
      fc.record({
        filter: fc.option(
          filterArbitrary(
            promptFilterFields,
            Object.fromEntries(Object.entries(pools).filter(([f]) => (keeps as readonly string[]).includes(f))),
            2,
          ),
          { nil: undefined },
        ),
        group_by: fc.subarray([...keeps]),
        interval: fc.constantFrom('day' as const, 'week' as const, 'month' as const),
        scope: fc.constantFrom('owned' as const, 'all' as const),
        sort: fc.option(
          fc.record({
            field: fc.constantFrom('visibility_score', 'share_of_voice', 'average_position'),
            dir: fc.constantFrom('asc' as const, 'desc' as const),
          }),
          { nil: undefined },
        ),
        window: fc.constantFrom(
          ['2026-02-20', '2026-12-31'],
          ['2026-03-08', '2026-03-08'],
          ['2026-11-01', '2026-11-02'],
          ['2026-04-01', '2026-05-15'],
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const q: VisibilityQuery = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          group_by: [...r.group_by],
          interval: r.interval,
          scope: r.scope,
          ...(r.sort ? { sort: r.sort } : {}),
        };
        const body = { ...q, ...(r.filter ? { filter: toWire(r.filter) } : {}) };
        const filterFields = r.filter ? JSON.stringify(toWire(r.filter)) : '';
        // Models in scope come from a rollup that keeps the model and the filter's keys: with a topic filter there is none.
        expect(await readsRollup(withRollups, body)).toBe(!/"field":"topic"/.test(filterFields));
        const fromRollup = await everything(withRollups, body);
        expect(fromRollup).toEqual(referenceVisibility(fixture, { ...q, ...(r.filter ? { filter: r.filter } : {}) }));
        expect(fromRollup).toEqual(await everything(factsOnly, body));
      }),
      { numRuns: 60 },
    );
  });

  it('is not used for persona, prompt or tag keys and filters, keys no rollup keeps together, nor when rollups are off', async () => {
    for (const body of [
      { ...base, group_by: ['date', 'persona'] },
      { ...base, group_by: ['topic', 'model'] },
      { ...base, group_by: ['date', 'prompt'] },
      {
        ...base,
        filter: {
          or: [
            { field: 'model', op: 'is', value: 'ChatGPT' },
            { field: 'tag', op: 'in', value: ['alpha'] },
          ],
        },
      },
    ]) {
      expect(await readsRollup(withRollups, body)).toBe(false);
    }
    expect(await readsRollup(factsOnly, { ...base, group_by: ['model'] })).toBe(false);
  });

  it('follows prompt edits: a stale rollup is not read, and is rebuilt from the current prompts', async () => {
    const engine = await openFixture(fixture);
    try {
      await engine.core.rollups.warm(visibilityDaily, [ids.cat1]);
      const body = { ...base, scope: 'all' as const, group_by: ['model'] };
      const edited = {
        ...fixture,
        prompts: fixture.prompts!.map((p) =>
          p.id === ids.prompts[0]
            ? { ...p, analysis_types: ['sentiment'] }
            : p.id === ids.prompts[2]
              ? { ...p, analysis_types: ['sentiment', 'visibility'] }
              : p,
        ),
      };
      expect(await everything(engine, body)).toEqual(referenceVisibility(fixture, body as VisibilityQuery));
      await engine.core.state.transaction(
        async (conn) => {
          await conn.run(`UPDATE state.prompts SET analysis_types = ['sentiment'] WHERE id = $id`, {
            id: ids.prompts[0]!,
          });
          await conn.run(`UPDATE state.prompts SET analysis_types = ['sentiment', 'visibility'] WHERE id = $id`, {
            id: ids.prompts[2]!,
          });
        },
        { promptsOf: ids.cat1 },
      );
      expect(await readsRollup(engine, body)).toBe(false);
      expect(await everything(engine, body)).toEqual(referenceVisibility(edited, body as VisibilityQuery));
      await engine.core.rollups.warm(visibilityDaily, [ids.cat1]);
      expect(await readsRollup(engine, body)).toBe(true);
      expect(await everything(engine, body)).toEqual(referenceVisibility(edited, body as VisibilityQuery));
    } finally {
      engine.close();
    }
  });

  it('goes stale on every prompt edit made through the API (PATCH, status), with no statement to check it', async () => {
    const engine = await openFixture(fixture);
    try {
      await engine.core.rollups.warm(visibilityDaily, [ids.cat1]);
      const body = { ...base, scope: 'all' as const, group_by: ['model'] };
      expect(await readsRollup(engine, body)).toBe(true);
      const path = `/v1/org/categories/${ids.cat1}/prompts`;
      await engine
        .org(ids.org1)
        .call('PATCH', path, { body: { prompts: [{ id: ids.prompts[0], analysis_types: ['sentiment'] }] } });
      expect(await readsRollup(engine, body)).toBe(false);
      await engine.core.rollups.warm(visibilityDaily, [ids.cat1]);
      expect(await readsRollup(engine, body)).toBe(true);
      await engine
        .org(ids.org1)
        .call('PATCH', `${path}/status`, { body: { prompt_ids: [ids.prompts[2]], status: 'deleted' } });
      expect(await readsRollup(engine, body)).toBe(false);
      const fromFacts = await everything(engine, body);
      await engine.core.rollups.warm(visibilityDaily, [ids.cat1]);
      expect(await readsRollup(engine, body)).toBe(true);
      expect(await everything(engine, body)).toEqual(fromFacts);
      await engine.org(ids.org1).call('PATCH', path, {
        body: { prompts: [{ id: ids.prompts[1], analysis_types: ['sentiment'] }], dry_run: true },
      });
      expect(await readsRollup(engine, body)).toBe(true);
    } finally {
      engine.close();
    }
  });

  it('keeps cursors valid when a later page is answered from the rollup', async () => {
    const engine = await openFixture(fixture, { cursorSecret: 'same' });
    try {
      const body = { ...base, scope: 'all', group_by: ['date'], interval: 'month', limit: 5 } as const;
      const first = await engine.org(ids.org1).reports.visibility(body);
      await engine.core.rollups.warm(visibilityDaily, [ids.cat1]);
      expect(await readsRollup(engine, body)).toBe(true);
      const second = await engine.org(ids.org1).reports.visibility({ ...body, cursor: first.info.next_cursor });
      const big = await everything(factsOnly, { ...body, limit: 50 });
      expect([...(first.data as unknown[]), ...(second.data as unknown[])]).toEqual(big.slice(0, 10));
    } finally {
      engine.close();
    }
  });

  it('golden SQL of a rollup read', async () => {
    const ctx = {
      organizationId: ids.org1,
      core: withRollups.core,
      now: new Date('2026-11-22T12:00:00Z'),
      cursors: new CursorCodec('golden'),
    };
    const body = {
      ...base,
      scope: 'all',
      group_by: ['model', 'date'],
      interval: 'week',
      filter: { field: 'model', op: 'not_in', value: ['Perplexity'] },
      limit: 5,
    };
    const { query } = await pageSql(visibilityReport as never, body, ctx, new Set([visibilityDaily.name]));
    const dir = fileURLToPath(new URL('./golden/visibility', import.meta.url));
    expectGolden(
      join(dir, 'rollup-by-model-and-week.sql'),
      `${query.text}\n-- params: ${JSON.stringify(query.params)}\n`,
    );
  });
});
