import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { defaultResultCacheBytes } from '../src/limits.ts';
import { planMemory } from '../src/engine/memory-budget.ts';
import { ResultCache, type KeptPage } from '../src/engine/result-cache.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';

const page = (n: number): KeptPage => ({ shape: { fields: [] }, head: { n }, batches: [] });

describe('ResultCache: a byte bound, least recently used dropped first', () => {
  it('keeps an entry of an eighth of the bound, refuses one byte more, and is off at 0', () => {
    const cache = new ResultCache(800);
    expect(cache.set('a', page(1), 100)).toBe(true);
    expect(cache.set('b', page(2), 101)).toBe(false);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.head).toEqual({ n: 1 });
    const off = new ResultCache(0);
    expect(off.enabled).toBe(false);
    expect(off.set('a', page(1), 1)).toBe(false);
    expect(off.size).toBe(0);
  });

  it('holds at most its bound: at the bound all stay, one byte past drops the least recently used', () => {
    const cache = new ResultCache(800);
    for (let i = 0; i < 8; i++) cache.set(`k${i}`, page(i), 100);
    expect([cache.size, cache.bytes]).toEqual([8, 800]);
    cache.get('k0');
    cache.set('k8', page(8), 1);
    expect(cache.bytes).toBeLessThanOrEqual(800);
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k0')?.head).toEqual({ n: 0 });
    expect(cache.get('k8')?.head).toEqual({ n: 8 });
  });

  it('is taken from the memory budget: 64 MiB by default, at most an eighth of the budget, 0 or a size when given', () => {
    expect(planMemory('4GiB', 16).resultCache).toBe(defaultResultCacheBytes);
    expect(planMemory('256MiB', 4).resultCache).toBe(32 * 2 ** 20);
    expect(planMemory('4GiB', 16, 0).resultCache).toBe(0);
    expect(planMemory('4GiB', 16, '0MiB').resultCache).toBe(0);
    expect(planMemory('4GiB', 16, '128MiB')).toMatchObject({
      resultCache: 128 * 2 ** 20,
      database: 4 * 2 ** 30 - 16 * 4 * 2 ** 20 - 128 * 2 ** 20,
    });
    expect(() => planMemory('256MiB', 16, '200MiB')).toThrow(/result cache of 200 MiB/);
  });
});

type Body = Record<string, unknown>;
const window = { start_date: '2026-02-20', end_date: '2026-12-31' };
const reads: [string, Body][] = [
  ['visibility', { category_id: ids.cat1, ...window, group_by: ['prompt'], limit: 5 }],
  ['visibility', { category_id: ids.cat1, ...window, group_by: ['topic', 'date'], interval: 'month' }],
  ['queryFanouts', { category_id: ids.cat1, ...window, group_by: ['prompt'] }],
  ['citations', { category_id: ids.cat1, ...window, group_by: ['topic'] }],
  [
    'visibilityV1',
    { category_id: ids.cat1, ...window, metrics: ['visibility_score', 'executions'], dimensions: ['tag'] },
  ],
];
const edits: Body[] = [
  { id: ids.prompts[0], tags: [ids.tags[1]] },
  { id: ids.prompts[0], tags: [ids.tags[0], ids.tags[2]] },
  { id: ids.prompts[1], topic: ids.topics[1] },
  { id: ids.prompts[1], topic: ids.topics[0] },
  { id: ids.prompts[2], analysis_types: ['sentiment'] },
  { id: ids.prompts[2], analysis_types: ['visibility', 'sentiment'] },
];

/** Two engines over the same fixture and clock, one keeping answers and one not: they must always answer alike. */
let kept: Engine;
let unkept: Engine;
beforeAll(async () => {
  const clock = () => new Date('2026-11-20T12:00:00Z');
  [kept, unkept] = await Promise.all([
    openFixture(moreV2Fixture(), { cursorSecret: 'same', clock }),
    openFixture(moreV2Fixture(), { cursorSecret: 'same', clock, resultCache: 0 }),
  ]);
});
afterAll(async () => {
  await kept?.close();
  await unkept?.close();
});

describe('the result cache never serves an answer an edit changed', () => {
  it('answers as an engine without it, across any interleaving of prompt edits and repeated reads', async () => {
    const step = fc.oneof(
      { arbitrary: fc.nat(reads.length - 1).map((read) => ({ read })), weight: 3 },
      fc.nat(edits.length - 1).map((edit) => ({ edit })),
    );
    const last = new Map<number, string>();
    let changes = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 14 }), async (steps) => {
        for (const s of steps) {
          if ('edit' in s) {
            for (const engine of [kept, unkept])
              await engine
                .org(ids.org1)
                .call('PATCH', `/v1/org/categories/${ids.cat1}/prompts`, { body: { prompts: [edits[s.edit]] } });
            continue;
          }
          const [name, body] = reads[s.read]!;
          const answer = async (engine: Engine) =>
            JSON.stringify(await engine.org(ids.org1).report(name as 'visibility')(body as never));
          const expected = await answer(unkept);
          expect(await answer(kept)).toBe(expected);
          if (last.has(s.read) && last.get(s.read) !== expected) changes++;
          last.set(s.read, expected);
        }
      }),
      { numRuns: 15 },
    );
    // The edits did change answers, and repeated reads were served from the cache.
    expect(changes).toBeGreaterThan(0);
    expect(kept.core.results.hits).toBeGreaterThan(0);
    expect(unkept.core.results.size).toBe(0);
  }, 300_000);

  it('keeps a page only once it is read to its end, and never a stream', async () => {
    const body = { category_id: ids.cat1, ...window, group_by: ['model', 'date'] };
    const size = kept.core.results.size;
    const stream = kept.org(ids.org1).stream('visibility')(body as never);
    for await (const _ of stream) void _;
    expect(kept.core.results.size).toBe(size);
    await kept.org(ids.org1).report('visibility')(body as never);
    expect(kept.core.results.size).toBe(size + 1);
    const hits = kept.core.results.hits;
    expect(await kept.org(ids.org1).report('visibility')(body as never)).toEqual(
      await unkept.org(ids.org1).report('visibility')(body as never),
    );
    expect(kept.core.results.hits).toBe(hits + 1);
  });
});
