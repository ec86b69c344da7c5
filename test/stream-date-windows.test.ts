import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { bucketWindows, dayWindowsBackward } from '../src/query/time.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { tabularFixture } from './fixtures/tabular.ts';
import { openEngine } from '../src/open-engine.ts';
import { sampleDir } from '../src/generate/sample.ts';

type Json = Record<string, any>;

const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayOf = (day: string) => Date.parse(`${day}T00:00:00Z`);
const next = (day: string) => isoDay(dayOf(day) + dayMs);
/** The first day of the bucket holding `day`, independently of the engine: ISO weeks start on Monday. */
const bucketStart = (interval: 'day' | 'week' | 'month', day: string) =>
  interval === 'day'
    ? day
    : interval === 'week'
      ? isoDay(dayOf(day) - ((new Date(dayOf(day)).getUTCDay() + 6) % 7) * dayMs)
      : `${day.slice(0, 7)}-01`;

describe('the windows a stream leading with the date is read in', () => {
  it('a fixed example: weeks from a Wednesday, each window after the first starting on a Monday', () => {
    expect(bucketWindows('2026-03-04', '2026-05-20', 'week', 7, 31)).toEqual([
      { start: '2026-03-04', end: '2026-03-08' },
      { start: '2026-03-09', end: '2026-04-05' },
      { start: '2026-04-06', end: '2026-05-03' },
      { start: '2026-05-04', end: '2026-05-20' },
    ]);
    for (const w of bucketWindows('2026-03-04', '2026-05-20', 'week', 7, 31).slice(1))
      expect(new Date(dayOf(w.start)).getUTCDay(), w.start).toBe(1);
    expect(bucketWindows('2026-01-15', '2026-04-10', 'month', 7, 31)).toEqual([
      { start: '2026-01-15', end: '2026-01-31' },
      { start: '2026-02-01', end: '2026-02-28' },
      { start: '2026-03-01', end: '2026-03-31' },
      { start: '2026-04-01', end: '2026-04-10' },
    ]);
  });

  it('cover the window exactly, in order, and never split a bucket: every window after the first starts a bucket', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: dayOf('2024-01-01') / dayMs, max: dayOf('2027-12-31') / dayMs })
          .map((d) => isoDay(d * dayMs)),
        fc.integer({ min: 1, max: 500 }),
        fc.constantFrom('day' as const, 'week' as const, 'month' as const),
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: 1, max: 90 }),
        (start, days, interval, first, rest) => {
          const end = isoDay(dayOf(start) + (days - 1) * dayMs);
          const windows = bucketWindows(start, end, interval, first, rest);
          expect(windows[0]!.start).toBe(start);
          expect(windows.at(-1)!.end).toBe(end);
          windows.forEach((w, i) => {
            expect(w.start <= w.end).toBe(true);
            if (i === 0) return;
            expect(w.start, 'consecutive').toBe(next(windows[i - 1]!.end));
            expect(bucketStart(interval, w.start), 'a window after the first starts its bucket').toBe(w.start);
            expect(bucketStart(interval, windows[i - 1]!.end), 'no bucket in two windows').not.toBe(
              bucketStart(interval, w.start),
            );
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('newest first: consecutive windows from the end back to the start', () => {
    expect(dayWindowsBackward('2026-01-01', '2026-03-01', 7, 31)).toEqual([
      { start: '2026-02-23', end: '2026-03-01' },
      { start: '2026-01-23', end: '2026-02-22' },
      { start: '2026-01-01', end: '2026-01-22' },
    ]);
  });
});

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
