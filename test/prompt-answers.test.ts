import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ForbiddenError } from '../src/errors.ts';
import { toWire, type FilterNode } from '../src/query/filter-node.ts';
import { analysisTypeField } from '../src/reports/insights/analysis-types.ts';
import { promptFilterFields } from '../src/reports/insights/dimensions.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { layeredFilter, pools, windows } from './helpers/more-v2.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';
import { referenceAnswers, type AnswersQuery } from './reference/answers.ts';

const fixture = moreV2Fixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org1);
const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };
const fields = [
  'run_id',
  'date',
  'model',
  'topic',
  'topic_id',
  'persona',
  'region',
  'tags',
  'prompt',
  'prompt_id',
  'response',
  'mentions',
  'citations',
  'search_queries',
  'analysis_types',
];

async function everything(body: Record<string, unknown>, limit = 50) {
  return (await allPages(org(), 'promptAnswers', body, limit)).flatMap((p) => p.data);
}

/** A top-level domain or page leaf: is one value or in a list (exact cited URL or host). */
const cited = (field: 'domain' | 'page') =>
  fc.option(
    fc.oneof(
      fc
        .constantFrom(...pools[field]!.exact, 'www.reddit.com', 'WWW.Acme.Example', 'www.youtube.com')
        .map((value) => ({ kind: 'leaf', field, op: 'is', value }) as FilterNode),
      fc
        .uniqueArray(fc.constantFrom(...pools[field]!.exact, 'www.reddit.com'), { minLength: 1, maxLength: 3 })
        .map((value) => ({ kind: 'leaf', field, op: 'in', value }) as FilterNode),
    ),
    { nil: undefined, freq: 2 },
  );
const citedLeaves = fc
  .tuple(cited('domain'), cited('page'))
  .map(([d, p]) => (d && p ? ({ kind: 'and', children: [d, p] } as FilterNode) : (d ?? p)));

describe('v2 prompt answers against the reference evaluator', () => {
  it('agrees for filters (prompt-level, analysis type, cited domain and page), include lists and windows', async () => {
    let nonEmpty = 0;
    const request = fc.record({
      filter: layeredFilter({ ...promptFilterFields, analysis_type: analysisTypeField }, {}, citedLeaves),
      include: fc.option(fc.subarray(fields, { minLength: 1 }), { nil: undefined }),
      window: fc.constantFrom(...windows),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const q: AnswersQuery = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          ...(r.include ? { include: r.include } : {}),
          ...(r.filter ? { filter: r.filter } : {}),
        };
        const expected = referenceAnswers(fixture, q);
        if (expected.length > 0) nonEmpty++;
        expect(await everything({ ...q, filter: r.filter ? toWire(r.filter) : null })).toEqual(expected);
      }),
      { numRuns: 30 },
    );
    expectNotVacuous(nonEmpty, 30, 0.45);
  });
});

describe('the answers’ mentions agree with visibility', () => {
  it('per model, the share of visibility answers mentioning a brand is its visibility_score', async () => {
    const window = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-10-31' };
    const rows = (await everything({
      ...window,
      include: ['model', 'mentions'],
      filter: { field: 'analysis_type', op: 'is', value: 'visibility' },
    })) as { model: { name: string }; mentions: string[] }[];
    const visibility = (
      await allPages(
        org(),
        'visibility',
        { ...window, scope: 'all', group_by: ['model'], metrics: ['visibility_score'] },
        50,
      )
    ).flatMap((p) => p.data) as {
      model: { name: string };
      asset: { name: string };
      visibility_score: number;
    }[];
    expect(visibility.length).toBeGreaterThan(6);
    for (const v of visibility) {
      const answers = rows.filter((r) => r.model.name === v.model.name);
      expect(answers.filter((r) => r.mentions.includes(v.asset.name)).length / answers.length).toBe(v.visibility_score);
    }
  });
});

