import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { endpoints } from '../src/registry.ts';
import { openFixture, type Row } from './helpers/arrow-fixture.ts';
import { rounded, streamed, tabular, type Body, type TabularRow } from './helpers/tabular.ts';
import { ids } from './fixtures/insights.ts';
import { domains, tabularFixture } from './fixtures/tabular.ts';
import { referenceCitations } from './reference/tabular.ts';

const fixture = tabularFixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture, { clock: () => new Date('2026-12-01T00:00:00Z') });
});
afterAll(() => engine.close());
const org = () => engine.org(ids.org1);

const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

async function v2Rows(body: Body): Promise<Record<string, unknown>[]> {
  return (await streamed(org(), 'visibility', body)).slice(1).map((e) => e.data);
}

describe('v1 visibility equals v2 visibility for the same window and scope', () => {
  const windows = [
    ['2026-02-20', '2026-12-31'],
    ['2026-10-31', '2026-11-02'],
  ];
  const groupings: [string[], string[], string?][] = [
    [[], []],
    [['model'], ['model']],
    [['persona'], ['persona']],
    [['date'], ['date'], 'week'],
    [
      ['topic', 'region'],
      ['topic', 'region'],
    ],
    [['prompt', 'date'], ['prompt', 'date'], 'month'],
  ];
  const filters: [unknown[], unknown][] = [
    [[], null],
    [[{ field: 'model', operator: 'is', value: ids.models[0] }], { field: 'model', op: 'is', value: ids.models[0] }],
    [
      [
        { field: 'persona_id', operator: 'not_in', value: [ids.personas[0]] },
        { field: 'tag_name', operator: 'in', value: ['alpha', ''] },
      ],
      {
        and: [
          { field: 'persona', op: 'not_in', value: [ids.personas[0]] },
          { field: 'tag', op: 'in', value: ['alpha', ''] },
        ],
      },
    ],
  ];
  const metrics = ['visibility_score', 'share_of_voice', 'average_position'];

  it('every brand, per group, to the last bit', async () => {
    let compared = 0;
    for (const [start, end] of windows) {
      for (const [v1Dims, v2Dims, interval] of groupings) {
        for (const [v1Filters, v2Filter] of filters) {
          const v2 = await v2Rows({
            category_id: ids.cat1,
            start_date: start,
            end_date: end,
            scope: 'all',
            group_by: v2Dims,
            interval,
            filter: v2Filter,
            metrics,
          });
          const v1 = await tabular(org(), 'visibilityV1', {
            category_id: ids.cat1,
            start_date: start,
            end_date: nextDay(end!),
            metrics,
            dimensions: [...v1Dims, 'asset_name'],
            date_interval: interval,
            filters: v1Filters,
          });
          const keyOf = (r: Record<string, unknown>) =>
            JSON.stringify([
              ...v2Dims.map((d) => (d === 'date' ? r.date : ((r[d] as { name: string } | null)?.name ?? ''))),
              (r.asset as { name: string }).name,
            ]);
          // v1 sends 0 where v2's average_position is null (no mention): the client types v1 metrics as numbers. null-rule: average-position-unmentioned
          // A missing persona and a persona named '' both show as '': rows are matched as a multiset.
          const expected = v2
            .map((r) => JSON.stringify([keyOf(r), metrics.map((m) => (m === 'average_position' ? (r[m] ?? 0) : r[m]))]))
            .sort();
          expect(v1.data.map((row) => JSON.stringify([JSON.stringify(row.dimensions), row.metrics])).sort()).toEqual(
            expected,
          );
          compared += v1.data.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('without an asset dimension, the organization’s own brands (v2 scope owned, one owned brand here)', async () => {
    const v2 = await v2Rows({
      category_id: ids.cat1,
      start_date: '2026-03-01',
      end_date: '2026-10-31',
      scope: 'owned',
      group_by: ['model'],
      metrics,
    });
    const v1 = await tabular(org(), 'visibilityV1', {
      category_id: ids.cat1,
      start_date: '2026-03-01',
      end_date: '2026-11-01',
      metrics,
      dimensions: ['model'],
    });
    expect(v1.data.map((r) => [r.dimensions[0], ...r.metrics]).sort()).toEqual(
      v2.map((r) => [(r.model as { name: string }).name, ...metrics.map((m) => r[m])]).sort(),
    );
  });

  it('without an asset dimension, asset_name chooses the brands taken together; executions are every answer', async () => {
    const window = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-11-01' };
    const r = await tabular(org(), 'visibilityV1', {
      ...window,
      metrics: ['visibility_score', 'mentions_count', 'executions', 'share_of_voice'],
      filters: [{ field: 'asset_name', operator: 'in', value: ['Brandy', 'Zeta'] }],
    });
    const visible = new Set(
      fixture.prompts!.filter((p) => (p.analysis_types as string[]).includes('visibility')).map((p) => p.id),
    );
    const inWindow = (x: Row) =>
      x.category_id === ids.cat1 &&
      String(x.day) >= '2026-03-01' &&
      String(x.day) < '2026-11-01' &&
      visible.has(x.prompt_id);
    const executions = fixture.executions.filter(inWindow);
    const mentions = fixture.mentions.filter(inWindow);
    const chosen = mentions.filter((m) => m.asset_id === ids.assets[1] || m.asset_id === ids.assets[2]);
    const mentioning = new Set(chosen.map((m) => m.execution_id)).size;
    expect(r.data).toEqual([
      {
        metrics: [mentioning / executions.length, chosen.length, executions.length, chosen.length / mentions.length],
        dimensions: [],
      },
    ]);
  });
});

describe('bots: the v1 daily view sums to the v2 hourly view over whole days', () => {
  it('totals, each ET day, and the latest visit, across a DST change', async () => {
    const metrics = ['count', 'citations', 'indexing', 'training', 'last_visit'];
    const v1 = await tabular(org(), 'botsV1', {
      domain: domains.own,
      start_date: '2026-03-01',
      end_date: '2026-04-01',
      metrics,
      dimensions: ['date'],
    });
    const v2 = await tabular(org(), 'bots', {
      domain: domains.own,
      start_date: '2026-03-01T05:00:00Z',
      end_date: '2026-04-01T04:00:00Z',
      metrics,
      dimensions: ['date'],
      date_interval: 'hour',
    });
    const sum = (rows: TabularRow[], j: number) => rows.reduce((a, r) => a + r.metrics[j]!, 0);
    for (let j = 0; j < 4; j++) expect(sum(v1.data, j)).toBe(sum(v2.data, j));
    expect(sum(v1.data, 0)).toBeGreaterThan(20);
    expect(Math.max(...v1.data.map((r) => r.metrics[4]!))).toBe(Math.max(...v2.data.map((r) => r.metrics[4]!)));
    const etDayOfHour = (label: string) =>
      new Date(Date.parse(label)).toLocaleDateString('en-CA', { timeZone: 'America/New_York' });
    const perDay = new Map<string, number>();
    for (const r of v2.data)
      perDay.set(etDayOfHour(r.dimensions[0]!), (perDay.get(etDayOfHour(r.dimensions[0]!)) ?? 0) + r.metrics[0]!);
    expect(new Map(v1.data.map((r) => [r.dimensions[0]!, r.metrics[0]!]))).toEqual(perDay);
    const total = await tabular(org(), 'bots', {
      domain: domains.own,
      start_date: '2026-03-01 05:00',
      end_date: '2026-04-01 04:00',
      metrics,
    });
    expect(total.data[0]!.metrics.slice(0, 4)).toEqual([0, 1, 2, 3].map((j) => sum(v1.data, j)));
  });

  it('referrals likewise, with the v2 window read in America/New_York', async () => {
    const v1 = await tabular(org(), 'referralsV1', {
      domain: domains.own,
      start_date: '2026-10-20',
      end_date: '2026-11-10',
      metrics: ['visits'],
      dimensions: ['date'],
    });
    const v2 = await tabular(org(), 'referrals', {
      domain: domains.own,
      start_date: '2026-10-20',
      end_date: '2026-11-10',
      timezone: 'America/New_York',
      metrics: ['visits'],
      dimensions: ['date'],
    });
    expect(v1.data).toEqual(v2.data);
  });
});

describe('paging, order and the stream', () => {
  const cases: [string, Body][] = [
    [
      'citationsV1',
      {
        category_id: ids.cat1,
        start_date: '2026-02-20',
        end_date: '2027-01-01',
        metrics: ['count', 'citation_share'],
        dimensions: ['hostname', 'model'],
      },
    ],
    [
      'visibilityV1',
      {
        category_id: ids.cat1,
        start_date: '2026-02-20',
        end_date: '2027-01-01',
        metrics: ['share_of_voice', 'executions'],
        dimensions: ['asset_name', 'date'],
        date_interval: 'month',
      },
    ],
    [
      'sentimentV1',
      {
        category_id: ids.cat1,
        start_date: '2026-02-20',
        end_date: '2027-01-01',
        metrics: ['occurrences'],
        dimensions: ['theme', 'persona'],
      },
    ],
    [
      'queryFanoutsV1',
      {
        category_id: ids.cat1,
        start_date: '2026-02-20',
        end_date: '2027-01-01',
        metrics: ['share', 'total_fanouts'],
        dimensions: ['prompt', 'query'],
      },
    ],
    ['botsV1', { domain: domains.own, start_date: '2026-02-01', metrics: ['count'], dimensions: ['path', 'bot_name'] }],
    [
      'bots',
      { domain: domains.own, start_date: '2026-02-01', metrics: ['training', 'last_visit'], dimensions: ['hour'] },
    ],
    [
      'referralsV1',
      { domain: domains.own, start_date: '2026-02-01', metrics: ['visits'], dimensions: ['referral_source', 'host'] },
    ],
    [
      'referrals',
      {
        domain: domains.own,
        start_date: '2026-02-01',
        metrics: ['visits'],
        dimensions: ['path'],
        timezone: 'Europe/Berlin',
        order_by: { path: 'desc' },
      },
    ],
  ];

  it.each(cases)('%s: pages walked by offset equal one big page; total_rows counts every row', async (name, body) => {
    const big = await tabular(org(), name, body);
    expect(big.data.length).toBe(big.info.total_rows);
    expect(big.data.length).toBeGreaterThan(3);
    const pages: TabularRow[] = [];
    for (let offset = 0; offset < big.info.total_rows; offset += 3) {
      const page = await tabular(org(), name, { ...body, pagination: { limit: 3, offset } });
      expect(page.info.total_rows).toBe(big.info.total_rows);
      pages.push(...page.data);
    }
    expect(pages).toEqual(big.data);
    const beyond = await tabular(org(), name, { ...body, pagination: { offset: big.info.total_rows } });
    expect(beyond.data).toEqual([]);
  });

  it.each(cases.filter(([name]) => ['citationsV1', 'visibilityV1', 'sentimentV1'].includes(name)))(
    '%s stream: {query, total_rows}, then the rows of one big page',
    async (name, body) => {
      const big = await tabular(org(), name, body);
      const events = await streamed(org(), name, body);
      expect(events[0]!.data).toEqual({
        query: { ...big.info.query, pagination: { limit: null, offset: 0 } },
        total_rows: big.info.total_rows,
        fingerprint: expect.stringMatching(/^[\w-]{22}$/),
      });
      expect(events.slice(1).map((e) => e.data)).toEqual(big.data);
      const paged = await streamed(org(), name, { ...body, pagination: { limit: 2, offset: 1 } });
      expect(paged[0]!.data.total_rows).toBe(big.info.total_rows);
      expect(paged.slice(1).map((e) => e.data)).toEqual(big.data.slice(1, 3));
      const open = await streamed(org(), name, { ...body, pagination: null });
      expect(open.length).toBe(big.data.length + 1);
    },
  );

  it('order_by: several keys, a dimension, either direction; a missing persona shows as the empty name', async () => {
    const base = {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2027-01-01',
      metrics: ['count', 'citation_share'],
      dimensions: ['persona', 'citation_category'],
    };
    const q = {
      start: Date.parse('2026-02-20T05:00:00Z'),
      end: Date.parse('2027-01-01T05:00:00Z'),
      metrics: base.metrics,
      dimensions: base.dimensions,
      filters: [],
      interval: 'day',
      anchor: '2026-02-20',
    };
    for (const orderBy of [
      [
        ['persona', 'desc'],
        ['count', 'asc'],
      ],
      [['citation_share', 'asc']],
      [
        ['citation_category', 'asc'],
        ['persona', 'asc'],
      ],
    ] as [string, 'asc' | 'desc'][][]) {
      const got = await tabular(org(), 'citationsV1', { ...base, order_by: Object.fromEntries(orderBy) });
      expect(rounded(got.data)).toEqual(rounded(referenceCitations(fixture, ids.cat1, { ...q, orderBy })));
    }
    const desc = await tabular(org(), 'citationsV1', { ...base, order_by: { persona: 'desc' } });
    expect(desc.data.at(-1)!.dimensions[0]).toBe('');
  });
});

describe('info.query echoes the effective request', () => {
  it('defaults, canonical filter fields and UUIDs, and the window in the report’s zone', async () => {
    const r = await tabular(org(), 'citationsV1', {
      category_id: ids.cat1.toUpperCase(),
      start_date: '2026-03-01',
      end_date: '2026-03-15 12:00',
      metrics: ['count'],
      filters: [
        { field: 'model', operator: 'in', value: [ids.models[0]!.toUpperCase()] },
        { field: 'prompt_type', value: 'visibility' },
      ],
    });
    expect(r.info.query).toEqual({
      category_id: ids.cat1,
      start_date: '2026-03-01T00:00:00-05:00',
      end_date: '2026-03-15T12:00:00-04:00',
      metrics: ['count'],
      dimensions: [],
      date_interval: 'day',
      filters: [
        { field: 'model_id', operator: 'in', value: [ids.models[0]] },
        { field: 'analysis_type', operator: 'is', value: 'visibility' },
      ],
      order_by: { count: 'desc' },
      pagination: { limit: 10_000, offset: 0 },
    });
    const traffic = await tabular(org(), 'referrals', {
      domain: domains.own,
      start_date: '2026-03-01',
      metrics: ['visits', 'last_visit'],
      timezone: 'Asia/Kolkata',
    });
    expect(traffic.info.query).toMatchObject({
      domain: domains.own,
      organization_id: ids.org1,
      start_date: '2026-03-01T00:00:00+05:30',
      end_date: '2026-12-01T05:30:00+05:30',
      timezone: 'Asia/Kolkata',
      view_id: null,
      metric_filters: [],
    });
  });

  it('positional arrays follow info.query.metrics and info.query.dimensions', async () => {
    const r = await tabular(org(), 'bots', {
      domain: domains.own,
      start_date: '2026-03-01',
      end_date: '2026-03-08',
      metrics: ['last_visit', 'count'],
      dimensions: ['bot_type', 'date'],
    });
    expect(r.info.query.metrics).toEqual(['last_visit', 'count']);
    expect(r.info.query.dimensions).toEqual(['bot_type', 'date']);
    for (const row of r.data) {
      expect(row.metrics[0]).toBeGreaterThan(1_700_000_000);
      expect(row.dimensions[1]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});

describe('query fan-outs', () => {
  it('total, per searching execution, and share within the prompt', async () => {
    const r = await tabular(org(), 'queryFanoutsV1', {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2027-01-01',
      metrics: ['total_fanouts', 'fanouts_per_execution', 'share'],
      dimensions: ['query'],
    });
    const all = fixture.fanouts.filter((f) => f.category_id === ids.cat1);
    expect(r.data.reduce((a, x) => a + x.metrics[0]!, 0)).toBe(all.length);
    expect(r.data.reduce((a, x) => a + x.metrics[2]!, 0)).toBeCloseTo(1, 12);
    const searching = fixture.executions.filter((e) => e.category_id === ids.cat1 && e.search_triggered).length;
    for (const row of r.data) expect(row.metrics[1]).toBeCloseTo(row.metrics[0]! / searching, 12);
    const byPrompt = await tabular(org(), 'queryFanoutsV1', {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2027-01-01',
      metrics: ['share'],
      dimensions: ['prompt', 'query'],
    });
    const sums = new Map<string, number>();
    for (const row of byPrompt.data)
      sums.set(row.dimensions[0]!, (sums.get(row.dimensions[0]!) ?? 0) + row.metrics[0]!);
    for (const s of sums.values()) expect(s).toBeCloseTo(1, 12);
  });
});

describe('the registry', () => {
  it('marks the v1 Insights reports deprecated, and not the traffic reports', () => {
    const deprecated = endpoints.filter((e) => e.deprecated).map((e) => e.path);
    expect(deprecated).toEqual(
      expect.arrayContaining([
        '/v1/reports/citations',
        '/v1/reports/citations/stream',
        '/v1/reports/visibility/stream',
        '/v1/reports/sentiment',
        '/v1/reports/query-fanouts',
      ]),
    );
    for (const path of ['/v1/reports/bots', '/v2/reports/bots', '/v1/reports/referrals', '/v2/reports/referrals']) {
      expect(endpoints.find((e) => e.path === path)?.deprecated).toBeFalsy();
    }
  });
});
