import { describe, expect, it } from 'vitest';
import { memoryDuckDb } from './helpers/memory-duckdb.ts';
import {
  bucketKey,
  bucketLabel,
  bucketType,
  dayStart,
  formatInstant,
  instantError,
  isDateOnly,
  localDate,
  offsetAt,
  resolveInstant,
  toIso,
  wallOf,
  wholeHourOffsets,
  windowBuckets,
  zoneName,
  type BucketSpec,
} from '../src/query/instants.ts';
import { render, sql } from '../src/query/sql.ts';

/**
 * Request dates and time buckets (src/query/instants.ts) in process: each reason a date is refused, the
 * bounds it accepts, offsets east and west and not whole hours, and the bucket keys of a window on DuckDB.
 */

const forms = '; use YYYY-MM-DD, YYYY-MM-DD HH:MM, YYYY-MM-DD HH:MM:SS or an ISO 8601 timestamp';

describe('a request date refused', () => {
  it('says why, each range on its own', () => {
    const cases: [string, string][] = [
      ['2026-03-08Z', 'expected YYYY-MM-DD, YYYY-MM-DD HH:MM, YYYY-MM-DD HH:MM:SS or an ISO 8601 timestamp'],
      ['2026-00-10', 'month value is outside expected range of 1-12'],
      ['2026-13-10', 'month value is outside expected range of 1-12'],
      ['2026-04-00', 'day value is outside expected range'],
      ['2026-04-31', 'day value is outside expected range'],
      ['2026-02-29', 'day value is outside expected range'],
      ['2026-03-08 24:00', 'hour value is outside expected range of 0-23'],
      ['2026-03-08 23:60', 'minute value is outside expected range of 0-59'],
      ['2026-03-08 23:59:60', 'second value is outside expected range of 0-59'],
      ['2026-03-08T10:00:00+24:00', 'the UTC offset is outside expected range'],
      ['2026-03-08T10:00:00-05:60', 'the UTC offset is outside expected range'],
      ['1899-12-31', 'year value is outside expected range of 1900-2200'],
      ['2201-01-01', 'year value is outside expected range of 1900-2200'],
    ];
    for (const [text, why] of cases) expect(instantError(text), text).toBe(`${why}${forms}`);
    expect(() => resolveInstant('2026-13-10', 'UTC')).toThrow('unchecked date "2026-13-10"');
  });

  it('accepts the bounds of each range', () => {
    const good: [string, string][] = [
      ['1900-01-01', '1900-01-01T00:00:00.000Z'],
      ['2200-12-31 23:59:59', '2200-12-31T23:59:59.000Z'],
      ['2028-02-29 00:00', '2028-02-29T00:00:00.000Z'],
      ['2026-01-31T12:00:00+23:59', '2026-01-30T12:01:00.000Z'],
      ['2026-01-31T12:00:00-23:59', '2026-02-01T11:59:00.000Z'],
      ['2026-01-31t12:00:00z', '2026-01-31T12:00:00.000Z'],
      ['2026-01-31T12:00:00,5+05', '2026-01-31T07:00:00.500Z'],
      ['2026-01-31T12:00:00.123456789-00:30', '2026-01-31T12:30:00.123Z'],
      ['2026-01-31T12:00:00.05Z', '2026-01-31T12:00:00.050Z'],
    ];
    for (const [text, at] of good) {
      expect(instantError(text), text).toBeNull();
      expect(toIso(resolveInstant(text, 'UTC')), text).toBe(at);
    }
  });

  it('tells a date alone from a date with a time', () => {
    expect(isDateOnly('2026-03-08')).toBe(true);
    expect(isDateOnly('2026-03-08 00:00')).toBe(false);
    expect(isDateOnly(' 2026-03-08')).toBe(false);
    expect(isDateOnly('2026-03-08\n')).toBe(false);
  });
});

describe('instants in a zone', () => {
  it('offsets west of UTC and not whole hours, the calendar day and its start', () => {
    const at = Date.parse('2026-01-15T02:00:00.250Z');
    expect(formatInstant(at, 'America/St_Johns')).toBe('2026-01-14T22:30:00.250-03:30');
    expect(formatInstant(Date.parse('2026-01-15T02:00:00Z'), 'Asia/Kathmandu')).toBe('2026-01-15T07:45:00+05:45');
    expect(offsetAt('America/St_Johns', at)).toBe(-3.5 * 3_600_000);
    expect(wallOf('Asia/Kathmandu', at) - at).toBe(5.75 * 3_600_000);
    expect(localDate(at, 'America/St_Johns')).toBe('2026-01-14');
    expect(localDate(at, 'UTC')).toBe('2026-01-15');
    expect(toIso(dayStart('2026-01-15', 'America/St_Johns'))).toBe('2026-01-15T03:30:00.000Z');
    expect(toIso(dayStart('2026-03-08', 'America/New_York'))).toBe('2026-03-08T05:00:00.000Z');
  });

  it('a zone name is an IANA name of at most 64 characters', () => {
    expect(zoneName('Etc/GMT+5')).toBe('Etc/GMT+5');
    expect(zoneName('EUROPE/BERLIN')).toBe('EUROPE/BERLIN');
    expect(zoneName(`A${'/b'.repeat(32)}`)).toBeNull();
    expect(zoneName('Europe/Berlin/')).toBeNull();
    expect(zoneName('/Europe/Berlin')).toBeNull();
    expect(zoneName('Europe//Berlin')).toBeNull();
    expect(zoneName(' Europe/Berlin')).toBeNull();
  });
});

