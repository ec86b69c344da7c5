import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';
import { shoppingFixture } from './fixtures/shopping.ts';

type Json = Record<string, any>;

/**
 * The extensions combined on every v2 report that takes them: fill with compare completes the window
 * before compare joins it (never fewer rows than fill alone, and every filled row is there), and
 * components with compare keep the window's parts (NULL on a row of the compared window only).
 */
const clock = () => new Date('2026-11-22T12:00:00Z');
const engines = {} as Record<'more' | 'shopping', Engine>;
beforeAll(async () => {
  engines.more = await openFixture(moreV2Fixture(), { cursorSecret: 'combined', clock });
  engines.shopping = await openFixture(shoppingFixture(), { cursorSecret: 'combined', clock });
}, 60_000);
afterAll(async () => {
  await engines.more.close();
  await engines.shopping.close();
});

const intervals = fc.constantFrom('day', 'week', 'month');

interface Case {
  readonly name: string;
  readonly fixture: 'more' | 'shopping';
  /** Requests with the date group (fill needs it). */
  readonly dated: fc.Arbitrary<Json>;
  /** Ratio metrics whose parts components adds, or none. */
  readonly ratios?: readonly string[];
}

const cases: readonly Case[] = [
  {
    name: 'visibility',
    fixture: 'more',
    dated: fc.record({
      group_by: fc.constantFrom(['date'], ['date', 'model'], ['model', 'date'], ['date', 'topic']),
      interval: intervals,
      scope: fc.constantFrom('all', 'owned'),
    }),
    ratios: ['visibility_score', 'share_of_voice', 'average_position'],
  },
  {
    name: 'citations',
    fixture: 'more',
    dated: fc.record({ group_by: fc.constantFrom(['date'], ['date', 'model']), interval: intervals }),
  },
  {
    name: 'queryFanouts',
    fixture: 'more',
    dated: fc.record({
      group_by: fc.constantFrom(['prompt', 'date'], ['date', 'model'], ['date']),
      interval: intervals,
    }),
    ratios: ['fanouts_per_execution'],
  },
  {
    name: 'factcheck',
    fixture: 'more',
    dated: fc.record({ group_by: fc.constantFrom(['date'], ['date', 'model']), interval: intervals }),
    ratios: ['accuracy'],
  },
  {
    name: 'sentiment',
    fixture: 'more',
    dated: fc.record({
      group_by: fc.constantFrom(['date'], ['date', 'model']),
      interval: intervals,
      asset: fc.constantFrom('Acme', 'Brandy'),
    }),
    ratios: ['positive_sentiment', 'negative_sentiment'],
  },
  {
    name: 'shoppingProducts',
    fixture: 'shopping',
    dated: fc.record({ group_by: fc.constant(['date']), interval: intervals }),
  },
];

async function stream(engine: Engine, name: string, body: Json, options: Json = {}): Promise<Json[]> {
  const rows: Json[] = [];
  let head = true;
  for await (const e of (engine.org(ids.org1).reports as Json)[`${name}Stream`](body, options)) {
    if (!head) rows.push(e.data);
    head = false;
  }
  return rows;
}

const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayOf = (text: string) => Date.parse(`${text}T00:00:00Z`);
const windowDay = fc
  .integer({ min: dayOf('2026-02-01') / dayMs, max: dayOf('2026-12-20') / dayMs })
  .map((d) => isoDay(d * dayMs));
const comparedField = /_(previous|change|change_pct)$/;
const withoutCompared = (r: Json) =>
  JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !comparedField.test(k))));

/** A row's identity: its fields that are neither numbers nor NULL (metrics, parts and places are numbers). */
const keyOf = (r: Json) =>
  JSON.stringify(Object.entries(r).filter(([k, v]) => !comparedField.test(k) && v !== null && typeof v !== 'number'));

function multisetContains(whole: readonly string[], part: readonly string[]): boolean {
  const left = new Map<string, number>();
  for (const x of whole) left.set(x, (left.get(x) ?? 0) + 1);
  return part.every((x) => {
    const n = left.get(x) ?? 0;
    left.set(x, n - 1);
    return n > 0;
  });
}

describe('fill with compare', () => {
  it('holds every row fill alone gives, on every v2 report that takes both', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: cases.length - 1 }).chain((i) => fc.tuple(fc.constant(i), cases[i]!.dated)),
        windowDay,
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom('previous_period', 'previous_year'),
        async ([i, extra], start, days, compare) => {
          const c = cases[i]!;
          const body = {
            category_id: ids.cat1,
            start_date: start,
            end_date: isoDay(dayOf(start) + (days - 1) * dayMs),
            ...extra,
          };
          const filled = await stream(engines[c.fixture], c.name, body, { fill: 'zero' });
          const both = await stream(engines[c.fixture], c.name, body, { fill: 'zero', compare });
          expect(both.length).toBeGreaterThanOrEqual(filled.length);
          expect(multisetContains(both.map(withoutCompared), filled.map(withoutCompared))).toBe(true);
        },
      ),
      { numRuns: 20 },
    );
  }, 240_000);

  it('v2 visibility by date × model with a model filter: fill + compare keeps the filled rows (fixed example)', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-06-01',
      end_date: '2026-07-26',
      group_by: ['date', 'model'],
      interval: 'week',
      scope: 'all',
      filter: { field: 'model', op: 'in', value: ['ChatGPT', 'Perplexity'] },
    };
    const plain = await stream(engines.more, 'visibility', body);
    const filled = await stream(engines.more, 'visibility', body, { fill: 'zero' });
    const both = await stream(engines.more, 'visibility', body, { fill: 'zero', compare: 'previous_period' });
    expect(filled.length).toBeGreaterThan(plain.length);
    expect(both.length).toBeGreaterThanOrEqual(filled.length);
    expect(multisetContains(both.map(withoutCompared), filled.map(withoutCompared))).toBe(true);
  });
});

describe('components with compare', () => {
  const withParts = cases.filter((c) => c.ratios);
  it('keeps the window’s parts and gives NULL parts on a row of the compared window only', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: withParts.length - 1 }).chain((i) => fc.tuple(fc.constant(i), withParts[i]!.dated)),
        windowDay,
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 200 }),
        async ([i, extra], start, days, back) => {
          const c = withParts[i]!;
          const body = {
            category_id: ids.cat1,
            start_date: start,
            end_date: isoDay(dayOf(start) + (days - 1) * dayMs),
            ...extra,
          };
          const compare = `${isoDay(dayOf(start) - back * dayMs)}..${isoDay(dayOf(start) - back * dayMs + (days - 1) * dayMs)}`;
          const plain = await stream(engines[c.fixture], c.name, body, { components: true });
          const both = await stream(engines[c.fixture], c.name, body, { components: true, compare });
          const parts = c.ratios!.flatMap((m) => [`${m}_numerator`, `${m}_denominator`]);
          const partsByKey = new Map(plain.map((r) => [keyOf(r), parts.map((p) => r[p])]));
          for (const r of both) {
            const expected = partsByKey.get(keyOf(r)) ?? parts.map(() => null);
            expect(
              parts.map((p) => r[p]),
              `${c.name} ${keyOf(r)}`,
            ).toEqual(expected);
          }
        },
      ),
      { numRuns: 20 },
    );
  }, 240_000);
});