describe('pages, streams, info', () => {
  const bodies = [
    { ...base, include: ['run_id', 'mentions'] },
    { ...base, start_date: '2026-06-01', max_results: 7 },
  ];
  it.each(bodies)('every page walked equals one big page equals the stream (%#)', async (body) => {
    const { max_results: cap, ...rest } = body as typeof body & { max_results?: number };
    const small = await everything(rest, 7);
    const big = await everything(rest, 50);
    expect(small).toEqual(big);
    const events = await streamEvents(org(), 'promptAnswers', { ...body, limit: 1, cursor: 'ignored-by-the-stream' });
    const expected = cap ? big.slice(0, cap) : big;
    expect(events[0]).toMatchObject({
      event: 'summary',
      data: { count: expected.length, next_cursor: null, total_results: big.length },
    });
    expect(events.slice(1).map((e) => e.data)).toEqual(expected);
  });

  it('has the info fields of the public docs, every field by default, newest first', async () => {
    const page = await org().reports.promptAnswers({ ...base, limit: 3 });
    expect(Object.keys(page.info)).toEqual([
      'total_results',
      'count',
      'next_cursor',
      'models',
      'include',
      'start_date',
      'end_date',
      'filter',
      'fingerprint',
    ]);
    expect(page.info).toMatchObject({ include: fields, count: 3 });
    const data = page.data as Record<string, string>[];
    expect(Object.keys(data[0]!)).toEqual(fields);
    expect(data.map((r) => r.date)).toEqual([...data.map((r) => r.date)].sort().reverse());
  });

  it('refuses another organization’s category', async () => {
    await expect(org().reports.promptAnswers({ ...base, category_id: ids.cat2 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });
});

describe('POST /v1/prompts/answers (the official client’s path)', () => {
  const v1 = (body: Record<string, unknown>) =>
    org().report('promptAnswersV1')(body) as Promise<{ info: { total_rows: number }; data: Record<string, unknown>[] }>;

  it('reads [start_date, end_date) and gives the v2 rows’ values under the client’s keys', async () => {
    const { info, data } = await v1({ ...base, end_date: '2027-01-01' });
    const v2 = await everything(base);
    expect(info.total_rows).toBe(v2.length);
    expect(
      data.map((r) => [
        r.run_id,
        r.created_at,
        r.model,
        r.topic,
        r.region,
        r.persona,
        r.tags,
        r.prompt,
        r.mentions,
        r.citations,
        r.search_queries,
      ]),
    ).toEqual(
      v2.map((r) => [
        r.run_id,
        r.date,
        (r.model as { name: string }).name,
        r.topic,
        r.region,
        r.persona,
        r.tags,
        r.prompt,
        r.mentions,
        r.citations,
        r.search_queries,
      ]),
    );
    expect(Object.keys(data[0]!)).toEqual([
      'analysis_types',
      'asset',
      'asset_id',
      'citations',
      'created_at',
      'mentions',
      'model',
      'model_id',
      'persona',
      'prompt',
      'prompt_id',
      'region',
      'response',
      'run_id',
      'search_queries',
      'search_triggered',
      'sentiment_themes',
      'tags',
      'topic',
      'topic_id',
    ]);
  });

  it('include flags drop and add keys; filters and offset pagination apply', async () => {
    const { info, data } = await v1({
      ...base,
      end_date: '2027-01-01',
      include: { response: false, themes: true, mentions: false },
      filters: [{ field: 'asset_name', operator: 'is', value: 'Acme' }],
      pagination: { limit: 2, offset: 1 },
    });
    const all = (
      await v1({ ...base, end_date: '2027-01-01', filters: [{ field: 'asset_name', operator: 'is', value: 'Acme' }] })
    ).data;
    expect(all.every((r) => r.asset === 'Acme' && r.prompt_id === ids.prompts[0])).toBe(true);
    expect(info.total_rows).toBe(all.length);
    expect(data.map((r) => r.run_id)).toEqual(all.slice(1, 3).map((r) => r.run_id));
    expect(Object.keys(data[0]!)).not.toContain('response');
    expect(Object.keys(data[0]!)).not.toContain('mentions');
    expect(Object.keys(data[0]!)).toContain('themes');
    const themed = (
      await v1({
        ...base,
        end_date: '2027-01-01',
        filters: [{ field: 'analysis_type', operator: 'is', value: 'sentiment' }],
        include: { themes: true },
      })
    ).data;
    const withThemes = themed.find((r) => (r.sentiment_themes as unknown[]).length > 0)!;
    expect(withThemes.themes).toEqual([
      ...new Set((withThemes.sentiment_themes as { name: string }[]).map((t) => t.name)),
    ]);
  });

  it('filters by the prompt’s text, which counting the answers reads beside the prompt’s keys', async () => {
    const all = (await v1({ ...base, end_date: '2027-01-01' })).data;
    const text = all[0]!.prompt as string;
    const { info, data } = await v1({
      ...base,
      end_date: '2027-01-01',
      filters: [{ field: 'prompt', operator: 'is', value: text }],
    });
    const expected = all.filter((r) => r.prompt === text);
    expect(expected.length).toBeLessThan(all.length);
    expect(info.total_rows).toBe(expected.length);
    expect(data.map((r) => r.run_id)).toEqual(expected.map((r) => r.run_id));
  });
});
