import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';

import { pageSql } from './helpers/page-sql.ts';
import { botsV1Report } from '../src/reports/traffic/bots.ts';
import { referralsV1Report, referralsV2Report } from '../src/reports/traffic/referrals.ts';
import { trafficDaily } from '../src/reports/traffic/traffic-daily.ts';
import { trafficHourly } from '../src/reports/traffic/traffic-rollup.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { expectGolden } from './helpers/golden.ts';
import { tabular } from './helpers/tabular.ts';
import { ids } from './fixtures/insights.ts';
import { bots, domains, referralSources, tabularFixture, tabularIds, trafficPaths } from './fixtures/tabular.ts';

const fixture = tabularFixture();
const clock = () => new Date('2026-12-01T00:00:00Z');
let withRollup: Engine;
let factsOnly: Engine;
beforeAll(async () => {
  withRollup = await openFixture(fixture, { clock });
  factsOnly = await openFixture(fixture, { clock, rollups: false });
  await withRollup.core.rollups.warm(trafficDaily, [ids.org1]);
});
afterAll(() => {
  withRollup.close();
  factsOnly.close();
});

const reports = { botsV1: botsV1Report, referralsV1: referralsV1Report } as const;
type Kind = keyof typeof reports;

const sqlOf = async (engine: Engine, kind: Kind, body: object) => {
  return (await pageSql(reports[kind] as never, body, engine.org(ids.org1).context(), 'use')).query;
};

describe('the traffic daily rollup (v1 daily views)', () => {
  it('answers every v1 bots and referrals request exactly as the facts do', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          kind: fc.constantFrom<Kind>('botsV1', 'referralsV1'),
          dimensions: fc.subarray(['date', 'host', 'path', 'source'], { maxLength: 3 }),
          interval: fc.constantFrom('hour', 'day', 'week', 'month', 'year', 'relative_week'),
          // Instants inside ET days too: the daily view keeps the whole days that start in the window.
          window: fc.constantFrom(
            ['2026-02-01', '2026-12-01'],
            ['2026-03-07', '2026-03-10'],
            ['2026-03-08 12:00', '2026-03-09T04:30:00Z'],
            ['2026-10-31', '2026-11-02T05:00:00Z'],
            ['2026-06-30T18:00:00Z', '2026-07-02'],
          ),
          path: fc.option(fc.constantFrom(...trafficPaths), { nil: undefined }),
          source: fc.option(
            fc.constantFrom(...bots.map((b) => b.bot_name), ...referralSources.map((r) => r.referral_source)),
            { nil: undefined },
          ),
          order: fc.option(fc.constantFrom('asc', 'desc'), { nil: undefined }),
        }),
        async (r) => {
          const botsKind = r.kind === 'botsV1';
          const sourceField = botsKind ? 'bot_name' : 'referral_source';
          const metrics = botsKind
            ? ['count', 'citations', 'indexing', 'training', 'last_visit']
            : ['visits', 'last_visit'];
          const dimensions = r.dimensions.map((d) => (d === 'source' ? sourceField : d));
          const filters = [
            ...(r.path ? [{ field: 'path', operator: 'not_is', value: r.path }] : []),
            ...(r.source ? [{ field: sourceField, operator: 'is', value: r.source }] : []),
          ];
          const body = {
            domain: domains.own,
            start_date: r.window[0],
            end_date: r.window[1],
            metrics,
            dimensions:
              filters.some((f) => f.field === sourceField) && !dimensions.includes(sourceField)
                ? [...dimensions, sourceField]
                : dimensions,
            date_interval: r.interval,
            filters,
            ...(r.order ? { order_by: { [metrics[0]!]: r.order } } : {}),
          };
          expect((await sqlOf(withRollup, r.kind, body)).text).toContain('rollup_traffic_daily');
          expect(JSON.stringify(await tabular(withRollup.org(ids.org1), r.kind, body))).toBe(
            JSON.stringify(await tabular(factsOnly.org(ids.org1), r.kind, body)),
          );
        },
      ),
      { numRuns: 80 },
    );
  });

  it('is preferred to the hourly rollup, which answers while the daily one is built', async () => {
    const engine = await openFixture(fixture, { clock });
    try {
      await engine.core.rollups.warm(trafficHourly, [ids.org1]);
      const body = {
        domain: domains.own,
        start_date: '2026-02-01',
        end_date: '2026-12-01',
        metrics: ['count'],
        dimensions: ['date'],
        date_interval: 'month',
      };
      const first = (await sqlOf(engine, 'botsV1', body)).text;
      expect(first).toContain('rollup_traffic_hourly');
      expect(first).not.toContain('rollup_traffic_daily');
      await engine.core.rollups.warm(trafficDaily, [ids.org1]);
      expect((await sqlOf(engine, 'botsV1', body)).text).toContain('rollup_traffic_daily');
      expect(JSON.stringify(await tabular(engine.org(ids.org1), 'botsV1', body))).toBe(
        JSON.stringify(await tabular(factsOnly.org(ids.org1), 'botsV1', body)),
      );
    } finally {
      engine.close();
    }
  });

  it('is never read by the v2 hourly views', async () => {
    const body = {
      domain: domains.own,
      start_date: '2026-02-01',
      end_date: '2026-12-01',
      metrics: ['visits'],
      dimensions: ['date', 'path'],
      date_interval: 'day',
      timezone: 'America/New_York',
      view_id: tabularIds.views.blog,
    } as const;
    const { query } = await pageSql(referralsV2Report as never, body, withRollup.org(ids.org1).context(), 'use');
    expect(query.text).not.toContain('rollup_traffic_daily');
    expect(await withRollup.org(ids.org1).reports.referrals(body)).toEqual(
      await factsOnly.org(ids.org1).reports.referrals(body),
    );
  });

  it('golden SQL of a daily rollup read', async () => {
    const body = {
      domain: domains.own,
      start_date: '2026-03-01',
      end_date: '2026-12-01',
      metrics: ['count', 'citations', 'last_visit'],
      dimensions: ['date', 'path'],
      date_interval: 'week',
      filters: [{ field: 'bot_name', operator: 'in', value: ['GPTBot', 'ChatGPT-User'] }],
      pagination: { limit: 8, offset: 0 },
    };
    const query = await sqlOf(withRollup, 'botsV1', body);
    expectGolden(
      join(fileURLToPath(new URL('./golden', import.meta.url)), 'bots-v1', 'rollup-daily-by-week-and-path.sql'),
      `${query.text}\n-- params: ${JSON.stringify(query.params)}\n`,
    );
  });
});
