import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import {
  bucketKey,
  bucketLabel,
  wholeHourOffsets,
  zoneName,
  formatInstant,
  instantError,
  resolveInstant,
  type DateInterval,
} from '../src/query/instants.ts';
import { join, render, sql } from '../src/query/sql.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { tabular } from './helpers/tabular.ts';
import { ids } from './fixtures/insights.ts';
import { domains, tabularFixture } from './fixtures/tabular.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(tabularFixture(5, 40, 60), { clock: () => new Date('2026-12-01T00:00:00Z') });
});
afterAll(() => engine.close());

const iso = (ms: number) => new Date(ms).toISOString();

describe('request dates', () => {
  it('reads the four forms; a wall time is in the report’s zone, an offset or Z wins', () => {
    expect(iso(resolveInstant('2026-03-08', 'America/New_York'))).toBe('2026-03-08T05:00:00.000Z');
    expect(iso(resolveInstant('2026-03-08 12:30', 'America/New_York'))).toBe('2026-03-08T16:30:00.000Z');
    expect(iso(resolveInstant('2026-03-08 12:30:15', 'UTC'))).toBe('2026-03-08T12:30:15.000Z');
    expect(iso(resolveInstant('2026-03-08T12:30:15.250', 'Asia/Kolkata'))).toBe('2026-03-08T07:00:15.250Z');
    expect(iso(resolveInstant('2026-03-08T12:30:00+05:30', 'America/New_York'))).toBe('2026-03-08T07:00:00.000Z');
    expect(iso(resolveInstant('2026-03-08T12:30:00Z', 'Europe/Berlin'))).toBe('2026-03-08T12:30:00.000Z');
    expect(iso(resolveInstant('2026-03-08T12:30:00-0300', 'UTC'))).toBe('2026-03-08T15:30:00.000Z');
  });

  it('a wall time in a spring-forward gap moves forward; in a fall-back hour it is the earlier instant', () => {
    expect(iso(resolveInstant('2026-03-08 02:30', 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z');
    expect(iso(resolveInstant('2026-11-01 01:30', 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
    expect(iso(resolveInstant('2026-03-29 02:30', 'Europe/Berlin'))).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(resolveInstant('2026-10-25 02:30', 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(resolveInstant('2026-07-01', 'Asia/Kolkata'))).toBe('2026-06-30T18:30:00.000Z');
  });

  it('refuses what is not a date, with the accepted forms in the message', () => {
    for (const bad of [
      '2026-3-8',
      '2026-02-29',
      '2026-03-08T24:00',
      '2026-03-08 10',
      '2026-03-08Z',
      '08/03/2026',
      '2026-03-08T10:00:00+25:00',
      '',
    ]) {
      expect(instantError(bad), bad).toMatch(
        /use YYYY-MM-DD, YYYY-MM-DD HH:MM, YYYY-MM-DD HH:MM:SS or an ISO 8601 timestamp/,
      );
    }
    expect(instantError('2028-02-29 23:59:59')).toBeNull();
  });

  it('echoes instants with the zone’s offset at that instant', () => {
    expect(formatInstant(Date.parse('2026-11-01T05:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00-04:00');
    expect(formatInstant(Date.parse('2026-11-01T06:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00-05:00');
    expect(formatInstant(Date.parse('2026-06-30T18:30:00.120Z'), 'Asia/Kolkata')).toBe('2026-07-01T00:00:00.120+05:30');
    expect(formatInstant(Date.parse('2026-06-30T18:30:00Z'), 'UTC')).toBe('2026-06-30T18:30:00+00:00');
  });

  it('time zones: IANA names and links, any case; no offsets or made-up names', () => {
    expect(zoneName('Europe/Berlin')).toBe('Europe/Berlin');
    expect(zoneName('UTC')).toBe('UTC');
    expect(zoneName('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(zoneName('america/new_york')).toBe('america/new_york');
    for (const bad of ['+05:30', 'Mars/Base', 'UTC+1', '', 'Europe/Berlin\u0000', '../etc'])
      expect(zoneName(bad), bad).toBeNull();
  });
});

/** [zone, interval, instant, expected bucket label]. Each line is read off a calendar by hand. */
const cases: [string, DateInterval, string, string][] = [
  ['America/New_York', 'hour', '2026-03-08T06:59:00Z', '2026-03-08T01:00:00-05:00'],
  ['America/New_York', 'hour', '2026-03-08T07:00:00Z', '2026-03-08T03:00:00-04:00'],
  ['America/New_York', 'hour', '2026-11-01T05:30:00Z', '2026-11-01T01:00:00-04:00'],
  ['America/New_York', 'hour', '2026-11-01T06:30:00Z', '2026-11-01T01:00:00-05:00'],
  ['America/New_York', 'day', '2026-11-02T04:59:00Z', '2026-11-01'],
  ['America/New_York', 'day', '2026-11-02T05:00:00Z', '2026-11-02'],
  ['America/New_York', 'week', '2026-11-02T04:59:00Z', '2026-10-26'],
  ['America/New_York', 'month', '2026-04-01T03:59:00Z', '2026-03-01'],
  ['America/New_York', 'quarter', '2026-04-01T03:59:00Z', '2026-01-01'],
  ['America/New_York', 'quarter', '2026-04-01T04:00:00Z', '2026-04-01'],
  ['America/New_York', 'year', '2027-01-01T04:59:00Z', '2026-01-01'],
  ['America/New_York', 'relative_week', '2026-03-12T03:00:00Z', '2026-03-05'],
  ['America/New_York', 'relative_week', '2026-03-12T05:00:00Z', '2026-03-12'],
  ['UTC', 'hour', '2026-12-31T23:30:00Z', '2026-12-31T23:00:00+00:00'],
  ['UTC', 'day', '2026-03-31T23:59:00Z', '2026-03-31'],
  ['UTC', 'quarter', '2026-03-31T23:59:00Z', '2026-01-01'],
  ['UTC', 'quarter', '2026-04-01T00:00:00Z', '2026-04-01'],
  ['UTC', 'year', '2026-12-31T23:30:00Z', '2026-01-01'],
  ['UTC', 'relative_week', '2026-03-11T23:59:00Z', '2026-03-05'],
  ['UTC', 'relative_week', '2026-03-12T00:00:00Z', '2026-03-12'],
  ['Asia/Kolkata', 'hour', '2026-06-30T18:29:00Z', '2026-06-30T23:00:00+05:30'],
  ['Asia/Kolkata', 'hour', '2026-06-30T18:30:00Z', '2026-07-01T00:00:00+05:30'],
  ['Asia/Kolkata', 'hour', '2026-06-30T19:15:00Z', '2026-07-01T00:00:00+05:30'],
  ['Asia/Kolkata', 'day', '2026-06-30T18:30:00Z', '2026-07-01'],
  ['Asia/Kolkata', 'week', '2026-06-28T18:30:00Z', '2026-06-29'],
  ['Asia/Kolkata', 'quarter', '2026-03-31T18:29:00Z', '2026-01-01'],
  ['Asia/Kolkata', 'quarter', '2026-03-31T18:30:00Z', '2026-04-01'],
  ['Asia/Kolkata', 'year', '2026-12-31T18:30:00Z', '2027-01-01'],
  ['Asia/Kolkata', 'relative_week', '2026-03-11T18:29:00Z', '2026-03-05'],
  ['Asia/Kolkata', 'relative_week', '2026-03-11T18:30:00Z', '2026-03-12'],
  ['Europe/Berlin', 'hour', '2026-03-29T00:59:00Z', '2026-03-29T01:00:00+01:00'],
  ['Europe/Berlin', 'hour', '2026-03-29T01:00:00Z', '2026-03-29T03:00:00+02:00'],
  ['Europe/Berlin', 'hour', '2026-10-25T00:30:00Z', '2026-10-25T02:00:00+02:00'],
  ['Europe/Berlin', 'hour', '2026-10-25T01:30:00Z', '2026-10-25T02:00:00+01:00'],
  ['Europe/Berlin', 'day', '2026-03-28T23:00:00Z', '2026-03-29'],
  ['Europe/Berlin', 'month', '2026-09-30T22:00:00Z', '2026-10-01'],
  ['Europe/Berlin', 'quarter', '2026-09-30T21:59:00Z', '2026-07-01'],
  ['Europe/Berlin', 'quarter', '2026-09-30T22:00:00Z', '2026-10-01'],
  ['Europe/Berlin', 'year', '2026-12-31T23:00:00Z', '2027-01-01'],
  ['Europe/Berlin', 'relative_week', '2026-03-11T22:59:00Z', '2026-03-05'],
  ['Europe/Berlin', 'relative_week', '2026-03-11T23:00:00Z', '2026-03-12'],
  // Lord Howe Island moves its clock by half an hour: back from 02:00 +11:00 to 01:30 +10:30, forward from 02:00 +10:30 to 02:30 +11:00.
  ['Australia/Lord_Howe', 'hour', '2026-04-04T14:10:00Z', '2026-04-05T01:00:00+11:00'],
  ['Australia/Lord_Howe', 'hour', '2026-04-04T14:59:00Z', '2026-04-05T01:00:00+11:00'],
  ['Australia/Lord_Howe', 'hour', '2026-04-04T15:00:00Z', '2026-04-05T01:00:00+10:30'],
  ['Australia/Lord_Howe', 'hour', '2026-04-04T15:29:00Z', '2026-04-05T01:00:00+10:30'],
  ['Australia/Lord_Howe', 'hour', '2026-04-04T15:30:00Z', '2026-04-05T02:00:00+10:30'],
  ['Australia/Lord_Howe', 'hour', '2026-10-03T15:29:00Z', '2026-10-04T01:00:00+10:30'],
  ['Australia/Lord_Howe', 'hour', '2026-10-03T15:30:00Z', '2026-10-04T02:00:00+11:00'],
  ['Australia/Lord_Howe', 'hour', '2026-10-03T15:59:00Z', '2026-10-04T02:00:00+11:00'],
  ['Australia/Lord_Howe', 'hour', '2026-10-03T16:00:00Z', '2026-10-04T03:00:00+11:00'],
];

describe('buckets in SQL', () => {
  it('hour, day, week, month, quarter, year and relative_week in ET, UTC, Asia/Kolkata, Europe/Berlin and Australia/Lord_Howe', async () => {
    const selects = cases.map(([zone, interval, at]) => {
      const spec = { interval, zone, anchor: '2026-03-05' };
      const key = bucketKey(spec, sql`CAST(${at} AS TIMESTAMPTZ)`);
      return sql`SELECT ${bucketLabel(spec, key)} AS label`;
    });
    const q = render(join(selects, '\nUNION ALL\n'));
    const labels = (await engine.core.pool.use((c) => c.runAndReadAll(q.text, q.params as never)))
      .getRowsJS()
      .map((r) => r[0]);
    expect(labels).toEqual(cases.map((c) => c[3]));
  });

  it('the two 01:00 hours of a fall-back night are two rows; the hour of the gap does not exist', async () => {
    const body = {
      domain: domains.own,
      start_date: '2026-11-01 00:00',
      end_date: '2026-11-01 03:00',
      timezone: 'America/New_York',
      metrics: ['visits'],
      dimensions: ['date'],
      date_interval: 'hour',
      order_by: { date: 'asc' },
    };
    const fallBack = await tabular(engine.org(ids.org1), 'referrals', body);
    expect(fallBack.data.map((r) => r.dimensions[0])).toEqual(
      expect.arrayContaining(['2026-11-01T01:00:00-04:00', '2026-11-01T01:00:00-05:00']),
    );
    expect(fallBack.data.map((r) => r.dimensions[0])).toEqual(
      [...fallBack.data.map((r) => r.dimensions[0])].sort((a, b) => Date.parse(a!) - Date.parse(b!)),
    );
    const bots = await tabular(engine.org(ids.org1), 'bots', {
      domain: domains.own,
      start_date: '2026-03-08T06:00:00Z',
      end_date: '2026-03-08T08:00:00Z',
      metrics: ['count'],
      dimensions: ['date'],
      date_interval: 'hour',
    });
    expect(bots.data.map((r) => r.dimensions[0]).sort()).toEqual([
      '2026-03-08T06:00:00+00:00',
      '2026-03-08T07:00:00+00:00',
    ]);
    const insights = await tabular(engine.org(ids.org1), 'citationsV1', {
      category_id: ids.cat1,
      start_date: '2026-03-08',
      end_date: '2026-03-09',
      metrics: ['count'],
      dimensions: ['date'],
      date_interval: 'hour',
      order_by: { date: 'asc' },
    });
    expect(insights.data.map((r) => r.dimensions[0])).not.toContain('2026-03-08T02:00:00-05:00');
    expect(insights.data.map((r) => r.dimensions[0])).toEqual(
      expect.arrayContaining(['2026-03-08T01:00:00-05:00', '2026-03-08T03:00:00-04:00']),
    );
  });

  it('v1 Insights quarters and relative weeks are ET calendar buckets', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-03-04',
      end_date: '2027-01-01',
      metrics: ['count'],
      dimensions: ['date'],
      order_by: { date: 'asc' },
    };
    const quarters = await tabular(engine.org(ids.org1), 'citationsV1', { ...body, date_interval: 'quarter' });
    expect(quarters.data.map((r) => r.dimensions[0])).toEqual(['2026-01-01', '2026-04-01', '2026-07-01', '2026-10-01']);
    const weeks = await tabular(engine.org(ids.org1), 'citationsV1', { ...body, date_interval: 'relative_week' });
    const starts = weeks.data.map((r) => r.dimensions[0]!);
    expect(starts[0]).toBe('2026-03-04');
    for (const s of starts)
      expect((Date.parse(`${s}T00:00:00Z`) - Date.parse('2026-03-04T00:00:00Z')) % (7 * 86_400_000)).toBe(0);
    const total = (await tabular(engine.org(ids.org1), 'citationsV1', { ...body, dimensions: [], order_by: null }))
      .data[0]!.metrics[0];
    expect(weeks.data.reduce((a, r) => a + r.metrics[0]!, 0)).toBe(total);
  });
});

describe('whole-hour zones', () => {
  const year = [Date.parse('2026-01-01T00:00:00Z'), Date.parse('2026-12-31T00:00:00Z')] as const;
  it('knows the zones whose local hours are UTC hours over a window, and those that are not', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'America/Sao_Paulo'])
      expect(wholeHourOffsets(zone, ...year), zone).toBe(true);
    for (const zone of [
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Australia/Lord_Howe',
      'America/St_Johns',
      'Australia/Adelaide',
    ])
      expect(wholeHourOffsets(zone, ...year), zone).toBe(false);
  });
  it('follows Lord Howe, whole hours in its summer (+11:00) and half hours in its winter (+10:30)', () => {
    expect(
      wholeHourOffsets('Australia/Lord_Howe', Date.parse('2026-12-01T00:00:00Z'), Date.parse('2027-02-28T00:00:00Z')),
    ).toBe(true);
    expect(
      wholeHourOffsets('Australia/Lord_Howe', Date.parse('2026-06-01T00:00:00Z'), Date.parse('2026-08-01T00:00:00Z')),
    ).toBe(false);
    expect(
      wholeHourOffsets('Australia/Lord_Howe', Date.parse('2027-02-01T00:00:00Z'), Date.parse('2027-05-01T00:00:00Z')),
    ).toBe(false);
  });
});
