import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { bucketStart, dayMs, dayOf, isoDay } from './helpers/calendar.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { tabularFixture } from './fixtures/tabular.ts';
import { openEngine } from '../src/open-engine.ts';
import { sampleDir } from '../src/generate/sample.ts';

type Json = Record<string, any>;

let engine: Engine;
let sample: Engine;
let sampleOrg: string;
let sampleCategory: string;
beforeAll(async () => {
  engine = await openFixture(tabularFixture(), {
    cursorSecret: 'windows',
    clock: () => new Date('2026-12-01T00:00:00Z'),
  });
  sample = await openEngine({ data: sampleDir, threads: 1, connections: 2 });
  const [first] = await sample.listOrganizations();
  sampleOrg = first!.id;
  sampleCategory = first!.categories[0]!.id;
});
afterAll(async () => {
  await engine?.close();
  await sample?.close();
});

async function pages(name: string, body: Json, on = engine, org = ids.org1): Promise<Json[]> {
  const rows: Json[] = [];
  let cursor: string | null = null;
  do {
    const page = (await (on.org(org).reports as Json)[name]({
      ...body,
      limit: 50,
      ...(cursor ? { cursor } : {}),
    })) as Json;
    rows.push(...page.data);
    cursor = page.info.next_cursor;
  } while (cursor);
  return rows;
}

async function streamed(name: string, body: Json, on = engine, org = ids.org1): Promise<Json[]> {
  const rows: Json[] = [];
  for await (const e of (on.org(org).reports as Json)[`${name}Stream`](body))
    if (e.event === 'result') rows.push(e.data);
  return rows;
}

describe('a stream leading with the date gives its pages’ rows', () => {
  for (const interval of ['day', 'week', 'month'] as const) {
    it(`by ${interval}, over windows read in several slices (from a Wednesday, across months)`, async () => {
      for (const [name, extra] of [
        ['visibility', { scope: 'all', group_by: ['date', 'model'] }],
        ['citations', { group_by: ['date', 'model'] }],
      ] as const) {
        const body = { category_id: ids.cat1, start_date: '2026-01-07', end_date: '2026-06-30', interval, ...extra };
        const paged = await pages(name, body);
        const whole = await streamed(name, body);
        expect(paged.length, `${name} has rows`).toBeGreaterThan(0);
        expect(whole, `${name} by ${interval}`).toEqual(paged);
        const dates = [...new Set(whole.map((r) => r.date))];
        expect(dates, 'each bucket once, in order').toEqual([...dates].sort());
        if (interval !== 'day') for (const d of dates.slice(1)) expect(bucketStart(interval, d), d).toBe(d);
      }
    });
  }
});

describe('a stream leading with the date gives its pages’ rows over the sample, which has visits every day', () => {
  for (const interval of ['day', 'week', 'month'] as const) {
    it(`by ${interval}, from each day of a week`, async () => {
      for (let k = 0; k < (interval === 'day' ? 2 : 7); k++) {
        const start = isoDay(dayOf('2026-03-02') + k * dayMs);
        const body = {
          category_id: sampleCategory,
          start_date: start,
          end_date: '2026-06-30',
          interval,
          scope: 'all',
          group_by: ['date'],
        };
        const whole = await streamed('visibility', body, sample, sampleOrg);
        expect(whole.length).toBeGreaterThan(0);
        const keys = whole.map((r) => JSON.stringify([r.date, r.asset.name]));
        expect(new Set(keys).size, 'no bucket twice').toBe(keys.length);
        expect(whole, `from ${start}`).toEqual(await pages('visibility', body, sample, sampleOrg));
      }
    });
  }
});
