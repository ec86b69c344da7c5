import { dateTrunc } from './dialect.ts';
import type { Fragment } from './sql.ts';

export const insightsZone = 'America/New_York';

export type CalendarInterval = 'day' | 'week' | 'month';

/** Days from a to b inclusive, for `YYYY-MM-DD` strings. */
export function daysInclusive(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * The calendar bucket of an ET day column. `day` is already the America/New_York calendar day of the
 * instant, so weeks (ISO, starting Monday) and months are plain date arithmetic: no time-zone math per
 * row, and DST cannot shift a row into a neighbouring bucket. A week or month bucket may start before
 * the window's first day.
 */
export function dayBucket(interval: CalendarInterval, day: Fragment): Fragment {
  switch (interval) {
    case 'day':
      return day;
    case 'week':
    case 'month':
      return dateTrunc(interval, day);
  }
}

const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first day of the bucket after the one holding `day`. */
export function nextBucket(interval: CalendarInterval, day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (interval === 'day') return isoDay(d.getTime() + dayMs);
  if (interval === 'week') return isoDay(d.getTime() + (7 - ((d.getUTCDay() + 6) % 7)) * dayMs);
  return isoDay(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

/**
 * `[start, end]` cut into consecutive inclusive windows of whole buckets: the first about `first` days
 * long, the others about `rest`, each at least one bucket. Buckets never straddle two windows, so a
 * report over each window in turn gives exactly the rows of the whole window's report that lead with
 * the date, in order.
 */
export function bucketWindows(
  start: string,
  end: string,
  interval: CalendarInterval,
  first = 7,
  rest = 31,
): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  let from = start;
  while (from <= end) {
    const limit = isoDay(Date.parse(`${from}T00:00:00Z`) + ((out.length === 0 ? first : rest) - 1) * dayMs);
    let next = nextBucket(interval, from);
    for (
      let after = nextBucket(interval, next);
      after <= nextDay(limit) && next <= end;
      after = nextBucket(interval, next)
    )
      next = after;
    const last = isoDay(Date.parse(`${next}T00:00:00Z`) - dayMs);
    out.push({ start: from, end: last < end ? last : end });
    from = next;
  }
  return out;
}

const nextDay = (day: string) => isoDay(Date.parse(`${day}T00:00:00Z`) + dayMs);

/** `[start, end]` cut into consecutive inclusive windows of days from the end backwards: the first `first` days long, the others `rest`. */
export function dayWindowsBackward(start: string, end: string, first = 7, rest = 31): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  const startMs = Date.parse(`${start}T00:00:00Z`);
  for (let to = Date.parse(`${end}T00:00:00Z`); to >= startMs; ) {
    const from = Math.max(startMs, to - ((out.length === 0 ? first : rest) - 1) * dayMs);
    out.push({ start: isoDay(from), end: isoDay(to) });
    to = from - dayMs;
  }
  return out;
}
