import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { pageSql } from './helpers/page-sql.ts';

import { botsV1Report, botsV2Report } from '../src/reports/traffic/bots.ts';
import { referralsV1Report, referralsV2Report } from '../src/reports/traffic/referrals.ts';
import { trafficHourly } from '../src/reports/traffic/traffic-rollup.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { tabular } from './helpers/tabular.ts';
import { ids } from './fixtures/insights.ts';
import { bots, domains, tabularFixture, tabularIds, trafficPaths } from './fixtures/tabular.ts';

const fixture = tabularFixture();
const clock = () => new Date('2026-12-01T00:00:00Z');
let withRollup: Engine;
let factsOnly: Engine;
beforeAll(async () => {
  withRollup = await openFixture(fixture, { clock });
  factsOnly = await openFixture(fixture, { clock, rollups: false });
  await withRollup.core.rollups.warm(trafficHourly, [ids.org1]);
});
afterAll(() => {
  withRollup.close();
  factsOnly.close();
});

const reports = {
  bots: botsV2Report,
  referrals: referralsV2Report,
  botsV1: botsV1Report,
  referralsV1: referralsV1Report,
} as const;
type Kind = keyof typeof reports;

const readsRollup = async (kind: Kind, body: object) => {
  const { query } = await pageSql(reports[kind] as never, body, withRollup.org(ids.org1).context(), 'use');
  // v1 daily views prefer the daily rollup, which their first request starts building in the background.
  return /rollup_traffic_(hourly|daily)/.test(query.text);
};

const windows = [
  ['2026-02-01', '2026-12-01'],
  ['2026-03-07', '2026-03-10'],
  ['2026-03-28 12:00', '2026-03-30 00:30:00'],
  ['2026-06-30T18:00:00Z', '2026-07-01T04:00:00+00:00'],
  ['2026-10-24', '2026-11-02'],
  ['2026-10-25T00:00:00Z', '2026-10-25T03:00:00Z'],
] as const;
const zones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe'] as const;
const intervals = ['hour', 'day', 'week', 'month', 'quarter', 'year', 'relative_week'] as const;

describe('the traffic hourly rollup', () => {
  it('answers every bots and referrals request exactly as the facts do, wherever it is eligible', async () => {
    const used = new Set<boolean>();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          kind: fc.constantFrom<Kind>('bots', 'referrals', 'botsV1', 'referralsV1'),
          dimensions: fc.subarray(['date', 'hour', 'host', 'path'], { maxLength: 2 }),
          interval: fc.constantFrom(...intervals),
          window: fc.constantFrom(...windows),
          zone: fc.constantFrom(...zones),
          path: fc.option(fc.constantFrom(...trafficPaths), { nil: undefined }),
          bot: fc.option(fc.constantFrom(...bots.map((b) => b.bot_name)), { nil: undefined }),
          view: fc.constantFrom(undefined, tabularIds.views.blog, tabularIds.views.docs),
        }),
        async (r) => {
          const v1 = r.kind.endsWith('V1');
          const botsKind = r.kind.startsWith('bots');
          const metrics = botsKind
            ? ['count', 'citations', 'indexing', 'training', 'last_visit']
            : ['visits', 'last_visit'];
          const dimensions = v1 ? r.dimensions.filter((d) => d !== 'hour') : r.dimensions;
          const filters = [
            ...(r.path ? [{ field: 'path', operator: 'not_is', value: r.path }] : []),
            ...(botsKind && r.bot ? [{ field: 'bot_name', operator: 'is', value: r.bot }] : []),
          ];
          const body = {
            domain: domains.own,
            start_date: r.window[0],
            end_date: r.window[1],
            metrics,
            dimensions,
            date_interval: v1 && r.interval === 'quarter' ? 'month' : r.interval,
            filters,
            ...(r.kind === 'referrals' ? { timezone: r.zone, ...(r.view ? { view_id: r.view } : {}) } : {}),
          };
          used.add(await readsRollup(r.kind, body));
          expect(await tabular(withRollup.org(ids.org1), r.kind, body)).toEqual(
            await tabular(factsOnly.org(ids.org1), r.kind, body),
          );
        },
      ),
      { numRuns: 120 },
    );
    expect([...used].sort()).toEqual([false, true]);
  });

  it('is read for whole-hour windows and zones, and never for half-hour zones, minute windows or minute timestamps', async () => {
    const body = {
      domain: domains.own,
      start_date: '2026-02-01',
      end_date: '2026-12-01',
      metrics: ['visits'],
      dimensions: ['date'],
      date_interval: 'hour',
    };
    expect(await readsRollup('referrals', { ...body, timezone: 'Europe/Berlin' })).toBe(true);
    expect(await readsRollup('referrals', { ...body, timezone: 'Asia/Kolkata' })).toBe(false);
    expect(await readsRollup('referrals', { ...body, dimensions: ['path'], timezone: 'Asia/Kolkata' })).toBe(false);
    expect(await readsRollup('referrals', { ...body, start_date: '2026-02-01 00:30' })).toBe(false);
    expect(await readsRollup('botsV1', { ...body, metrics: ['count'] })).toBe(true);
    expect(await readsRollup('bots', { ...body, metrics: ['count'], dimensions: ['path'] })).toBe(true);
  });
});
