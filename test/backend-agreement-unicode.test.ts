import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture, type Rows } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { tabularFixture } from './fixtures/tabular.ts';

/**
 * Names beyond ASCII (accents, ß, CJK, emoji) answered by DuckDB and by chdb over the same tables. A
 * case-insensitive filter must fold Unicode case on both (ClickHouse's `lower` folds ASCII only:
 * `lowerUTF8` is the one that finds `über` in `Über`), and names must come back byte for byte.
 */
const renamed: Record<string, Record<string, string>> = {
  topics: { [ids.topics[0]!]: 'Über-Stiefel', [ids.topics[1]!]: 'Zelte Straße 50%_off' },
  tags: { [ids.tags[0]!]: 'Ålpha ÉTÉ', [ids.tags[1]!]: '日本語タグ 🚀' },
  regions: { [ids.regions[0]!]: 'États-Unis', [ids.regions[1]!]: 'Österreich' },
  personas: { [ids.personas[0]!]: 'Wanderin Ørsted' },
};

function unicodeFixture(): Rows {
  const rows = tabularFixture() as Rows;
  const out: Rows = { ...rows };
  for (const [table, names] of Object.entries(renamed)) {
    const key = table as keyof Rows;
    out[key] = rows[key]!.map((r) => (names[String(r.id)] === undefined ? r : { ...r, name: names[String(r.id)] }));
  }
  return out;
}

let duck: Engine;
let chdb: Engine;
const clock = () => new Date('2026-12-01T00:00:00Z');
beforeAll(async () => {
  const rows = unicodeFixture();
  duck = await openFixture(rows, { clock, rollups: false });
  chdb = await openFixture(rows, { clock, backend: 'chdb' });
}, 60_000);
afterAll(async () => {
  await chdb?.close();
  await duck?.close();
});

const window = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2027-01-01', date_interval: 'month' };
type Case = {
  readonly report: string;
  readonly filter: { field: string; operator: string; value: string | string[] };
  readonly dimensions: string[];
  readonly rows: 'some' | 'any';
};
const cases: Case[] = [
  {
    report: 'citationsV1',
    filter: { field: 'topic_name', operator: 'contains_case_insensitive', value: 'über' },
    dimensions: ['tag'],
    rows: 'some',
  },
  {
    report: 'citationsV1',
    filter: { field: 'topic_name', operator: 'contains_case_insensitive', value: 'STRAßE' },
    dimensions: ['tag'],
    rows: 'some',
  },
  {
    report: 'visibilityV1',
    filter: { field: 'tag_name', operator: 'contains_case_insensitive', value: 'ålpha été' },
    dimensions: ['tag', 'region'],
    rows: 'some',
  },
  {
    report: 'visibilityV1',
    filter: { field: 'region_name', operator: 'contains_case_insensitive', value: 'ÉTATS' },
    dimensions: ['region'],
    rows: 'some',
  },
  {
    report: 'visibilityV1',
    filter: { field: 'region_name', operator: 'not_contains_case_insensitive', value: 'ÖSTER' },
    dimensions: ['region'],
    rows: 'some',
  },
  {
    report: 'citationsV1',
    filter: { field: 'tag_name', operator: 'contains', value: '🚀' },
    dimensions: ['tag', 'persona'],
    rows: 'some',
  },
  {
    report: 'citationsV1',
    filter: { field: 'tag_name', operator: 'is', value: '日本語タグ 🚀' },
    dimensions: ['tag'],
    rows: 'some',
  },
  {
    report: 'sentimentV1',
    filter: { field: 'tag_name', operator: 'in', value: ['Ålpha ÉTÉ', '日本語タグ 🚀'] },
    dimensions: ['persona', 'tag'],
    rows: 'any',
  },
  {
    report: 'visibilityV1',
    filter: { field: 'topic_name', operator: 'matches', value: '^Ü' },
    dimensions: ['tag'],
    rows: 'some',
  },
];

async function answer(engine: Engine, name: string, body: Record<string, unknown>): Promise<string> {
  try {
    return JSON.stringify(await engine.org(ids.org1).report(name)(body));
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

describe('DuckDB and chdb agree on names beyond ASCII', () => {
  it.each(cases)(
    '$report: $filter.field $filter.operator $filter.value',
    async ({ report, filter, dimensions, rows }) => {
      const body = {
        ...window,
        metrics:
          report === 'sentimentV1'
            ? ['positive', 'occurrences']
            : report === 'citationsV1'
              ? ['count']
              : ['mentions_count', 'executions'],
        dimensions,
        filters: [filter],
      };
      const expected = await answer(duck, report, body);
      expect(expected.startsWith('{'), expected).toBe(true);
      if (rows === 'some') expect((JSON.parse(expected) as { data: unknown[] }).data.length).toBeGreaterThan(0);
      expect(await answer(chdb, report, body)).toBe(expected);
    },
  );

  it('returns every renamed name byte for byte', async () => {
    const body = { ...window, metrics: ['count'], dimensions: ['tag', 'persona'] };
    const expected = await answer(duck, 'citationsV1', body);
    for (const name of ['Ålpha ÉTÉ', '日本語タグ 🚀', 'Wanderin Ørsted'])
      expect(expected).toContain(JSON.stringify(name).slice(1, -1));
    expect(await answer(chdb, 'citationsV1', body)).toBe(expected);
  });
});
