import { ValidationError } from '../../errors.ts';
import { daySeries } from '../../query/dialect.ts';
import { sql, type Fragment } from '../../query/sql.ts';
import { dayBucket, daysInclusive, type CalendarInterval } from '../../query/time.ts';
import type { CompareSpec } from './compare-window.ts';

/** Inclusive ET dates, as every v2 Insights window is given. */
export interface DateSpan {
  readonly startDate: string;
  readonly endDate: string;
}

const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayOf = (text: string) => Date.parse(`${text}T00:00:00Z`);

/** One year earlier on the calendar (29 February reads as 1 March). */
function yearEarlier(day: string): string {
  const d = new Date(dayOf(day));
  return isoDay(Date.UTC(d.getUTCFullYear() - 1, d.getUTCMonth(), d.getUTCDate()));
}

/**
 * The compared window of a v2 request, as inclusive dates like its own: as many days just before it,
 * the same dates a year earlier, or `START..END` given as dates. A bad one is a 422 at `["query", "compare"]`.
 */
export function comparedDates(window: DateSpan, spec: CompareSpec, maxDays: number): DateSpan {
  if (spec === 'previous_period') {
    const days = daysInclusive(window.startDate, window.endDate);
    return {
      startDate: isoDay(dayOf(window.startDate) - days * dayMs),
      endDate: isoDay(dayOf(window.startDate) - dayMs),
    };
  }
  if (spec === 'previous_year')
    return { startDate: yearEarlier(window.startDate), endDate: yearEarlier(window.endDate) };
  const text = `${spec.start}..${spec.end}`;
  const date = /^\d{4}-\d{2}-\d{2}$/;
  if (
    !date.test(spec.start) ||
    !date.test(spec.end) ||
    isoDay(dayOf(spec.start)) !== spec.start ||
    isoDay(dayOf(spec.end)) !== spec.end
  ) {
    throw ValidationError.of(
      ['query', 'compare'],
      'compare START..END takes two dates (YYYY-MM-DD, both inclusive) on the v2 reports',
      text,
    );
  }
  if (spec.end < spec.start)
    throw ValidationError.of(['query', 'compare'], 'the compared window must end on or after its start', text);
  if (daysInclusive(spec.start, spec.end) > maxDays)
    throw ValidationError.of(['query', 'compare'], `the compared window is longer than ${maxDays} days`, text);
  return { startDate: spec.start, endDate: spec.end };
}

/** A window's date buckets, `k`. */
export const dateBuckets = (interval: CalendarInterval, start: string, end: string): Fragment =>
  sql`SELECT DISTINCT ${dayBucket(interval, sql`d`)} AS k FROM (${daySeries(sql`${start}`, sql`${end}`)})`;