describe('whole-hour offsets over a window', () => {
  // Lord Howe: +11:00 until 2026-04-05, +10:30 until 2026-10-04, +11:00 after.
  const lordHowe = (start: string, end: string) =>
    wholeHourOffsets('Australia/Lord_Howe', Date.parse(`${start}T00:00:00Z`), Date.parse(`${end}T00:00:00Z`));

  it('reads the window’s own ends, even with no 1st or 15th of a month between them', () => {
    expect(lordHowe('2026-04-06', '2026-04-10')).toBe(false);
    expect(lordHowe('2026-10-02', '2026-10-12')).toBe(false);
    expect(lordHowe('2026-03-25', '2026-04-08')).toBe(false);
  });

  it('reads only the 1st and 15th inside the window, not those of its months before or after it', () => {
    expect(lordHowe('2026-10-16', '2026-10-30')).toBe(true);
    expect(lordHowe('2026-03-16', '2026-04-03')).toBe(true);
    expect(lordHowe('2026-03-16', '2026-04-15')).toBe(false);
  });
});

describe('bucket keys of a window, on DuckDB', () => {
  const duck = memoryDuckDb();

  const labels = async (spec: BucketSpec, start: string, end: string): Promise<string[]> => {
    const q = render(
      sql`SELECT ${bucketLabel(spec, sql`k`)} AS label FROM (${windowBuckets(spec, { start, end })}) ORDER BY k`,
    );
    return (await duck().runAndReadAll(q.text, q.params as never)).getRowsJS().map((r) => String(r[0]));
  };

  it('every hour the window touches, a last one shorter than an hour included', async () => {
    const spec = { interval: 'hour', zone: 'Asia/Kolkata', anchor: '2026-03-01' } as const;
    // 11:30 to 14:10 in Kolkata: the hours after the start reach 13:30, the last microsecond 14:09.
    expect(await labels(spec, '2026-03-08T06:00:00.000Z', '2026-03-08T08:40:00.000Z')).toEqual([
      '2026-03-08T11:00:00+05:30',
      '2026-03-08T12:00:00+05:30',
      '2026-03-08T13:00:00+05:30',
      '2026-03-08T14:00:00+05:30',
    ]);
  });

  it('whole-hour zones truncate the instant to its UTC hour, with the same labels', async () => {
    const spec = { interval: 'hour', zone: 'Europe/Berlin', anchor: '2026-03-01' } as const;
    const whole = { ...spec, wholeHours: true };
    expect(render(bucketKey(whole, sql`ts`)).text).toBe("date_trunc('hour', ts)");
    const window = ['2026-03-08T22:30:00.000Z', '2026-03-09T00:30:00.000Z'] as const;
    const expected = ['2026-03-08T23:00:00+01:00', '2026-03-09T00:00:00+01:00', '2026-03-09T01:00:00+01:00'];
    expect(await labels(whole, ...window)).toEqual(expected);
    expect(await labels(spec, ...window)).toEqual(expected);
  });

  it('calendar buckets of a window, and their type', async () => {
    const spec = (interval: BucketSpec['interval']) => ({ interval, zone: 'America/New_York', anchor: '2026-03-01' });
    const window = ['2026-03-01T05:00:00.000Z', '2026-03-20T04:00:00.000Z'] as const;
    expect(await labels(spec('week'), ...window)).toEqual(['2026-02-23', '2026-03-02', '2026-03-09', '2026-03-16']);
    expect(await labels(spec('relative_week'), ...window)).toEqual(['2026-03-01', '2026-03-08', '2026-03-15']);
    expect(await labels(spec('month'), ...window)).toEqual(['2026-03-01']);
    expect((await labels(spec('day'), ...window)).length).toBe(19);
    expect(bucketType(spec('hour'))).toBe('instant');
    expect(bucketType(spec('day'))).toBe('date');
    expect(bucketType(spec('relative_week'))).toBe('date');
  });
});
