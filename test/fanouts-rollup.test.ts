import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toWire } from '../src/query/filter-node.ts';

import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { fanoutsDaily } from '../src/reports/insights/fanouts-rollup.ts';
import { queryFanoutsReport } from '../src/reports/insights-v2/query-fanouts.ts';
import { pageSql } from './helpers/page-sql.ts';

import { queryFanoutsV1Report } from '../src/reports/tabular-v1/query-fanouts.ts';
import { expectGolden } from './helpers/golden.ts';
import { layeredFilter, typeLeaf } from './helpers/more-v2.ts';
import { streamEvents } from './helpers/walk.ts';
import { ids } from './fixtures/insights.ts';
import { rollupPair, rollupWindows } from './helpers/rollup-pair.ts';

const { engines, acrossEdit, readsV2, readsV1, v2Text, v1Text } = rollupPair(fanoutsDaily, [ids.cat1], {
  v2: queryFanoutsReport,
  v2Name: 'queryFanouts',
  v1: queryFanoutsV1Report,
  v1Name: 'queryFanoutsV1',
});
const windows = rollupWindows;
const groupings = [
  undefined,
  [],
  ['prompt'],
  ['prompt', 'query'],
  ['query', 'prompt'],
  ['date'],
  ['date', 'prompt', 'query'],
  ['prompt', 'date'],
  ['model'],
  ['region', 'date'],
  ['prompt', 'model'],
];

describe('the fan-outs daily rollup, v2', () => {
  it('answers every request it serves exactly as the facts do (pages and streams), and serves just those', async () => {
    const used = new Set<boolean>();
    const answerFields = {
      prompt: promptFilterFields.prompt!,
      topic: promptFilterFields.topic!,
      tag: promptFilterFields.tag!,
      model: promptFilterFields.model!,
      region: promptFilterFields.region!,
    };
    const request = fc.record({
      filter: fc.option(layeredFilter(answerFields, {}, typeLeaf), { nil: undefined, freq: 2 }),
      group_by: fc.constantFrom(...groupings),
      metrics: fc.option(
        fc.subarray(['total_fanouts', 'fanouts_per_execution', 'query_variations', 'share'], { minLength: 1 }),
        { nil: undefined },
      ),
      interval: fc.constantFrom('day', 'week', 'month'),
      window: fc.constantFrom(...windows),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const byQuery = (r.group_by ?? []).includes('query');
        const metrics = r.metrics?.filter((m) => (byQuery ? m !== 'query_variations' : m !== 'share'));
        const body = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          ...(r.group_by ? { group_by: r.group_by } : {}),
          ...(metrics && metrics.length > 0 ? { metrics } : {}),
          interval: r.interval,
          filter: r.filter ? toWire(r.filter) : null,
        };
        const servable =
          !(r.group_by ?? []).some((d) => d === 'model' || d === 'region') &&
          !/"field":"(model|region)"/.test(JSON.stringify(body.filter));
        const reads = await readsV2(engines.withRollups, body);
        expect(reads).toBe(servable);
        used.add(reads);
        expect(await v2Text(engines.withRollups, body)).toBe(await v2Text(engines.factsOnly, body));
        if (reads && (r.group_by ?? []).includes('date')) {
          expect(await streamEvents(engines.withRollups.org(ids.org1), 'queryFanouts', body)).toEqual(
            await streamEvents(engines.factsOnly.org(ids.org1), 'queryFanouts', body),
          );
        }
      }),
      { numRuns: 60 },
    );
    expect([...used].sort()).toEqual([false, true]);
  });
});

