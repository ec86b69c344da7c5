import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(insightsFixture(5, 80));
});
afterAll(() => engine.close());

const base = {
  category_id: ids.cat1,
  start_date: '2026-01-01',
  end_date: '2026-12-31',
  scope: 'all',
  limit: 50,
  group_by: ['model', 'topic'],
} as const;
const data = async (filter: unknown) =>
  ((await engine.org(ids.org1).reports.visibility({ ...base, filter })) as { data: unknown[] }).data;

describe('text operators on the name of every prompt-level dimension (v2)', () => {
  // [field, a substring in other letter case, the names of the category that contain it ignoring case]
  const cases: [string, string, string[]][] = [
    ['model', 'CHAT', ['ChatGPT']],
    ['region', 'state', ['United States']],
    ['persona', 'HIK', ['Hiker']],
    ['topic', '50%_', ['Tents 50%_off']],
    ['tag', 'ALP', ['alpha']],
  ];

  it('contains_case_insensitive selects what in of the matching names selects; its negation selects the rest', async () => {
    for (const [field, part, names] of cases) {
      const selected = await data({ field, op: 'contains_case_insensitive', value: part });
      expect({ field, selected }).toEqual({ field, selected: await data({ field, op: 'in', value: names }) });
      expect(selected.length).toBeGreaterThan(0);
      const rest = await data({ field, op: 'not_contains_case_insensitive', value: part });
      expect({ field, rest }).toEqual({ field, rest: await data({ field, op: 'not_in', value: names }) });
    }
  });

  it('contains is case-sensitive and matches reads the name with RE2', async () => {
    expect(await data({ field: 'model', op: 'contains', value: 'chat' })).toEqual([]);
    expect(await data({ field: 'topic', op: 'matches', value: '^Tents [0-9]+%' })).toEqual(
      await data({ field: 'topic', op: 'is', value: 'Tents 50%_off' }),
    );
    expect(await data({ field: 'tag', op: 'contains', value: 'et' })).toEqual(
      await data({ field: 'tag', op: 'in', value: ['beta'] }),
    );
  });
});
