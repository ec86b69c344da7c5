import type { DialectName, Fragment } from '../query/sql.ts';
import { bucketWindows, dayWindowsBackward, daysInclusive, type CalendarInterval } from '../query/time.ts';
import { sliceQuery, sliceRanges, type ShapedReport } from './rows-query.ts';
import type { DateSpan } from './extensions/compared-dates.ts';

/**
 * How a stream's rows are cut into statements. `units` counts the units the last slice sent (its
 * largest unit number less the range's start), which the cutter reads before it cuts the next slice.
 */
export interface SliceCounter {
  lastUnit: number;
}

/** Consecutive unit ranges of the one compiled answer (each statement recomputes its CTEs). */
export function* unitSlices(c: ShapedReport, units: number, dialect: DialectName): Generator<Fragment> {
  for (const range of sliceRanges(units, c.sliceUnits)) yield sliceQuery(c, range, dialect);
}

/** How an answer leads with the date: by a calendar bucket, ascending, or by the instant, newest first. */
export type DateOrder = CalendarInterval | 'newest first';

const firstWindowDays = 7;

/**
 * How many days a window after the first spans: enough for about `sliceUnits` units at the answer's
 * average units per day, and at least 31. Every statement costs its planning and its CTEs' setup, so
 * a small answer is read in two windows, not one per month.
 */
function windowDays(window: DateSpan, units: number, sliceUnits = 16_384): number {
  const days = daysInclusive(window.startDate, window.endDate);
  if (units === 0 || sliceUnits === Number.POSITIVE_INFINITY) return days;
  return Math.max(31, Math.min(days, Math.floor(sliceUnits / (units / days))));
}

/**
 * An answer that leads with the date bucket, read one window of whole buckets at a time (see
 * `bucketWindows`): each window is the same report over fewer days, so its statement reads only its
 * days. A window's rows are still cut into unit ranges, so no statement builds more than `sliceUnits`.
 * Stops after `units` units.
 */
export function* dateSlices(
  window: DateSpan,
  order: DateOrder,
  compile: (start: string, end: string) => ShapedReport,
  units: number,
  sent: SliceCounter,
  dialect: DialectName,
): Generator<Fragment> {
  let remaining = units;
  const rest = windowDays(window, units, compile(window.startDate, window.endDate).sliceUnits);
  const windows =
    order === 'newest first'
      ? dayWindowsBackward(window.startDate, window.endDate, firstWindowDays, rest)
      : bucketWindows(window.startDate, window.endDate, order, firstWindowDays, rest);
  for (const w of windows) {
    if (remaining <= 0) return;
    const c = compile(w.start, w.end);
    const size = c.sliceUnits ?? 16_384;
    for (let after = 0; remaining > 0; after += size) {
      const upTo = after + Math.min(size, remaining);
      sent.lastUnit = after;
      yield sliceQuery(c, { after, upTo }, dialect);
      const got = sent.lastUnit - after;
      remaining -= got;
      if (got < upTo - after) break;
    }
  }
}