describe('the fan-outs daily rollup, v1', () => {
  it('answers every request it serves exactly as the facts do, and serves just those', async () => {
    const used = new Set<boolean>();
    const filterOf = (field: string, value: string) => ({ field, operator: 'is', value });
    const request = fc.record({
      dimensions: fc.subarray(['prompt', 'query', 'date', 'model', 'region'], { maxLength: 3 }),
      metrics: fc.subarray(['fanouts_per_execution', 'total_fanouts', 'share'], { minLength: 1 }),
      interval: fc.constantFrom('hour', 'day', 'week', 'month', 'relative_week'),
      window: fc.constantFrom(
        ['2026-02-20', '2027-01-01', true],
        ['2026-03-08', '2026-03-10', true],
        ['2026-11-01T04:00:00Z', '2026-11-02T05:00:00Z', true],
        ['2026-03-08T06:00:00Z', '2026-03-09', false],
      ),
      filters: fc.subarray(
        [
          filterOf('topic_id', ids.topics[0]!),
          filterOf('prompt_id', ids.prompts[1]!),
          filterOf('tag_id', ids.tags[0]!),
          filterOf('analysis_type', 'visibility'),
          filterOf('model_id', ids.models[0]!),
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
        const servable =
          r.window[2] &&
          !(r.dimensions.includes('date') && r.interval === 'hour') &&
          !r.dimensions.some((d) => d === 'model' || d === 'region') &&
          !r.filters.some((f) => f.field === 'model_id');
        const reads = await readsV1(engines.withRollups, body);
        expect(reads).toBe(servable);
        used.add(reads);
        expect(await v1Text(engines.withRollups, body)).toBe(await v1Text(engines.factsOnly, body));
      }),
      { numRuns: 60 },
    );
    expect([...used].sort()).toEqual([false, true]);
  });
});

describe('the fan-outs daily rollup across prompt edits', () => {
  it('is not read once a prompt changes, and answers as the facts do once rebuilt', async () => {
    const v2 = {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2026-12-31',
      group_by: ['prompt', 'query'],
    };
    const v1 = {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2027-01-01',
      metrics: ['total_fanouts', 'fanouts_per_execution'],
      dimensions: ['prompt'],
    };
    const { before, after } = await acrossEdit(v2, v1, (engine) =>
      engine.org(ids.org1).call('PATCH', `/v1/org/categories/${ids.cat1}/prompts`, {
        body: { prompts: [{ id: ids.prompts[0], analysis_types: ['sentiment'] }] },
      }),
    );
    expect(after[0]).not.toBe(before[0]);
  });
});

describe('golden SQL of fanouts rollup reads', () => {
  it('v2 and v1', async () => {
    const dir = fileURLToPath(new URL('./golden', import.meta.url));
    const ctx = engines.withRollups.org(ids.org1).context();
    const v2 = await pageSql(
      queryFanoutsReport as never,
      {
        category_id: ids.cat1,
        start_date: '2026-02-20',
        end_date: '2026-12-31',
        group_by: ['date', 'prompt', 'query'],
        interval: 'month',
        metrics: ['total_fanouts', 'fanouts_per_execution', 'share'],
        filter: { field: 'topic', op: 'is', value: 'Boots' },
      },
      ctx,
      'use',
    );
    const q2 = v2.query;
    expect(q2.text).toContain('rollup_fanouts_daily');
    expectGolden(
      join(dir, 'query-fanouts', 'rollup-by-month-prompt-and-query.sql'),
      `${q2.text}\n-- params: ${JSON.stringify(q2.params)}\n`,
    );
    const v1 = await pageSql(
      queryFanoutsV1Report as never,
      {
        category_id: ids.cat1,
        start_date: '2026-03-01',
        end_date: '2026-12-01',
        metrics: ['total_fanouts', 'fanouts_per_execution', 'share'],
        dimensions: ['prompt', 'query'],
        filters: [{ field: 'tag_id', operator: 'is', value: ids.tags[0] }],
        pagination: { limit: 8, offset: 0 },
      },
      ctx,
      'use',
    );
    const q1 = v1.query;
    expect(q1.text).toContain('rollup_fanouts_daily');
    expectGolden(
      join(dir, 'query-fanouts-v1', 'rollup-prompt-and-query.sql'),
      `${q1.text}\n-- params: ${JSON.stringify(q1.params)}\n`,
    );
  });
});
