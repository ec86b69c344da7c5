import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError } from '../src/errors.ts';
import { openFixture } from './helpers/arrow-fixture.ts';

import { ids } from './fixtures/insights.ts';
import { domains, tabularFixture } from './fixtures/tabular.ts';

type Json = Record<string, any>;
type Row = { metrics: (number | null)[]; dimensions: (string | null)[] };

/** The tabular reports with a date dimension: their metrics (counts first), the other dimensions a case may add. */
const reports: {
  name: string;
  counts: string[];
  others: string[];
  dims: string[];
  body: (start: string, end: string) => Json;
  zone: 'et' | null;
}[] = [
  {
    name: 'visibilityV1',
    counts: ['mentions_count', 'executions'],
    others: ['visibility_score', 'share_of_voice', 'average_position'],
    dims: ['model', 'region', 'asset_name'],
    body: (s, e) => ({ category_id: ids.cat1, start_date: s, end_date: e }),
    zone: 'et',
  },
  {
    name: 'citationsV1',
    counts: ['count'],
    others: ['citation_share', 'first_cited_at'],
    dims: ['hostname', 'model'],
    body: (s, e) => ({ category_id: ids.cat1, start_date: s, end_date: e }),
    zone: 'et',
  },
  {
    name: 'sentimentV1',
    counts: ['positive', 'negative', 'occurrences'],
    others: [],
    dims: ['theme', 'model'],
    body: (s, e) => ({ category_id: ids.cat1, start_date: s, end_date: e }),
    zone: 'et',
  },
  {
    name: 'queryFanoutsV1',
    counts: ['total_fanouts'],
    others: ['fanouts_per_execution', 'share'],
    dims: ['model', 'region'],
    body: (s, e) => ({ category_id: ids.cat1, start_date: s, end_date: e }),
    zone: 'et',
  },
  {
    name: 'botsV1',
    counts: ['count', 'citations', 'indexing', 'training'],
    others: ['last_visit'],
    dims: ['path', 'bot_name'],
    body: (s, e) => ({ domain: domains.own, start_date: s, end_date: e }),
    zone: 'et',
  },
  {
    name: 'referrals',
    counts: ['visits'],
    others: ['last_visit'],
    dims: ['path', 'referral_source'],
    body: (s, e) => ({ domain: domains.own, start_date: s, end_date: e, timezone: 'Europe/Berlin' }),
    zone: null,
  },
  {
    name: 'bots',
    counts: ['count', 'training'],
    others: ['last_visit'],
    dims: ['path', 'bot_type'],
    body: (s, e) => ({ domain: domains.own, start_date: s, end_date: e }),
    zone: null,
  },
];

const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Independently of the engine: the labels of the day, week and month buckets of the local days [start, end). */
function expectedBuckets(start: string, end: string, interval: 'day' | 'week' | 'month'): string[] {
  const out = new Set<string>();
  for (let ms = Date.parse(`${start}T00:00:00Z`); ms < Date.parse(`${end}T00:00:00Z`); ms += dayMs) {
    const d = new Date(ms);
    if (interval === 'day') out.add(isoDay(ms));
    else if (interval === 'week') out.add(isoDay(ms - ((d.getUTCDay() + 6) % 7) * dayMs));
    else out.add(`${isoDay(ms).slice(0, 7)}-01`);
  }
  return [...out];
}

const key = (values: unknown[]) => JSON.stringify(values);

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(tabularFixture(), { cursorSecret: 'fill' });
});
afterAll(() => engine.close());

const call = (name: string, body: Json, options: Json = {}) =>
  engine.org(ids.org1).report(name)(body, options) as Promise<{ info: Json; data: Row[] }>;

