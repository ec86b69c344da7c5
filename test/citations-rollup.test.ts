import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leaves, toWire } from '../src/query/filter-node.ts';

import { citationFields } from '../src/reports/insights-v2/citations/citation-fields.ts';
import { citationsDaily } from '../src/reports/insights/citations-rollup.ts';
import { citationsReport } from '../src/reports/insights-v2/citations/citations.ts';
import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { pageSql } from './helpers/page-sql.ts';

import { citationsV1Report } from '../src/reports/tabular-v1/citations.ts';
import { expectGolden } from './helpers/golden.ts';
import { layeredFilter, typeLeaf } from './helpers/more-v2.ts';
import { streamEvents } from './helpers/walk.ts';
import { ids } from './fixtures/insights.ts';
import { rollupPair, rollupWindows } from './helpers/rollup-pair.ts';

const { engines, acrossEdit, readsV2, readsV1, v2Text, v1Text } = rollupPair(citationsDaily, [ids.cat1, ids.cat2], {
  v2: citationsReport,
  v2Name: 'citations',
  v1: citationsV1Report,
  v1Name: 'citationsV1',
});
const windows = rollupWindows;
const rowFields = {
  citation_category: citationFields.citation_category!,
  citation_tag: citationFields.citation_tag!,
  domain: citationFields.domain!,
  page: citationFields.page!,
};

describe('the citations daily rollup, v2', () => {
  it('answers every request it serves exactly as the facts do (pages and date streams), and serves just those', async () => {
    const used = new Set<boolean>();
    const request = fc.record({
      // Half the requests unfiltered, so that many are served by the rollup.
      filter: fc.option(
        layeredFilter(
          { model: promptFilterFields.model!, topic: promptFilterFields.topic! },
          rowFields,
          fc.oneof(fc.constant(undefined), typeLeaf),
        ),
        { nil: undefined, freq: 2 },
      ),
      page: fc.boolean(),
      partitions: fc.subarray(['date', 'model', 'region'], { maxLength: 2 }),
      interval: fc.constantFrom('day', 'week', 'month'),
      scope: fc.constantFrom('owned', 'all'),
      metrics: fc.option(fc.subarray(['count', 'citation_share', 'rank', 'first_cited_at'], { minLength: 1 }), {
        nil: undefined,
      }),
      window: fc.constantFrom(...windows),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const metrics = r.page ? r.metrics : r.metrics?.filter((m) => m !== 'first_cited_at');
        const body = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          group_by: r.page ? ['page', ...r.partitions] : r.partitions,
          interval: r.interval,
          scope: r.scope,
          ...(metrics && metrics.length > 0 ? { metrics } : {}),
          filter: r.filter ? toWire(r.filter) : null,
        };
        const fields = JSON.stringify(body.filter);
        const types = r.filter ? leaves(r.filter).find((l) => l.field === 'analysis_type') : undefined;
        const allTypes = types === undefined || [types.value].flat().includes('all');
        const servable =
          !r.page && !r.partitions.includes('region') && allTypes && !/"field":"(topic|domain|page)"/.test(fields);
        const reads = await readsV2(engines.withRollups, body);
        expect(reads).toBe(servable);
        used.add(reads);
        expect(await v2Text(engines.withRollups, body)).toBe(await v2Text(engines.factsOnly, body));
        if (reads && r.partitions[0] === 'date') {
          expect(await streamEvents(engines.withRollups.org(ids.org1), 'citations', body)).toEqual(
            await streamEvents(engines.factsOnly.org(ids.org1), 'citations', body),
          );
        }
      }),
      { numRuns: 60 },
    );
    expect([...used].sort()).toEqual([false, true]);
  });
});

describe('the citations daily rollup and analysis types', () => {
  it('serves the default (visibility prompts) and analysis_type all (every prompt), and no other selection of types', async () => {
    const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31', group_by: ['model'] };
    const typed = (value: unknown) => ({
      ...base,
      filter: {
        and: [
          { field: 'analysis_type', op: Array.isArray(value) ? 'in' : 'is', value },
          { field: 'model', op: 'is', value: 'ChatGPT' },
        ],
      },
    });
    for (const [body, served] of [
      [base, true],
      [typed('all'), true],
      [typed(['sentiment', 'all']), true],
      [typed('visibility'), false],
      [typed(['visibility', 'sentiment', 'factcheck']), false],
    ] as const) {
      expect(await readsV2(engines.withRollups, body)).toBe(served);
      expect(await v2Text(engines.withRollups, body)).toBe(await v2Text(engines.factsOnly, body));
    }
    // The fixture has prompts without the visibility type: every prompt is more than the default's.
    expect(await v2Text(engines.withRollups, typed('all'))).not.toBe(
      await v2Text(engines.withRollups, { ...base, filter: { field: 'model', op: 'is', value: 'ChatGPT' } }),
    );
  });
});

