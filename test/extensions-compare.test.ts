import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError } from '../src/errors.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { domains, tabularFixture } from './fixtures/tabular.ts';

type Json = Record<string, any>;
type Row = { metrics: (number | null)[]; dimensions: (string | null)[] };

/**
 * Tabular reports whose windows and buckets are America/New_York calendar days: metrics, instants among them,
 * dimensions a case may add (persona is NULL on the executions without one: keys match NULL to NULL).
 */
const reports = [
  {
    name: 'visibilityV1',
    metrics: ['visibility_score', 'executions', 'share_of_voice'],
    instants: [] as string[],
    dims: ['model', 'persona', 'asset_name'],
    body: (s: string, e: string) => ({ category_id: ids.cat1, start_date: s, end_date: e }),
  },
  {
    name: 'citationsV1',
    metrics: ['count', 'citation_share', 'first_cited_at'],
    instants: ['first_cited_at'],
    dims: ['persona', 'hostname', 'model'],
    body: (s: string, e: string) => ({ category_id: ids.cat1, start_date: s, end_date: e }),
  },
  {
    name: 'sentimentV1',
    metrics: ['positive', 'occurrences'],
    instants: [],
    dims: ['theme', 'persona', 'model'],
    body: (s: string, e: string) => ({ category_id: ids.cat1, start_date: s, end_date: e }),
  },
  {
    name: 'botsV1',
    metrics: ['count', 'training', 'last_visit'],
    instants: ['last_visit'],
    dims: ['path', 'bot_name'],
    body: (s: string, e: string) => ({ domain: domains.own, start_date: s, end_date: e }),
  },
];

const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayOf = (text: string) => Date.parse(`${text}T00:00:00Z`);

/** Independently of the engine: the labels of a window's day, week or month buckets, in time order. */
function buckets(start: string, end: string, interval: 'day' | 'week' | 'month'): string[] {
  const out = new Set<string>();
  for (let ms = dayOf(start); ms < dayOf(end); ms += dayMs) {
    const d = new Date(ms);
    out.add(
      interval === 'day'
        ? isoDay(ms)
        : interval === 'week'
          ? isoDay(ms - ((d.getUTCDay() + 6) % 7) * dayMs)
          : `${isoDay(ms).slice(0, 7)}-01`,
    );
  }
  return [...out].sort();
}

let engine: Engine;
beforeAll(async () => {
  // v1 shows a NULL key as '': the persona named '' is renamed so the JS join below can tell a NULL persona apart.
  const fixture = tabularFixture();
  const personas = fixture.personas!.map((p) => (p.name === '' ? { ...p, name: 'Walker' } : p));
  engine = await openFixture({ ...fixture, personas }, { cursorSecret: 'compare' });
});
afterAll(() => engine.close());

const call = (name: string, body: Json, options: Json = {}) =>
  engine.org(ids.org1).report(name)(body, options) as Promise<{ info: Json; data: Row[] }>;
const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();

