import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketWindows, dayWindowsBackward, daysInclusive, nextBucket } from '../src/query/time.ts';
import { anyDay, bucketStart, dayMs, dayOf, isoDay, nextDay } from './helpers/calendar.ts';

const intervals = ['day', 'week', 'month'] as const;
/** The first day of the bucket after the one holding `day`, by walking days. */
const bucketAfter = (interval: (typeof intervals)[number], day: string) => {
  let d = nextDay(day);
  while (bucketStart(interval, d) !== d) d = nextDay(d);
  return d;
};
const length = (w: { start: string; end: string }) => (dayOf(w.end) - dayOf(w.start)) / dayMs + 1;

describe('calendar days and buckets (src/query/time.ts)', () => {
  it('days inclusive and the next bucket agree with walking the calendar', () => {
    fc.assert(
      fc.property(anyDay(fc), fc.integer({ min: 1, max: 800 }), fc.constantFrom(...intervals), (start, n, interval) => {
        expect(daysInclusive(start, isoDay(dayOf(start) + (n - 1) * dayMs))).toBe(n);
        expect(nextBucket(interval, start)).toBe(bucketAfter(interval, start));
      }),
      { numRuns: 300 },
    );
  });
});

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
        anyDay(fc),
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
            expect(w.start, 'consecutive').toBe(nextDay(windows[i - 1]!.end));
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

describe('how long the windows are', () => {
  it('each window but the last holds as many whole buckets as fit in its days, at least one; the last no more', () => {
    fc.assert(
      fc.property(
        anyDay(fc),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom(...intervals),
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: 1, max: 90 }),
        (start, days, interval, first, rest) => {
          const end = isoDay(dayOf(start) + (days - 1) * dayMs);
          const windows = bucketWindows(start, end, interval, first, rest);
          windows.forEach((w, i) => {
            const budget = i === 0 ? first : rest;
            const oneBucket = bucketAfter(interval, w.start) > w.end;
            expect(oneBucket || length(w) <= budget, `window ${i} within ${budget} days`).toBe(true);
            if (i === windows.length - 1) return;
            const nextBucketDays = (dayOf(bucketAfter(interval, nextDay(w.end))) - dayOf(nextDay(w.end))) / dayMs;
            expect(length(w) + nextBucketDays, `window ${i} could not take one more bucket`).toBeGreaterThan(budget);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('newest first: consecutive windows of `first` then `rest` days from the end, the oldest cut at the start', () => {
    fc.assert(
      fc.property(
        anyDay(fc),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: 1, max: 90 }),
        (start, days, first, rest) => {
          const end = isoDay(dayOf(start) + (days - 1) * dayMs);
          const windows = dayWindowsBackward(start, end, first, rest);
          expect(windows[0]!.end).toBe(end);
          expect(windows.at(-1)!.start).toBe(start);
          windows.forEach((w, i) => {
            if (i > 0) expect(nextDay(w.end)).toBe(windows[i - 1]!.start);
            const budget = i === 0 ? first : rest;
            if (i === windows.length - 1) expect(length(w)).toBeLessThanOrEqual(budget);
            else expect(length(w)).toBe(budget);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('by default the first window is 7 days and the others 31', () => {
    expect(bucketWindows('2026-03-01', '2026-04-30', 'day')).toEqual([
      { start: '2026-03-01', end: '2026-03-07' },
      { start: '2026-03-08', end: '2026-04-07' },
      { start: '2026-04-08', end: '2026-04-30' },
    ]);
    expect(dayWindowsBackward('2026-03-01', '2026-04-30')).toEqual([
      { start: '2026-04-24', end: '2026-04-30' },
      { start: '2026-03-24', end: '2026-04-23' },
      { start: '2026-03-01', end: '2026-03-23' },
    ]);
  });
});
