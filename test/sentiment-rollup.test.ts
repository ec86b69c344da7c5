import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toWire } from '../src/query/filter-node.ts';

import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { sentimentCatalog } from '../src/reports/insights-v2/sentiment/sentiment-sql.ts';
import { sentimentDaily } from '../src/reports/insights/sentiment-rollup.ts';
import { sentimentReport } from '../src/reports/insights-v2/sentiment/sentiment.ts';
import { pageSql } from './helpers/page-sql.ts';

import { sentimentV1Report } from '../src/reports/tabular-v1/sentiment.ts';
import { expectGolden } from './helpers/golden.ts';
import { layeredFilter } from './helpers/more-v2.ts';
import { streamEvents } from './helpers/walk.ts';
import { ids } from './fixtures/insights.ts';
import { rollupPair, rollupWindows } from './helpers/rollup-pair.ts';

const { fixture, engines, acrossEdit, readsV2, readsV1, v2Text, v1Text } = rollupPair(sentimentDaily, [ids.cat1], {
  v2: sentimentReport,
  v2Name: 'sentiment',
  v1: sentimentV1Report,
  v1Name: 'sentimentV1',
});
const windows = rollupWindows;

describe('the sentiment daily rollup, v2', () => {
  it('answers every request it serves exactly as the facts do (pages and date streams), and serves just those', async () => {
    const used = new Set<boolean>();
    const request = fc.record({
      filter: fc.option(
        layeredFilter(
          { model: promptFilterFields.model!, topic: promptFilterFields.topic! },
          { theme: sentimentCatalog.theme! },
        ),
        { nil: undefined, freq: 2 },
      ),
      source: fc.constantFrom('asset', 'asset', 'asset', 'citation'),
      group_by: fc.uniqueArray(fc.constantFrom('date', 'model', 'competitor', 'theme', 'region'), { maxLength: 2 }),
      interval: fc.constantFrom('day', 'week', 'month'),
      asset: fc.constantFrom('Acme', 'Zeta', ids.assets[1]!),
      comparison: fc.option(fc.constantFrom(['2026-02-20', '2026-05-31'], ['2026-08-01', '2026-12-31']), {
        nil: undefined,
      }),
      occurrence: fc.boolean(),
      window: fc.constantFrom(...windows),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const groupBy = r.source === 'citation' ? [] : r.group_by;
        const filterText = JSON.stringify(r.filter ? toWire(r.filter) : null);
        const occurrence = r.occurrence && (groupBy.includes('theme') || filterText.includes('"field":"theme"'));
        const comparison = groupBy.includes('date') ? undefined : r.comparison;
        const body = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          asset: r.asset,
          source: r.source,
          group_by: groupBy,
          interval: r.interval,
          ...(occurrence ? { metrics: ['occurrence', 'positive_sentiment'] } : {}),
          ...(comparison ? { comparison_start_date: comparison[0], comparison_end_date: comparison[1] } : {}),
          filter: r.filter ? toWire(r.filter) : null,
        };
        const servable =
          r.source === 'asset' &&
          !groupBy.some((d) => d === 'theme' || d === 'region') &&
          !/"field":"(topic|theme)"/.test(filterText);
        const reads = await readsV2(engines.withRollups, body);
        expect(reads).toBe(servable);
        used.add(reads);
        expect(await v2Text(engines.withRollups, body)).toBe(await v2Text(engines.factsOnly, body));
        if (reads && groupBy.includes('date')) {
          expect(await streamEvents(engines.withRollups.org(ids.org1), 'sentiment', body)).toEqual(
            await streamEvents(engines.factsOnly.org(ids.org1), 'sentiment', body),
          );
        }
      }),
      { numRuns: 60 },
    );
    expect([...used].sort()).toEqual([false, true]);
  });
});

describe('the sentiment daily rollup, v1', () => {
  it('answers every request it serves exactly as the facts do, and serves just those', async () => {
    const used = new Set<boolean>();
    const filterOf = (field: string, value: string) => ({ field, operator: 'is', value });
    const request = fc.record({
      dimensions: fc.subarray(['date', 'model', 'asset_id', 'asset_name', 'theme', 'sentiment_type'], { maxLength: 3 }),
      metrics: fc.subarray(['positive', 'negative', 'occurrences'], { minLength: 1 }),
      interval: fc.constantFrom('hour', 'day', 'week', 'month', 'relative_week'),
      window: fc.constantFrom(
        ['2026-02-20', '2027-01-01', true],
        ['2026-03-08', '2026-03-10', true],
        ['2026-11-01T04:00:00Z', '2026-11-02T05:00:00Z', true],
        ['2026-03-08T06:00:00Z', '2026-03-09', false],
      ),
      filters: fc.subarray(
        [
          filterOf('model_id', ids.models[0]!),
          filterOf('asset_id', ids.assets[0]!),
          filterOf('asset_name', 'Zeta'),
          filterOf('topic_id', ids.topics[0]!),
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
          !r.dimensions.some((d) => d === 'theme' || d === 'sentiment_type') &&
          !r.filters.some((f) => f.field === 'topic_id');
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

describe('the sentiment daily rollup across prompt edits', () => {
  it('is not read once a prompt changes, and answers as the facts do once rebuilt', async () => {
    const v2 = {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2026-12-31',
      asset: 'Acme',
      group_by: ['model'],
    };
    const v1 = {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2027-01-01',
      metrics: ['positive', 'occurrences'],
      dimensions: ['asset_name'],
    };
    const carrying = fixture.prompts!.filter(
      (p) => p.category_id === ids.cat1 && (p.analysis_types as string[]).includes('sentiment'),
    );
    const { before, after } = await acrossEdit(v2, v1, (engine) =>
      engine.org(ids.org1).call('PATCH', `/v1/org/categories/${ids.cat1}/prompts`, {
        body: { prompts: [{ id: carrying[0]!.id, analysis_types: ['visibility'] }] },
      }),
    );
    expect(after).not.toEqual(before);
  });
});

describe('golden SQL of sentiment rollup reads', () => {
  it('v2 and v1', async () => {
    const dir = fileURLToPath(new URL('./golden', import.meta.url));
    const ctx = engines.withRollups.org(ids.org1).context();
    const v2 = await pageSql(
      sentimentReport as never,
      {
        category_id: ids.cat1,
        start_date: '2026-02-20',
        end_date: '2026-12-31',
        asset: 'Acme',
        group_by: ['competitor'],
        comparison_start_date: '2026-01-01',
        comparison_end_date: '2026-02-19',
        filter: { field: 'model', op: 'is', value: 'ChatGPT' },
      },
      ctx,
      'use',
    );
    const q2 = v2.query;
    expect(q2.text).toContain('rollup_sentiment_daily');
    expectGolden(
      join(dir, 'sentiment', 'rollup-competitors-compared.sql'),
      `${q2.text}\n-- params: ${JSON.stringify(q2.params)}\n`,
    );
    const v1 = await pageSql(
      sentimentV1Report as never,
      {
        category_id: ids.cat1,
        start_date: '2026-03-01',
        end_date: '2026-12-01',
        metrics: ['positive', 'negative', 'occurrences'],
        dimensions: ['asset_name', 'date'],
        date_interval: 'week',
        pagination: { limit: 8, offset: 0 },
      },
      ctx,
      'use',
    );
    const q1 = v1.query;
    expect(q1.text).toContain('rollup_sentiment_daily');
    expectGolden(
      join(dir, 'sentiment-v1', 'rollup-brands-by-week.sql'),
      `${q1.text}\n-- params: ${JSON.stringify(q1.params)}\n`,
    );
  });
});