describe('the citations daily rollup, v1', () => {
  it('answers every request it serves exactly as the facts do, and serves just those', async () => {
    const used = new Set<boolean>();
    const filterOf = (field: string, value: string) => ({ field, operator: 'is', value });
    const request = fc.record({
      dimensions: fc.subarray(['date', 'model', 'root_domain', 'citation_category', 'hostname', 'region'], {
        maxLength: 3,
      }),
      metrics: fc.subarray(['count', 'citation_share', 'share_of_voice', 'first_cited_at'], { minLength: 1 }),
      interval: fc.constantFrom('hour', 'day', 'week', 'month', 'year', 'relative_week'),
      // Whole ET days (the last two as instants at ET midnights, across both DST changes), then windows that are not.
      window: fc.constantFrom(
        ['2026-02-20', '2027-01-01', true],
        ['2026-03-08', '2026-03-10', true],
        ['2026-10-31', '2026-11-03', true],
        ['2026-03-08T05:00:00Z', '2026-03-09T04:00:00Z', true],
        ['2026-11-01T04:00:00Z', '2026-11-02T05:00:00Z', true],
        ['2026-03-08T06:00:00Z', '2026-03-09', false],
        ['2026-11-01', '2026-11-02T04:00:00Z', false],
      ),
      filters: fc.subarray(
        [
          filterOf('model_id', ids.models[0]!),
          filterOf('root_domain', 'reddit.com'),
          filterOf('citation_category', 'owned'),
          filterOf('hostname', 'www.acme.example'),
          filterOf('topic_id', ids.topics[0]!),
        ],
        { maxLength: 2 },
      ),
      order: fc.option(fc.constantFrom({ count: 'desc' }, { citation_share: 'asc' }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        // A filter on a page field needs that field among the dimensions.
        const dimensions = [
          ...new Set([
            ...r.dimensions,
            ...r.filters
              .map((f) => f.field)
              .filter((f) => f === 'root_domain' || f === 'citation_category' || f === 'hostname'),
          ]),
        ];
        const body = {
          category_id: ids.cat1,
          start_date: r.window[0] as string,
          end_date: r.window[1] as string,
          metrics: r.metrics,
          dimensions,
          date_interval: r.interval,
          filters: r.filters,
          ...(r.order && r.metrics.includes(Object.keys(r.order)[0] as string) ? { order_by: r.order } : {}),
        };
        const servable =
          r.window[2] &&
          !(r.dimensions.includes('date') && r.interval === 'hour') &&
          !dimensions.some((d) => d === 'hostname' || d === 'region') &&
          !r.filters.some((f) => f.field === 'hostname' || f.field === 'topic_id');
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

describe('the citations daily rollup across prompt edits', () => {
  it('is not read once a prompt changes or is deleted, and answers as the facts do once rebuilt', async () => {
    const v2 = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31', group_by: ['model'] };
    const v1 = {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2027-01-01',
      metrics: ['count', 'citation_share'],
      dimensions: ['root_domain'],
    };
    const path = `/v1/org/categories/${ids.cat1}/prompts`;
    await acrossEdit(v2, v1, (engine) =>
      engine
        .org(ids.org1)
        .call('PATCH', path, { body: { prompts: [{ id: ids.prompts[0], analysis_types: ['sentiment'] }] } }),
    );
    const { before, after } = await acrossEdit(v2, v1, (engine) =>
      engine
        .org(ids.org1)
        .call('PATCH', `${path}/status`, { body: { prompt_ids: [ids.prompts[1]], status: 'deleted' } }),
    );
    expect(after[0]).not.toBe(before[0]);
  });
});

describe('golden SQL of citations rollup reads', () => {
  it('v2 and v1', async () => {
    const dir = fileURLToPath(new URL('./golden', import.meta.url));
    const ctx = engines.withRollups.org(ids.org1).context();
    const v2 = await pageSql(
      citationsReport as never,
      {
        category_id: ids.cat1,
        start_date: '2026-02-20',
        end_date: '2026-12-31',
        group_by: ['date', 'model'],
        interval: 'week',
        scope: 'owned',
        filter: {
          and: [
            { field: 'model', op: 'not_in', value: ['Perplexity'] },
            { field: 'citation_category', op: 'is', value: 'owned' },
          ],
        },
      },
      ctx,
      'use',
    );
    const q2 = v2.query;
    expect(q2.text).toContain('rollup_citations_daily');
    expectGolden(
      join(dir, 'citations', 'rollup-by-date-and-model.sql'),
      `${q2.text}\n-- params: ${JSON.stringify(q2.params)}\n`,
    );
    const v1 = await pageSql(
      citationsV1Report as never,
      {
        category_id: ids.cat1,
        start_date: '2026-03-01',
        end_date: '2026-12-01',
        metrics: ['count', 'citation_share', 'first_cited_at'],
        dimensions: ['root_domain', 'date'],
        date_interval: 'month',
        filters: [{ field: 'model_id', operator: 'is', value: ids.models[0] }],
        pagination: { limit: 8, offset: 0 },
      },
      ctx,
      'use',
    );
    const q1 = v1.query;
    expect(q1.text).toContain('rollup_citations_daily');
    expectGolden(
      join(dir, 'citations-v1', 'rollup-root-domains-by-month.sql'),
      `${q1.text}\n-- params: ${JSON.stringify(q1.params)}\n`,
    );
  });
});
