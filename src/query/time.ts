import { sql, type Fragment } from './sql.ts';

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
      return sql`CAST(date_trunc('week', ${day}) AS DATE)`;
    case 'month':
      return sql`CAST(date_trunc('month', ${day}) AS DATE)`;
  }
}
