import type { Sql } from '../query/sql.ts';
import { bucketWindows, dayWindowsBackward, type CalendarInterval } from '../query/time.ts';
import { sliceQuery, sliceRanges, type ShapedReport } from './rows-query.ts';

/**
 * How a stream's rows are cut into statements. `units` counts the units the last slice sent (its
 * largest unit number less the range's start), which the cutter reads before it cuts the next slice.
 */
export interface SliceCounter {
  lastUnit: number;
}

/** Consecutive unit ranges of the one compiled answer (each statement recomputes its CTEs). */
export function* unitSlices(c: ShapedReport, units: number): Generator<Sql> {
  for (const range of sliceRanges(units, c.sliceUnits)) yield sliceQuery(c, range);
}

export interface DateWindow {
  readonly start: string;
  readonly end: string;
}

/** How an answer leads with the date: by a calendar bucket, ascending, or by the instant, newest first. */
export type DateOrder = CalendarInterval | 'newest first';

/**
 * An answer that leads with the date bucket, read one window of whole buckets at a time (see
 * `bucketWindows`): each window is the same report over fewer days, so its statement reads only its
 * days. A window's rows are still cut into unit ranges, so no statement builds more than `sliceUnits`.
 * Stops after `units` units.
 */
export function* dateSlices(window: DateWindow, order: DateOrder, compile: (start: string, end: string) => ShapedReport, units: number, sent: SliceCounter): Generator<Sql> {
  let remaining = units;
  const windows = order === 'newest first' ? dayWindowsBackward(window.start, window.end) : bucketWindows(window.start, window.end, order);
  for (const w of windows) {
    if (remaining <= 0) return;
    const c = compile(w.start, w.end);
    const size = c.sliceUnits ?? 16_384;
    for (let after = 0; remaining > 0; after += size) {
      const upTo = after + Math.min(size, remaining);
      sent.lastUnit = after;
      yield sliceQuery(c, { after, upTo });
      const got = sent.lastUnit - after;
      remaining -= got;
      if (got < upTo - after) break;
    }
  }
}