describe('compare', () => {
  it('is the two separate calls joined on the group keys, date buckets by their place in the window, with fill and components too', async () => {
    const day = fc
      .integer({ min: dayOf('2026-02-15') / dayMs, max: dayOf('2026-12-01') / dayMs })
      .map((d) => isoDay(d * dayMs));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...reports),
        day,
        fc.integer({ min: 1, max: 70 }),
        fc.constantFrom('day' as const, 'week' as const, 'month' as const),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        fc.constantFrom('previous_period', 'custom'),
        fc.integer({ min: 5, max: 60 }),
        fc.constantFrom('fill', 'components'),
        fc.boolean(),
        async (report, start, days, interval, otherCount, withDate, kind, back, extension, extended) => {
          const end = isoDay(dayOf(start) + days * dayMs);
          const [prevStart, prevEnd] =
            kind === 'previous_period'
              ? [isoDay(dayOf(start) - days * dayMs), start]
              : [
                  isoDay(dayOf(start) - back * dayMs),
                  isoDay(dayOf(start) - back * dayMs + Math.max(1, days - 3) * dayMs),
                ];
          const compare = kind === 'previous_period' ? 'previous_period' : `${prevStart}..${prevEnd}`;
          const dimensions = [...report.dims.slice(0, otherCount), ...(withDate ? ['date'] : [])];
          const body = {
            ...report.body(start, end),
            metrics: report.metrics,
            dimensions,
            date_interval: interval,
            pagination: { limit: 50_000, offset: 0 },
          };
          // Combined: fill (with the date) fills both windows before they are joined; components' parts are metrics compared like the others.
          const also = !extended
            ? {}
            : extension === 'fill' && withDate
              ? { fill: 'zero' }
              : extension === 'components' && report.name === 'visibilityV1'
                ? { components: true }
                : {};
          const compared = await call(report.name, body, { compare, ...also });
          const current = await call(report.name, body, also);
          const previous = await call(report.name, { ...body, ...report.body(prevStart, prevEnd) }, also);
          const metrics = current.info.query.metrics as string[];

          const t = dimensions.indexOf('date');
          const [curBuckets, prevBuckets] = [buckets(start, end, interval), buckets(prevStart, prevEnd, interval)];
          const keyOf = (r: Row, list: string[]) =>
            JSON.stringify(r.dimensions.map((v, i) => (i === t ? list.indexOf(String(v)) : v)));
          const joined = new Map<string, { c?: Row; p?: Row }>();
          for (const r of current.data) joined.set(keyOf(r, curBuckets), { c: r });
          for (const r of previous.data) {
            const k = keyOf(r, prevBuckets);
            joined.set(k, { ...joined.get(k), p: r });
          }
          const expected: Row[] = [];
          for (const [k, { c, p }] of joined) {
            const place = JSON.parse(k) as unknown[];
            if (t >= 0 && !c && (place[t] as number) >= curBuckets.length) continue;
            const cm = metrics.map((_, j) => c?.metrics[j] ?? null);
            const pm = metrics.map((_, j) => p?.metrics[j] ?? null);
            const derived = metrics.flatMap((m, j) => {
              const [x, y] = [cm[j]!, pm[j]!];
              const change = x === null || y === null ? null : x - y;
              const pct = report.instants.includes(m) || change === null || y === 0 ? null : change / y;
              return [y, change, pct];
            });
            const dims = c
              ? c.dimensions
              : p!.dimensions.map((v, i) => (i === t ? curBuckets[place[t] as number]! : v));
            expected.push({ metrics: [...cm, ...derived], dimensions: dims });
          }
          expect(sorted(compared.data)).toEqual(sorted(expected));
          expect(compared.info.total_rows).toBe(expected.length);
          expect(compared.info.query.metrics).toEqual([
            ...metrics,
            ...metrics.flatMap((m) => [`${m}_previous`, `${m}_change`, `${m}_change_pct`]),
          ]);
          expect(compared.info.query.compare).toEqual({
            start_date: `${prevStart}T${compared.info.query.compare.start_date.slice(11)}`,
            end_date: `${prevEnd}T${compared.info.query.compare.end_date.slice(11)}`,
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('v2 visibility: the two separate streams joined on the groups and brands, date buckets by their place', async () => {
    const day = fc
      .integer({ min: dayOf('2026-02-15') / dayMs, max: dayOf('2026-12-01') / dayMs })
      .map((d) => isoDay(d * dayMs));
    const rowsOf = async (body: Json, options: Json = {}) => {
      const events: Json[] = [];
      for await (const e of engine.org(ids.org1).stream('visibility')(body, options)) events.push(e.data);
      return { head: events[0]!, rows: events.slice(1) };
    };
    const metrics = ['visibility_score', 'share_of_voice', 'average_position'];
    await fc.assert(
      fc.asyncProperty(
        day,
        fc.integer({ min: 1, max: 70 }),
        fc.constantFrom('day' as const, 'week' as const, 'month' as const),
        fc.subarray(['model', 'region'], { maxLength: 1 }),
        fc.boolean(),
        fc.constantFrom('all', 'owned'),
        async (start, days, interval, others, withDate, scope) => {
          const end = isoDay(dayOf(start) + (days - 1) * dayMs);
          const [prevStart, prevEnd] = [isoDay(dayOf(start) - days * dayMs), isoDay(dayOf(start) - dayMs)];
          const group_by = [...others, ...(withDate ? ['date'] : [])];
          const body = { category_id: ids.cat1, start_date: start, end_date: end, scope, group_by, interval } as const;
          const compared = await rowsOf(body, { compare: 'previous_period' });
          const current = await rowsOf(body);
          const previous = await rowsOf({ ...body, start_date: prevStart, end_date: prevEnd });
          expect(compared.head.compare).toEqual({ start_date: prevStart, end_date: prevEnd });

          const [curBuckets, prevBuckets] = [
            buckets(start, isoDay(dayOf(end) + dayMs), interval),
            buckets(prevStart, isoDay(dayOf(prevEnd) + dayMs), interval),
          ];
          const place = (r: Json, list: string[]) =>
            JSON.stringify([
              withDate ? list.indexOf(r.date) : null,
              ...others.map((o) => r[o]?.id ?? null),
              r.asset.name,
            ]);
          const prevBy = new Map(previous.rows.map((r) => [place(r, prevBuckets), r]));
          const expected = new Map<string, Json>();
          for (const r of current.rows)
            expected.set(place(r, curBuckets), { cur: r, prev: prevBy.get(place(r, curBuckets)) ?? null });
          for (const [k, r] of prevBy)
            if (!expected.has(k) && (!withDate || JSON.parse(k)[0] < curBuckets.length))
              expected.set(k, { cur: null, prev: r });
          expect(compared.rows.length).toBe(expected.size);
          for (const r of compared.rows) {
            const e = expected.get(place(r, curBuckets))!;
            expect(e, place(r, curBuckets)).toBeDefined();
            if (e.cur)
              expect({ rank: r.rank, ...Object.fromEntries(metrics.map((m) => [m, r[m]])) }).toEqual({
                rank: e.cur.rank,
                ...Object.fromEntries(metrics.map((m) => [m, e.cur[m]])),
              });
            else for (const m of metrics) expect(r[m], m).toBeNull();
            for (const m of metrics) {
              const [c, p] = [r[m] as number | null, (e.prev?.[m] ?? null) as number | null];
              expect(r[`${m}_previous`], m).toBe(p);
              expect(r[`${m}_change`], m).toBe(c === null || p === null ? null : c - p);
              // null-rule: compare-nulls
              expect(r[`${m}_change_pct`], m).toBe(c === null || p === null || p === 0 ? null : (c - p) / p);
            }
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('previous_year reads the same dates a year earlier; the order and paging follow the current metrics', async () => {
    const body = {
      domain: domains.own,
      start_date: '2026-03-01',
      end_date: '2026-06-01',
      metrics: ['visits'],
      dimensions: ['path'],
      order_by: { visits: 'desc' },
      timezone: 'Europe/Berlin',
    };
    const compared = await call('referrals', body, { compare: 'previous_year' });
    expect(compared.info.query.compare).toEqual({
      start_date: '2025-03-01T00:00:00+01:00',
      end_date: '2025-06-01T00:00:00+02:00',
    });
    const visits = compared.data.map((r) => r.metrics[0]);
    expect(visits).toEqual([...visits].sort((a, b) => (b ?? -1) - (a ?? -1)));
    const page = await call(
      'referrals',
      { ...body, pagination: { limit: 2, offset: 1 } },
      { compare: 'previous_year' },
    );
    expect(page.data).toEqual(compared.data.slice(1, 3));
  });

  it('streams the same rows, and explain shows both windows’ SQL', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-05-01',
      end_date: '2026-07-01',
      metrics: ['count'],
      dimensions: ['date', 'model'],
      date_interval: 'week',
    } as const;
    const page = await call('citationsV1', body, { compare: 'previous_period' });
    const events: Json[] = [];
    for await (const e of engine.org(ids.org1).reports.citationsV1Stream(body, { compare: 'previous_period' }))
      events.push(e.data);
    expect(events.slice(1)).toEqual(page.data);
    expect(events[0]!.query.compare).toEqual(page.info.query.compare);
    const explained = (await engine
      .org(ids.org1)
      .reports.citationsV1(body, { compare: 'previous_period', explain: true })) as Json;
    expect(explained.explain.statements[0].sql).toMatch(/cmp_prev/);
  });

  it('refuses bad windows, v2 reports and the raw logs, naming the query parameter', async () => {
    const refusal = (name: string, body: Json, compare: string) =>
      engine
        .org(ids.org1)
        .report(name)(body, { compare } as never)
        .then(
          () => null,
          (e: unknown) => (e instanceof ValidationError ? e.body().detail : e),
        );
    const v1 = {
      category_id: ids.cat1,
      start_date: '2026-05-01',
      end_date: '2026-07-01',
      metrics: ['count'],
      dimensions: ['model'],
    };
    for (const bad of [
      'yesterday',
      '2026-05-01..',
      '2026-05-02..2026-05-01',
      '2020-01-01..2026-01-01',
      `2026-05-01..2026-06-01${' '.repeat(80)}`,
    ]) {
      expect(await refusal('citationsV1', v1, bad), bad).toMatchObject([{ loc: ['query', 'compare'] }]);
    }
    expect(
      await refusal(
        'promptAnswers',
        { category_id: ids.cat1, start_date: '2026-05-01', end_date: '2026-07-01' },
        'previous_period',
      ),
    ).toMatchObject([{ loc: ['query', 'compare'] }]);
    for (const bad of ['2026-05-01T10:00:00..2026-05-20', '2026-05-20..2026-05-01', '2020-01-01..2026-01-01']) {
      expect(
        await refusal('visibility', { category_id: ids.cat1, start_date: '2026-05-01', end_date: '2026-07-01' }, bad),
        bad,
      ).toMatchObject([{ loc: ['query', 'compare'] }]);
    }
    expect(
      await refusal(
        'rawLogs',
        {
          domain: domains.own,
          start_date: '2026-03-01',
          end_date: '2026-03-02',
          metrics: ['count'],
          dimensions: ['path'],
        },
        'previous_period',
      ),
    ).toMatchObject([{ loc: ['query', 'compare'] }]);
  });
});
