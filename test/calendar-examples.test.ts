import { describe, expect, it } from 'vitest';
import { comparedWindow } from '../src/reports/extensions/compare-window.ts';
import { servedByRollup } from '../src/reports/tabular-v1/rollup-scope.ts';
import type { InsightsPlan } from '../src/reports/tabular-v1/insights-common.ts';
import { servedByTrafficHourly } from '../src/reports/traffic/traffic-rollup.ts';
import { maxWindowDays } from '../src/reports/insights/common.ts';

/**
 * Fixed examples beside the random properties that guard calendar rules (test/extensions-compare.test.ts,
 * the rollup tests): a planted bug once survived every run but one seed of those properties.
 */

const ms = (iso: string) => Date.parse(iso);
const et = 'America/New_York';

describe('the compared window across a DST change', () => {
  it('previous_period of a week after the spring-forward is the seven calendar days before, not 168 hours', () => {
    // 2026-03-09 00:00 EDT .. 2026-03-16 00:00 EDT; the week before holds the change (2026-03-08), so is 167 hours long.
    const w = { startMs: ms('2026-03-09T04:00:00Z'), endMs: ms('2026-03-16T04:00:00Z') };
    expect(comparedWindow('previous_period', w, et, maxWindowDays)).toEqual({
      startMs: ms('2026-03-02T05:00:00Z'),
      endMs: ms('2026-03-09T04:00:00Z'),
    });
  });

  it('previous_period of the week holding the change is the seven calendar days before (168 hours, the window 167)', () => {
    const w = { startMs: ms('2026-03-02T05:00:00Z'), endMs: ms('2026-03-09T04:00:00Z') };
    expect(comparedWindow('previous_period', w, et, maxWindowDays)).toEqual({
      startMs: ms('2026-02-23T05:00:00Z'),
      endMs: ms('2026-03-02T05:00:00Z'),
    });
  });

  it('a window that does not end on a midnight compares as many milliseconds', () => {
    const w = { startMs: ms('2026-03-09T04:00:00Z'), endMs: ms('2026-03-09T16:00:00Z') };
    expect(comparedWindow('previous_period', w, et, maxWindowDays)).toEqual({
      startMs: ms('2026-03-08T16:00:00Z'),
      endMs: ms('2026-03-09T04:00:00Z'),
    });
  });

  it('previous_year keeps the wall clock: midnights a year earlier whatever the offset (2025 changed a day later), 29 February as 1 March', () => {
    const w = { startMs: ms('2026-11-01T04:00:00Z'), endMs: ms('2026-11-02T05:00:00Z') };
    expect(comparedWindow('previous_year', w, et, maxWindowDays)).toEqual({
      startMs: ms('2025-11-01T04:00:00Z'),
      endMs: ms('2025-11-02T04:00:00Z'),
    });
    const leap = { startMs: ms('2028-02-29T05:00:00Z'), endMs: ms('2028-03-01T05:00:00Z') };
    expect(comparedWindow('previous_year', leap, et, maxWindowDays)).toEqual({
      startMs: ms('2027-03-01T05:00:00Z'),
      endMs: ms('2027-03-01T05:00:00Z'),
    });
  });
});

describe('a rollup is chosen only when both ends of the window are on its boundaries', () => {
  const plan = (start: string, end: string) =>
    ({
      window: { start, end },
      dimensions: ['date'],
      bucket: { interval: 'day', zone: et, anchor: '2026-03-01' },
      filters: [],
    }) as unknown as InsightsPlan;
  const dims = ['date'];

  it('daily (v1): whole ET days across the spring-forward are served; a window whose start only is on a day is not', () => {
    expect(servedByRollup(plan('2026-03-01T05:00:00.000Z', '2026-03-10T04:00:00.000Z'), dims, [])).toBe(true);
    // 05:00Z is midnight in EST but 01:00 in EDT: only the start is on a day boundary.
    expect(servedByRollup(plan('2026-03-01T05:00:00.000Z', '2026-03-10T05:00:00.000Z'), dims, [])).toBe(false);
    expect(servedByRollup(plan('2026-03-01T06:00:00.000Z', '2026-03-10T04:00:00.000Z'), dims, [])).toBe(false);
  });

  it('hourly (traffic): a window whose start only is on an hour is not served', () => {
    const def = { table: 'referral_visits', view: 'hourly' };
    const bucket = { interval: 'day' as const, zone: 'UTC', anchor: '2026-03-01', wholeHours: true };
    const traffic = (start: string, end: string) =>
      servedByTrafficHourly(def, { window: { start, end }, dimensions: ['date'], bucket });
    expect(traffic('2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z')).toBe(true);
    expect(traffic('2026-03-01T00:00:00.000Z', '2026-03-02T00:30:00.000Z')).toBe(false);
    expect(traffic('2026-03-01T00:30:00.000Z', '2026-03-02T00:00:00.000Z')).toBe(false);
  });
});
