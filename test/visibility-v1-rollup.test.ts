import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';

import { visibilityRollups } from '../src/reports/insights/visibility-rollup.ts';

import { pageSql } from './helpers/page-sql.ts';
import { visibilityV1Report } from '../src/reports/tabular-v1/visibility.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { expectGolden } from './helpers/golden.ts';
import { streamed, tabular } from './helpers/tabular.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';

const fixture = insightsFixture();
let withRollups: Engine;
let factsOnly: Engine;
beforeAll(async () => {
  [withRollups, factsOnly] = await Promise.all([
    openFixture(fixture, { cursorSecret: 'same' }),
    openFixture(fixture, { cursorSecret: 'same', rollups: false }),
  ]);
  for (const r of visibilityRollups) await withRollups.core.rollups.warm(r.def, [ids.cat1, ids.cat2]);
});
afterAll(() => {
  withRollups.close();
  factsOnly.close();
});

type Body = Record<string, unknown>;
const reads = async (engine: Engine, body: Body) => {
  return (await pageSql(visibilityV1Report as never, body, engine.org(ids.org1).context(), 'use')).query.text.includes(
    'rollup_visibility_',
  );
};
/** The whole answer as JSON text: the rollup's must be the facts' to the byte, floats included. */
const text = async (engine: Engine, body: Body) =>
  JSON.stringify(await tabular(engine.org(ids.org1), 'visibilityV1', body));

const is = (field: string, value: string) => ({ field, operator: 'is', value });
const kept = new Set(['date', 'model', 'region', 'topic', 'topic_id']);
const keptFilters = new Set(['model_id', 'region_id', 'region_name', 'topic_id', 'topic_name', 'asset_name']);

describe('v1 visibility over the visibility rollups', () => {
  it('answers every request it serves exactly as the facts do, and serves just the per-brand ones on whole ET days', async () => {
    const used = new Set<boolean>();
    const request = fc.record({
      dimensions: fc.subarray(
        ['asset_name', 'asset_id', 'date', 'model', 'region', 'topic', 'topic_id', 'prompt', 'persona'],
        { maxLength: 3 },
      ),
      metrics: fc.subarray(['share_of_voice', 'mentions_count', 'visibility_score', 'executions', 'average_position'], {
        minLength: 1,
      }),
      interval: fc.constantFrom('hour', 'day', 'week', 'month', 'relative_week'),
      window: fc.constantFrom(
        ['2026-02-20', '2027-01-01', true],
        ['2026-03-08', '2026-03-10', true],
        ['2026-11-01T04:00:00Z', '2026-11-02T05:00:00Z', true],
        ['2026-03-08T06:00:00Z', '2026-03-09', false],
      ),
      filters: fc.subarray(
        [
          is('model_id', ids.models[0]!),
          is('region_name', 'United States'),
          is('topic_id', ids.topics[0]!),
          is('asset_name', 'Acme'),
          { field: 'asset_name', operator: 'not_in', value: ['Zeta'] },
          is('prompt_id', ids.prompts[0]!),
        ],
        { maxLength: 2 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const body = {
          category_id: ids.cat1,
          start_date: r.window[0] as string,
          end_date: r.window[1] as string,
          metrics: r.metrics,
          dimensions: r.dimensions,
          date_interval: r.interval,
          filters: r.filters,
        };
        const answerKeys = [
          ...r.dimensions.filter((d) => !d.startsWith('asset_')),
          ...r.filters.map((f) => f.field).filter((f) => f !== 'asset_name'),
        ];
        const one = (keys: string[]) =>
          !(keys.includes('model') || keys.includes('model_id')) || !keys.some((k) => k.startsWith('topic'));
        const servable =
          r.window[2] === true &&
          r.dimensions.some((d) => d.startsWith('asset_')) &&
          !(r.dimensions.includes('date') && r.interval === 'hour') &&
          r.dimensions.every((d) => d.startsWith('asset_') || kept.has(d)) &&
          r.filters.every((f) => keptFilters.has(f.field)) &&
          one(answerKeys);
        const rolled = await reads(withRollups, body);
        expect(rolled).toBe(servable);
        used.add(rolled);
        expect(await text(withRollups, body)).toBe(await text(factsOnly, body));
      }),
      { numRuns: 80 },
    );
    expect([...used].sort()).toEqual([false, true]);
  });

  it('streams the same rows as the facts', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2027-01-01',
      metrics: ['visibility_score', 'average_position'],
      dimensions: ['date', 'asset_name', 'model'],
    };
    expect(await reads(withRollups, body)).toBe(true);
    expect(await streamed(withRollups.org(ids.org1), 'visibilityV1', body)).toEqual(
      await streamed(factsOnly.org(ids.org1), 'visibilityV1', body),
    );
  });

  it('is not read once a prompt changes, and answers as the facts do once rebuilt', async () => {
    const engine = await openFixture(fixture, { cursorSecret: 'same' });
    try {
      for (const r of visibilityRollups) await engine.core.rollups.warm(r.def, [ids.cat1]);
      const body = {
        category_id: ids.cat1,
        start_date: '2026-02-20',
        end_date: '2027-01-01',
        metrics: ['visibility_score', 'mentions_count', 'executions'],
        dimensions: ['asset_name', 'topic'],
      };
      expect(await reads(engine, body)).toBe(true);
      const before = await text(engine, body);
      await engine.org(ids.org1).call('PATCH', `/v1/org/categories/${ids.cat1}/prompts`, {
        body: { prompts: [{ id: ids.prompts[0], analysis_types: ['sentiment'] }] },
      });
      expect(await reads(engine, body)).toBe(false);
      const facts = await text(engine, body);
      expect(facts).not.toBe(before);
      for (const r of visibilityRollups) await engine.core.rollups.warm(r.def, [ids.cat1]);
      expect(await reads(engine, body)).toBe(true);
      expect(await text(engine, body)).toBe(facts);
    } finally {
      engine.close();
    }
  });

  it('golden SQL of a rollup read', async () => {
    const ctx = withRollups.org(ids.org1).context();
    const { query: q } = await pageSql(
      visibilityV1Report as never,
      {
        category_id: ids.cat1,
        start_date: '2026-03-01',
        end_date: '2026-12-01',
        metrics: ['visibility_score', 'share_of_voice', 'average_position'],
        dimensions: ['asset_name', 'date', 'region'],
        date_interval: 'week',
        filters: [is('topic_name', 'Boots')],
        pagination: { limit: 8, offset: 0 },
      },
      ctx,
      'use',
    );
    expect(q.text).toContain('rollup_visibility_region_topic');
    expectGolden(
      join(
        fileURLToPath(new URL('./golden', import.meta.url)),
        'visibility-v1',
        'rollup-brands-by-week-and-region.sql',
      ),
      `${q.text}\n-- params: ${JSON.stringify(q.params)}\n`,
    );
  });
});
