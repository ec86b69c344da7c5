import fc from 'fast-check';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Engine } from '../../src/library/engine.ts';
import type { RollupDef } from '../../src/engine/rollups.ts';
import { pageSql } from './page-sql.ts';
import { openFixture } from './arrow-fixture.ts';
import { tabular } from './tabular.ts';
import { allPages } from './walk.ts';
import { ids } from '../fixtures/insights.ts';
import { moreV2Fixture } from '../fixtures/more-v2.ts';

type Body = Record<string, unknown>;

/** Windows a rollup test draws from: a long one, both 2026 DST changes, a quarter. */
export const rollupWindows = [
  ['2026-02-20', '2026-12-31'],
  ['2026-03-08', '2026-03-09'],
  ['2026-04-01', '2026-06-30'],
  ['2026-10-31', '2026-11-02'],
] as const;

/**
 * Two engines over the v2 fixture, one with `def` built for `categories` and one reading the facts
 * only, for a test that holds a rollup's answers to the facts'; and how to ask each of them.
 */
export function rollupPair(
  def: RollupDef,
  categories: readonly string[],
  reports: { v2: unknown; v2Name: string; v1?: unknown; v1Name?: string },
) {
  const fixture = moreV2Fixture();
  const engines = {} as { withRollups: Engine; factsOnly: Engine };
  beforeAll(async () => {
    [engines.withRollups, engines.factsOnly] = await Promise.all([
      openFixture(fixture, { cursorSecret: 'same' }),
      openFixture(fixture, { cursorSecret: 'same', rollups: false }),
    ]);
    await engines.withRollups.core.rollups.warm(def, [...categories]);
  });
  afterAll(() => {
    engines.withRollups.close();
    engines.factsOnly.close();
  });
  const rollupRead = (text: string) => text.includes(`rollup_${def.name}`);
  const readsV2 = async (engine: Engine, body: Body) =>
    rollupRead((await pageSql(reports.v2 as never, body, engine.org(ids.org1).context(), 'use')).query.text);
  const readsV1 = async (engine: Engine, body: Body) =>
    rollupRead((await pageSql(reports.v1 as never, body, engine.org(ids.org1).context(), 'use')).query.text);
  const v2Text = async (engine: Engine, body: Body) =>
    JSON.stringify(await allPages(engine.org(ids.org1), reports.v2Name, body, 7));
  const v1Text = async (engine: Engine, body: Body) =>
    reports.v1Name === undefined ? '' : JSON.stringify(await tabular(engine.org(ids.org1), reports.v1Name, body));
  /**
   * On an engine of its own with the rollup built for the first category: both requests (the v2 one alone
   * for a report without a v1 twin) read it, `edit`
   * (a prompt edit) retires it, the facts answer meanwhile, and once rebuilt it answers as they did.
   * Answers the texts before and after the edit.
   */
  const acrossEdit = async (v2: Body, v1: Body, edit: (engine: Engine) => Promise<unknown>) => {
    const engine = await openFixture(fixture, { cursorSecret: 'same' });
    try {
      await engine.core.rollups.warm(def, [ids.cat1]);
      expect(await readsV2(engine, v2)).toBe(true);
      if (reports.v1 !== undefined) expect(await readsV1(engine, v1)).toBe(true);
      const before = [await v2Text(engine, v2), await v1Text(engine, v1)];
      await edit(engine);
      expect(await readsV2(engine, v2)).toBe(false);
      if (reports.v1 !== undefined) expect(await readsV1(engine, v1)).toBe(false);
      const after = [await v2Text(engine, v2), await v1Text(engine, v1)];
      await engine.core.rollups.warm(def, [ids.cat1]);
      expect(await readsV2(engine, v2)).toBe(true);
      if (reports.v1 !== undefined) expect(await readsV1(engine, v1)).toBe(true);
      expect([await v2Text(engine, v2), await v1Text(engine, v1)]).toEqual(after);
      return { before, after };
    } finally {
      engine.close();
    }
  };
  return {
    acrossEdit,
    fixture,
    engines,
    /** Whether the request's page statement reads the rollup. */
    readsV2,
    readsV1,
    /** Every page as JSON text: the rollup's answer must be the facts' to the byte, floats included. */
    v2Text,
    v1Text,
  };
}

type Pair = Pick<ReturnType<typeof rollupPair>, 'engines' | 'readsV2' | 'v2Text'>;
type Window = (typeof rollupWindows)[number];

/**
 * Over random requests (a window and the fields `fieldsOf` gives): each reads the rollup just when `servable`
 * says, and answers as the facts do to the byte; some read it and some do not.
 */
export async function answersAsFacts<R extends { readonly window: Window; readonly filter: unknown }>(
  pair: Pair,
  request: fc.Arbitrary<R>,
  fieldsOf: (r: R) => Record<string, unknown>,
  servable: (r: R) => boolean,
) {
  const used = new Set<boolean>();
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const body = {
        category_id: ids.cat1,
        start_date: r.window[0],
        end_date: r.window[1],
        filter: r.filter,
        ...fieldsOf(r),
      };
      const reads = await pair.readsV2(pair.engines.withRollups, body);
      expect(reads).toBe(servable(r));
      used.add(reads);
      expect(await pair.v2Text(pair.engines.withRollups, body)).toBe(await pair.v2Text(pair.engines.factsOnly, body));
    }),
    { numRuns: 40 },
  );
  expect([...used].sort()).toEqual([false, true]);
}

/**
 * A filter of one leaf per field (joined by `and` when there are several): the model (`is`, or `setOp` over one
 * or two), or a prompt field (topic, region), which a rollup keyed by day and model cannot serve.
 */
export const modelOrPromptFilter = (setOp: 'in' | 'not_in') => {
  const leaf = fc.oneof(
    fc.constantFrom(...ids.models, 'ChatGPT', 'nope').map((value) => ({ field: 'model', op: 'is', value })),
    fc
      .uniqueArray(fc.constantFrom(...ids.models, 'Perplexity'), { minLength: 1, maxLength: 2 })
      .map((value) => ({ field: 'model', op: setOp, value })),
    fc.constantFrom(...ids.topics, 'Boots').map((value) => ({ field: 'topic', op: 'not_is', value })),
    fc.constantFrom(...ids.regions).map((value) => ({ field: 'region', op: 'is', value })),
  );
  return fc
    .uniqueArray(leaf, { maxLength: 2, selector: (l) => l.field })
    .map((ls) => (ls.length === 0 ? null : ls.length === 1 ? ls[0] : { and: ls }));
};

/** A filter with a topic or region leaf reads the facts. */
export const modelsOnly = (filter: unknown) => !/"field":"(topic|region)"/.test(JSON.stringify(filter));
