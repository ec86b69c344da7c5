import fc from 'fast-check';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { domains, tabularFixture } from './fixtures/tabular.ts';
import { bucketOf, referenceTraffic } from './reference/tabular.ts';

type Row = { metrics: (number | null)[]; dimensions: (string | null)[] };

/**
 * fill=zero over the hourly traffic reports, every dimension combination, every interval: the answer is
 * the reference's plain rows plus a zero row for each bucket of the window and each combination of the
 * other keys seen, where a key the bucket decides (the hour of day under hour buckets) is the bucket's own.
 */

const fixture = tabularFixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture, { clock: () => new Date('2026-12-01T00:00:00Z') });
});
afterAll(() => engine.close());

const reports = {
  bots: {
    table: 'bot_events' as const,
    metrics: ['count', 'training', 'last_visit'],
    counts: 2,
    others: ['hour', 'host', 'path', 'bot_name', 'bot_provider', 'bot_type'],
  },
  referrals: {
    table: 'referral_visits' as const,
    metrics: ['visits', 'last_visit'],
    counts: 1,
    others: ['hour', 'host', 'path', 'referral_source', 'referral_type'],
  },
};
/** Three days across the US spring-forward, a day and a half across the EU one, ten hours across a month's end. */
const windows = [
  ['2026-03-07', '2026-03-10'],
  ['2026-03-28 12:00', '2026-03-30 00:00'],
  ['2026-06-30 18:00', '2026-07-01 04:00'],
] as const;
const zones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata'] as const;
const hourMs = 3_600_000;
const at = (text: string, zone: string) =>
  fromZonedTime(text.length === 10 ? `${text}T00:00:00` : `${text.replace(' ', 'T')}:00`, zone).getTime();

/** The labels of the window's buckets, each with the hour of day (in the zone) it starts at. */
function windowBuckets(
  interval: string,
  zone: string,
  start: number,
  end: number,
  anchor: string,
): Map<string, string> {
  const out = new Map<string, string>();
  const instants = [
    ...Array.from({ length: Math.ceil((end - start) / hourMs) }, (_, i) => start + i * hourMs),
    end - 1,
  ];
  for (const ms of instants) {
    const b = bucketOf(interval, zone, new Date(ms), anchor);
    if (!out.has(b.label)) out.set(b.label, formatInTimeZone(new Date(ms), zone, 'HH'));
  }
  return out;
}

async function check(
  name: keyof typeof reports,
  dims: string[],
  interval: string,
  zone: string,
  window: readonly [string, string],
): Promise<Row[]> {
  const r = reports[name];
  const body = {
    domain: domains.own,
    start_date: window[0],
    end_date: window[1],
    metrics: r.metrics,
    dimensions: dims,
    date_interval: interval,
    pagination: { limit: 50_000 },
    ...(name === 'referrals' ? { timezone: zone } : {}),
  };
  const filled = ((await engine.org(ids.org1).report(name)(body, { fill: 'zero' })) as { data: Row[] }).data;
  const start = at(window[0], zone);
  const end = at(window[1], zone);
  const anchor = formatInTimeZone(start, zone, 'yyyy-MM-dd');
  const plain = referenceTraffic(fixture, {
    table: r.table,
    daily: false,
    zone,
    domain: domains.own,
    start,
    end,
    metrics: r.metrics,
    dimensions: dims,
    filters: [],
    interval,
    anchor,
  });
  const d = dims.indexOf('date');
  const h = interval === 'hour' ? dims.indexOf('hour') : -1;
  const free = dims.map((_, i) => i).filter((i) => i !== d && i !== h);
  const seen = new Map(plain.map((row) => [JSON.stringify(free.map((i) => row.dimensions[i])), row]));
  const zero = r.metrics.map((_, j) => (j < r.counts ? 0 : null));
  const expected = new Map(plain.map((row) => [JSON.stringify(row.dimensions), row.metrics]));
  for (const [label, hour] of windowBuckets(interval, zone, start, end, anchor)) {
    for (const row of seen.values()) {
      const dimensions = dims.map((_, i) => (i === d ? label : i === h ? hour : row.dimensions[i]!));
      if (!expected.has(JSON.stringify(dimensions))) expected.set(JSON.stringify(dimensions), zero);
    }
  }
  const got = new Map(filled.map((row) => [JSON.stringify(row.dimensions), row.metrics]));
  expect(got.size, 'one row per key').toBe(filled.length);
  expect(got).toEqual(expected);
  if (h >= 0)
    for (const row of filled)
      expect(row.dimensions[h], 'the hour of an hour bucket is the bucket’s').toBe(
        String(row.dimensions[d]).slice(11, 13),
      );
  return filled;
}

describe('fill=zero with the hour dimension', () => {
  it('hour buckets by date × hour: every row’s hour is its bucket’s (three days of referrals in UTC)', async () => {
    const rows = await check('referrals', ['date', 'hour'], 'hour', 'UTC', ['2026-03-07', '2026-03-10']);
    expect(rows.length).toBe(72);
    expect(rows.filter((r) => r.metrics[0] === 0).length).toBeGreaterThan(0);
  });

  it('every dimension combination, interval, zone and window: the reference’s rows plus consistent zero rows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('bots' as const, 'referrals' as const).chain((name) =>
          fc.record({
            name: fc.constant(name),
            others: fc.shuffledSubarray(reports[name].others, { maxLength: 2 }),
            datePlace: fc.nat(2),
          }),
        ),
        fc.constantFrom('hour', 'day', 'week', 'month'),
        fc.constantFrom(...zones),
        fc.constantFrom(...windows),
        async ({ name, others, datePlace }, interval, zone, window) => {
          const dims = [...others];
          dims.splice(Math.min(datePlace, dims.length), 0, 'date');
          await check(name, dims, interval, name === 'bots' ? 'UTC' : zone, window);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('compare by date × hour across a window shifted by hours: every row’s hour is the bucket’s it shows', async () => {
    for (const compare of ['previous_period', '2026-03-06 05:00..2026-03-09 05:00']) {
      const body = {
        domain: domains.own,
        start_date: '2026-03-07',
        end_date: '2026-03-10',
        metrics: ['visits'],
        dimensions: ['date', 'hour'],
        date_interval: 'hour',
        timezone: 'UTC',
        pagination: { limit: 50_000 },
      };
      for (const fill of [{}, { fill: 'zero' as const }]) {
        const rows = (
          (await engine.org(ids.org1).report('referrals')(body, { compare, ...fill })) as unknown as { data: Row[] }
        ).data;
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) expect(row.dimensions[1]).toBe(String(row.dimensions[0]).slice(11, 13));
      }
    }
  });
});
