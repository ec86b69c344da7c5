import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError } from '../src/errors.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { tabularFixture } from './fixtures/tabular.ts';

type Json = Record<string, any>;
type Row = { metrics: (number | null)[]; dimensions: (string | null)[] };

/** The reports whose ratios have parts, every ratio metric, and dimensions a case may add. */
const reports = [
  {
    name: 'visibilityV1',
    ratios: ['visibility_score', 'share_of_voice', 'average_position'],
    counts: ['executions'],
    dims: ['model', 'region', 'asset_name'],
  },
  {
    name: 'queryFanoutsV1',
    ratios: ['fanouts_per_execution', 'share'],
    counts: ['total_fanouts'],
    dims: ['model', 'region', 'prompt'],
  },
];

const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(tabularFixture(), { cursorSecret: 'components' });
});
afterAll(() => engine.close());

const call = (name: string, body: Json, options: Json = {}) =>
  engine.org(ids.org1).report(name)(body, options) as Promise<{ info: Json; data: Row[] }>;

describe('components', () => {
  it('summing the parts of daily rows reproduces the window’s ratio exactly, for every ratio metric', async () => {
    const day = fc
      .integer({ min: Date.parse('2026-01-10') / dayMs, max: Date.parse('2026-11-20') / dayMs })
      .map((d) => isoDay(d * dayMs));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...reports),
        day,
        fc.integer({ min: 1, max: 120 }),
        fc.subarray(['a', 'b', 'c'], { maxLength: 1 }),
        async (report, start, days, pick) => {
          const others = pick.map((p) => report.dims['abc'.indexOf(p)]!);
          const metrics = [...report.ratios, ...report.counts];
          const window = {
            category_id: ids.cat1,
            start_date: start,
            end_date: isoDay(Date.parse(start) + days * dayMs),
            metrics,
            pagination: { limit: 50_000, offset: 0 },
          };
          const whole = await call(report.name, { ...window, dimensions: others }, { components: true });
          const daily = await call(
            report.name,
            { ...window, dimensions: [...others, 'date'], date_interval: 'day' },
            { components: true },
          );
          const n = metrics.length;
          expect(whole.info.query.metrics).toEqual([
            ...metrics,
            ...report.ratios.flatMap((m) => [`${m}_numerator`, `${m}_denominator`]),
          ]);

          const sums = new Map<string, number[]>();
          for (const r of daily.data) {
            const k = JSON.stringify(r.dimensions.slice(0, others.length));
            const parts = r.metrics.slice(n) as number[];
            sums.set(
              k,
              (sums.get(k) ?? parts.map(() => 0)).map((s, i) => s + parts[i]!),
            );
            report.ratios.forEach((_, q) => {
              if (parts[2 * q + 1]! > 0) expect(r.metrics[q]).toBe(parts[2 * q]! / parts[2 * q + 1]!);
            });
          }
          expect(whole.data.length).toBe(sums.size);
          for (const r of whole.data) {
            const summed = sums.get(JSON.stringify(r.dimensions))!;
            expect(r.metrics.slice(n), 'the window’s parts are the sums of the days’').toEqual(summed);
            report.ratios.forEach((m, q) => {
              if (summed[2 * q + 1]! > 0) expect(r.metrics[q], m).toBe(summed[2 * q]! / summed[2 * q + 1]!);
            });
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('v2 visibility: the daily rows’ parts sum to the window’s, whose ratios are exactly their quotients', async () => {
    const day = fc
      .integer({ min: Date.parse('2026-01-10') / dayMs, max: Date.parse('2026-11-20') / dayMs })
      .map((d) => isoDay(d * dayMs));
    const rowsOf = async (body: Json) => {
      const out: Json[] = [];
      for await (const e of engine.org(ids.org1).stream('visibility')(body, { components: true }))
        if (e.event === 'result') out.push(e.data);
      return out;
    };
    const ratios = ['visibility_score', 'share_of_voice', 'average_position'];
    await fc.assert(
      fc.asyncProperty(
        day,
        fc.integer({ min: 1, max: 120 }),
        fc.subarray(['model', 'region'], { maxLength: 1 }),
        fc.constantFrom('all', 'owned'),
        async (start, days, groupBy, scope) => {
          const window = {
            category_id: ids.cat1,
            start_date: start,
            end_date: isoDay(Date.parse(start) + (days - 1) * dayMs),
            scope,
          };
          const whole = await rowsOf({ ...window, group_by: groupBy });
          const daily = await rowsOf({ ...window, group_by: [...groupBy, 'date'], interval: 'day' });
          const keyOf = (r: Json) => JSON.stringify([r.asset.name, ...groupBy.map((g) => r[g]?.id ?? r[g])]);
          const sums = new Map<string, number[]>();
          for (const r of daily) {
            const parts = ratios.flatMap((m) => [r[`${m}_numerator`], r[`${m}_denominator`]]) as number[];
            sums.set(
              keyOf(r),
              (sums.get(keyOf(r)) ?? parts.map(() => 0)).map((s, i) => s + parts[i]!),
            );
          }
          expect(whole.length).toBe(sums.size);
          for (const r of whole) {
            const summed = sums.get(keyOf(r))!;
            expect(ratios.flatMap((m) => [r[`${m}_numerator`], r[`${m}_denominator`]])).toEqual(summed);
            ratios.forEach((m, q) => {
              if (summed[2 * q + 1]! > 0) expect(r[m], m).toBe(summed[2 * q]! / summed[2 * q + 1]!);
            });
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('leaves the plain answer as it is in front of the parts, and is refused where ratios have no parts', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-03-01',
      end_date: '2026-09-01',
      metrics: ['share_of_voice', 'executions'],
      dimensions: ['model'],
    };
    const plain = await call('visibilityV1', body);
    const parts = await call('visibilityV1', body, { components: true });
    expect(parts.data.map((r) => ({ ...r, metrics: r.metrics.slice(0, 2) }))).toEqual(plain.data);
    const refusal = (name: string, b: Json, options: Json) =>
      engine
        .org(ids.org1)
        .report(name)(b, options as never)
        .then(
          () => null,
          (e: unknown) => (e instanceof ValidationError ? e.body().detail : e),
        );
    expect(await refusal('citationsV1', { ...body, metrics: ['citation_share'] }, { components: true })).toMatchObject([
      { loc: ['query', 'components'] },
    ]);
    expect(
      await refusal(
        'citations',
        { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-09-01' },
        { components: true },
      ),
    ).toMatchObject([{ loc: ['query', 'components'] }]);
    const v2 = {
      category_id: ids.cat1,
      start_date: '2026-03-01',
      end_date: '2026-09-01',
      metrics: ['share_of_voice'],
      limit: 50,
    } as const;
    const withParts = (await engine.org(ids.org1).reports.visibility(v2, { components: true })) as Json;
    const strip = ({ share_of_voice_numerator: _n, share_of_voice_denominator: _d, ...row }: Json) => row;
    const plainV2 = (await engine.org(ids.org1).reports.visibility(v2)) as Json;
    expect(withParts.data.length).toBeGreaterThan(0);
    expect({ info: { ...withParts.info, fingerprint: null }, data: withParts.data.map(strip) }).toEqual({
      info: { ...plainV2.info, fingerprint: null },
      data: plainV2.data,
    });
    expect(await refusal('visibilityV1', body, { components: 'sometimes' })).toMatchObject([
      { loc: ['query', 'components'] },
    ]);
    // With fill, an added row's parts are 0 / 0, as its counts are 0.
    const filled = await call(
      'visibilityV1',
      { ...body, dimensions: ['date'], date_interval: 'week' },
      { components: true, fill: 'zero' },
    );
    const plainFilled = await call(
      'visibilityV1',
      { ...body, dimensions: ['date'], date_interval: 'week' },
      { fill: 'zero' },
    );
    expect(filled.data.map((r) => ({ ...r, metrics: r.metrics.slice(0, 2) }))).toEqual(plainFilled.data);
    const zeros = filled.data.filter((r) => r.metrics[1] === 0);
    expect(zeros.length).toBeGreaterThan(0);
    for (const r of zeros) expect(r.metrics.slice(2)).toEqual([0, 0]);
    // A query's row exists only on days it ran, while its denominators count every answer of the group.
    const fanouts = {
      category_id: ids.cat1,
      start_date: '2026-03-01',
      end_date: '2026-09-01',
      metrics: ['share'],
      dimensions: ['query'],
    };
    expect(await refusal('queryFanoutsV1', fanouts, { components: true })).toMatchObject([
      { loc: ['query', 'components'], msg: expect.stringContaining('query dimension') },
    ]);
  });
});