describe('fill=zero', () => {
  it('is the plain answer plus zero rows: every bucket of the window for every key seen, and nothing else changes', async () => {
    const day = fc
      .integer({ min: Date.parse('2026-01-20T00:00:00Z') / dayMs, max: Date.parse('2026-12-20T00:00:00Z') / dayMs })
      .map((d) => isoDay(d * dayMs));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...reports),
        day,
        fc.integer({ min: 1, max: 75 }),
        fc.constantFrom('day' as const, 'week' as const, 'month' as const),
        fc.boolean(),
        fc.integer({ min: 0, max: 1 }),
        async (report, start, days, interval, dateFirst, otherCount) => {
          const end = isoDay(Date.parse(`${start}T00:00:00Z`) + days * dayMs);
          const others = report.dims.slice(0, otherCount);
          const dimensions = dateFirst ? ['date', ...others] : [...others, 'date'];
          const metrics = [...report.counts, ...report.others];
          const body = {
            ...report.body(start, end),
            metrics,
            dimensions,
            date_interval: interval,
            pagination: { limit: 50_000, offset: 0 },
          };
          const plain = await call(report.name, body);
          const filled = await call(report.name, body, { fill: 'zero' });
          const t = dimensions.indexOf('date');
          const rest = (r: Row) => r.dimensions.filter((_, i) => i !== t);

          const filledKeys = new Map(filled.data.map((r) => [key(r.dimensions), r]));
          expect(filledKeys.size, 'one row per key').toBe(filled.data.length);
          for (const r of plain.data)
            expect(filledKeys.get(key(r.dimensions)), 'a plain row is kept as it is').toEqual(r);
          const plainKeys = new Set(plain.data.map((r) => key(r.dimensions)));
          // null-rule: fill-zero-counts-null-ratios
          const zero = metrics.map((m) => (report.counts.includes(m) ? 0 : null));
          for (const r of filled.data)
            if (!plainKeys.has(key(r.dimensions))) expect(r.metrics, 'an added row is a zero row').toEqual(zero);

          const seen = new Set(plain.data.map((r) => key(rest(r))));
          const buckets = new Set(filled.data.map((r) => r.dimensions[t]));
          expect(filled.data.length, 'every bucket for every key seen').toBe(
            seen.size * (seen.size === 0 ? 0 : buckets.size),
          );
          for (const r of plain.data) expect(buckets.has(r.dimensions[t])).toBe(true);
          if (report.zone === 'et' && plain.data.length > 0)
            expect([...buckets].sort()).toEqual(expectedBuckets(start, end, interval).sort());
          expect(filled.info.total_rows).toBe(filled.data.length);
          const { fingerprint: a, ...plainQuery } = plain.info;
          const { fingerprint: b, ...filledQuery } = filled.info;
          expect(a).not.toBe(b);
          expect({ ...filledQuery, total_rows: 0 }).toEqual({ ...plainQuery, total_rows: 0 });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('v2 visibility: the plain answer plus every bucket of the window for every key seen, each brand with null ratios', async () => {
    const day = fc
      .integer({ min: Date.parse('2026-01-20T00:00:00Z') / dayMs, max: Date.parse('2026-12-20T00:00:00Z') / dayMs })
      .map((d) => isoDay(d * dayMs));
    const rowsOf = async (body: Json, options: Json) => {
      const events: Json[] = [];
      for await (const e of engine.org(ids.org1).stream('visibility')(body, options)) events.push(e.data);
      return { head: events[0]!, rows: events.slice(1) };
    };
    await fc.assert(
      fc.asyncProperty(
        day,
        fc.integer({ min: 1, max: 75 }),
        fc.constantFrom('day' as const, 'week' as const, 'month' as const),
        fc.subarray(['model', 'region'], { maxLength: 1 }),
        fc.boolean(),
        fc.constantFrom('all', 'owned'),
        async (start, days, interval, others, dateFirst, scope) => {
          const end = isoDay(Date.parse(`${start}T00:00:00Z`) + (days - 1) * dayMs);
          const group_by = dateFirst ? ['date', ...others] : [...others, 'date'];
          const body = { category_id: ids.cat1, start_date: start, end_date: end, scope, group_by, interval } as const;
          const plain = await rowsOf(body, {});
          const filled = await rowsOf(body, { fill: 'zero' });
          const groupOf = (r: Json) => JSON.stringify([r.date, ...others.map((o) => r[o]?.id ?? null)]);
          const plainGroups = new Set(plain.rows.map(groupOf));
          expect(
            filled.rows.filter((r) => plainGroups.has(groupOf(r))),
            'the plain rows, unchanged and in order',
          ).toEqual(plain.rows);
          const added = filled.rows.filter((r) => !plainGroups.has(groupOf(r)));
          for (const r of added)
            expect([r.visibility_score, r.share_of_voice, r.average_position]).toEqual([null, null, null]);
          const seen = new Set(plain.rows.map((r) => JSON.stringify(others.map((o) => r[o]?.id ?? null))));
          const brands = new Set(plain.rows.map((r) => r.asset.name)).size;
          const buckets = new Set(filled.rows.map((r) => r.date));
          if (plain.rows.length > 0)
            expect([...buckets].sort()).toEqual(
              expectedBuckets(start, isoDay(Date.parse(`${end}T00:00:00Z`) + dayMs), interval).sort(),
            );
          expect(filled.rows.length).toBe(plain.rows.length === 0 ? 0 : seen.size * buckets.size * brands);
          expect(filled.head.total_results).toBe(filled.rows.length);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('fills hours in a half-hour zone, and ranks and pages the zero rows like the others', async () => {
    const body = {
      domain: domains.own,
      start_date: '2026-02-01',
      end_date: '2026-02-03',
      metrics: ['visits', 'last_visit'],
      dimensions: ['date', 'path'],
      date_interval: 'hour',
      timezone: 'Asia/Kolkata',
      pagination: { limit: 1000 },
    };
    const filled = await call('referrals', body, { fill: 'zero' });
    const hours = new Set(filled.data.map((r) => r.dimensions[0]));
    expect(hours.size).toBe(48);
    expect([...hours].every((h) => /^2026-02-0[12]T\d\d:00:00\+05:30$/.test(String(h)))).toBe(true);
    const ordered = await call(
      'referrals',
      { ...body, order_by: { visits: 'desc' }, pagination: { limit: 5, offset: 10 } },
      { fill: 'zero' },
    );
    const all = await call(
      'referrals',
      { ...body, order_by: { visits: 'desc' }, pagination: { limit: 1000 } },
      { fill: 'zero' },
    );
    expect(ordered.data).toEqual(all.data.slice(10, 15));
    expect(ordered.info.total_rows).toBe(all.data.length);
  });

  it('streams the same rows as the page', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-03-01',
      end_date: '2026-05-01',
      metrics: ['count'],
      dimensions: ['date', 'model'],
      date_interval: 'week',
    } as const;
    const page = await call('citationsV1', body, { fill: 'zero' });
    const events: Json[] = [];
    for await (const e of engine.org(ids.org1).reports.citationsV1Stream(body, { fill: 'zero' })) events.push(e.data);
    expect(events.slice(1)).toEqual(page.data);
    expect(events[0]!.total_rows).toBe(page.info.total_rows);
  });

  it('is refused, naming the query parameter, without the date dimension and on the raw answers and logs', async () => {
    const refusal = (name: string, body: Json) =>
      engine
        .org(ids.org1)
        .report(name)(body, { fill: 'zero' } as never)
        .then(
          () => null,
          (e: unknown) => (e instanceof ValidationError ? e.body().detail : e),
        );
    expect(
      await refusal('citationsV1', {
        category_id: ids.cat1,
        start_date: '2026-03-01',
        end_date: '2026-05-01',
        metrics: ['count'],
        dimensions: ['model'],
      }),
    ).toMatchObject([{ loc: ['query', 'fill'], msg: expect.stringContaining('date dimension') }]);
    expect(
      await refusal('visibility', {
        category_id: ids.cat1,
        start_date: '2026-03-01',
        end_date: '2026-05-01',
        group_by: ['model'],
      }),
    ).toMatchObject([{ loc: ['query', 'fill'], msg: expect.stringContaining('date') }]);
    expect(
      await refusal('citations', {
        category_id: ids.cat1,
        start_date: '2026-03-01',
        end_date: '2026-05-01',
        group_by: ['model'],
      }),
    ).toMatchObject([{ loc: ['query', 'fill'], msg: expect.stringContaining('date') }]);
    expect(
      await refusal('promptAnswers', { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-05-01' }),
    ).toMatchObject([{ loc: ['query', 'fill'] }]);
    expect(
      await refusal('rawLogs', {
        domain: domains.own,
        start_date: '2026-03-01',
        end_date: '2026-03-02',
        metrics: ['count'],
        dimensions: ['path'],
      }),
    ).toMatchObject([{ loc: ['query', 'fill'] }]);
  });

  it('explain shows the filled SQL', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-03-01',
      end_date: '2026-05-01',
      metrics: ['count'],
      dimensions: ['date'],
    } as const;
    const explained = (await engine.org(ids.org1).reports.citationsV1(body, { fill: 'zero', explain: true })) as Json;
    const text: string = explained.explain.statements[0].sql;
    expect(text).toContain('grouped_plain AS MATERIALIZED (');
    expect(text).toMatch(/CROSS JOIN \(SELECT DISTINCT .* AS k\s/);
  });
});
