import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ForbiddenError, ValidationError } from '../src/errors.ts';
import { and, toWire, type FilterNode } from '../src/query/filter-node.ts';
import {
  channelField,
  channelFilterFields,
  channelPromptFields,
} from '../src/reports/insights-v2/social/channel-filter.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { filterArbitrary } from './helpers/filter-arbitrary.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';
import { ids } from './fixtures/insights.ts';
import { channelsFixture } from './fixtures/channels.ts';
import { channelFilterAllowed, referenceChannels, type ChannelsQuery } from './reference/channels.ts';

const fixture = channelsFixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org1);
const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };

const pools = {
  model: { exact: [...ids.models, 'ChatGPT', '', 'nope'], text: ['', 'a'] },
  region: { exact: [...ids.regions, 'Germany', 'Nowhere'], text: ['', 'a'] },
  persona: { exact: [...ids.personas, 'Hiker', ''], text: ['H'] },
  topic: { exact: [...ids.topics, 'Boots', 'Tents 50%_off'], text: ['%'] },
  prompt: { exact: [...ids.prompts, 'Cheap boots'], text: ['%', 'boots', 'BOOTS'] },
  tag: { exact: [...ids.tags, 'alpha', ''], text: ['a'] },
  analysis_type: { exact: ['visibility', 'sentiment', 'accuracy', 'factcheck', 'nope'], text: [] },
  channel: {
    exact: ['@trailtalk', '@TrailTalk2', '@boots', '@zed_', 'Trail Talk', 'UC-gear', '@nope'],
    text: ['Trail', 'trail', 'TALK', '%', '_', '100%', '@', 'gear'],
  },
};

const groupings = [
  [],
  ['channel'],
  ['video_category'],
  ['source_type'],
  ['channel', 'video_category'],
  ['channel', 'source_type'],
  ['model', 'channel'],
];
const windows = [
  ['2026-02-20', '2026-12-31'],
  ['2026-03-08', '2026-03-09'],
  ['2026-04-01', '2026-06-30'],
];

const request = (filter: fc.Arbitrary<FilterNode | undefined>) =>
  fc.record({
    filter,
    group_by: fc.constantFrom(...groupings),
    source_types: fc.option(fc.subarray(['video', 'short', 'channel', 'playlist', 'video'], { minLength: 1 }), {
      nil: undefined,
    }),
    interval: fc.constantFrom(undefined, 'day' as const, 'week' as const, 'month' as const),
    window: fc.constantFrom(...windows),
  });

function queryOf(r: {
  filter: FilterNode | undefined;
  group_by: string[];
  source_types?: string[];
  interval?: 'day' | 'week' | 'month';
  window: string[];
}): ChannelsQuery {
  return {
    category_id: ids.cat1,
    start_date: r.window[0]!,
    end_date: r.window[1]!,
    group_by: r.group_by,
    ...(r.source_types ? { source_types: r.source_types } : {}),
    ...(r.interval ? { interval: r.interval } : {}),
    ...(r.filter ? { filter: r.filter } : {}),
  };
}

async function everything(q: ChannelsQuery, limit = 50) {
  return (
    await allPages(org(), 'youtubeChannels', { ...q, filter: q.filter ? toWire(q.filter) : null }, limit)
  ).flatMap((p) => p.data);
}

/** Trees that meet the composition rules by construction: a prompt-level clause, a channel text clause and an exact selection, and-ed. */
const composed: fc.Arbitrary<FilterNode | undefined> = fc
  .record({
    prompt: fc.option(filterArbitrary(channelPromptFields, pools, 2), { nil: undefined }),
    text: fc.option(
      filterArbitrary(
        { channel: { ...channelField, ops: channelField.ops.filter((o) => o !== 'is' && o !== 'in') } },
        pools,
        2,
      ),
      { nil: undefined },
    ),
    exact: fc.option(
      fc.oneof(
        fc.record({
          kind: fc.constant('leaf' as const),
          field: fc.constant('channel'),
          op: fc.constant('is' as const),
          value: fc.constantFrom(...pools.channel.exact),
        }),
        fc.record({
          kind: fc.constant('leaf' as const),
          field: fc.constant('channel'),
          op: fc.constant('in' as const),
          value: fc.uniqueArray(fc.constantFrom(...pools.channel.exact), { minLength: 1, maxLength: 3 }),
        }),
      ),
      { nil: undefined },
    ),
  })
  .map(
    ({ prompt, text, exact }) =>
      and([prompt, text, exact].filter((c): c is FilterNode => c !== undefined)) ?? undefined,
  )
  .filter((f) => f === undefined || channelFilterAllowed(f));

/** Allowed trees and the same trees with one clause moved under an or or a not beside a prompt-level leaf. */
const nearMisses: fc.Arbitrary<FilterNode> = fc
  .tuple(
    composed.filter((f): f is FilterNode => f !== undefined),
    fc.constantFrom('keep', 'or', 'not'),
    filterArbitrary(channelPromptFields, pools, 0),
  )
  .map(([tree, move, leaf]) => {
    if (move === 'keep' || tree.kind !== 'and') return tree;
    const [moved, ...rest] = tree.children;
    const wrapped: FilterNode =
      move === 'or'
        ? { kind: 'or', children: [moved!, leaf] }
        : { kind: 'not', child: { kind: 'and', children: [moved!, leaf] } };
    return { kind: 'and', children: [wrapped, ...rest] };
  });

describe('v2 channels against the reference evaluator', () => {
  it('agrees for every group_by form, source types, intervals and composed filters', async () => {
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(request(composed), async (r) => {
        const q = queryOf(r);
        const expected = referenceChannels(fixture, q);
        if (expected.length > 0) nonEmpty++;
        expect(await everything(q)).toEqual(expected);
      }),
      { numRuns: 50 },
    );
    expectNotVacuous(nonEmpty, 50, 0.3);
  });

  it('accepts a filter exactly when the composition rules allow it, and then agrees with the reference', async () => {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(filterArbitrary(channelFilterFields, pools, 4), nearMisses),
        fc.constantFrom(...groupings),
        async (filter, group_by) => {
          const q = queryOf({ filter, group_by, window: windows[0]! });
          const answer = await everything(q).catch((e: unknown) => e);
          if (channelFilterAllowed(filter)) {
            accepted++;
            expect(answer).toEqual(referenceChannels(fixture, q));
          } else {
            refused++;
            expect(answer).toBeInstanceOf(ValidationError);
            const issue = (answer as ValidationError).detail[0]!;
            expect(issue.type).toBe('value_error');
            expect(issue.loc.slice(0, 2)).toEqual(['body', 'filter']);
          }
        },
      ),
      { numRuns: 80 },
    );
    expectNotVacuous(accepted, 80, 0.71);
    expectNotVacuous(refused, 80, 0.29);
  });
});

describe('ranking and paging units', () => {
  it('limit counts leading channels: a cross-tab page holds every row of its channels, rank repeated', async () => {
    const page = await org().reports.youtubeChannels({ ...base, group_by: ['channel', 'model'], limit: 2 });
    const data = page.data as { rank: number; handle: string }[];
    expect(new Set(data.map((r) => r.rank))).toEqual(new Set([1, 2]));
    expect(data.length).toBeGreaterThan(2);
    expect(page.info).toMatchObject({ total_results: 6, count: data.length, limit: 2 });
  });

  it('an unresolved video category is the empty string, never null', async () => {
    const page = await org().reports.youtubeChannels({ ...base, group_by: ['video_category'] });
    const names = (page.data as { name: unknown }[]).map((r) => r.name);
    expect(names).toContain('');
    expect(names).not.toContain(null);
  });

  it('with an interval, citation_share is relative to the period and dates are ET bucket starts', async () => {
    const data = (await everything({ ...base, group_by: ['source_type'], interval: 'month' })) as {
      date: string;
      citation_share: number;
    }[];
    const byMonth = new Map<string, number>();
    for (const r of data) byMonth.set(r.date, (byMonth.get(r.date) ?? 0) + r.citation_share);
    for (const [month, share] of byMonth) {
      expect(month.endsWith('-01')).toBe(true);
      expect(share).toBeCloseTo(1, 12);
    }
    const weeks = (await everything({
      ...base,
      start_date: '2026-03-04',
      end_date: '2026-03-10',
      interval: 'week',
    })) as { date: string }[];
    expect(new Set(weeks.map((r) => r.date))).toEqual(new Set(['2026-03-02', '2026-03-09']));
  });
});

describe('pages, streams and aliases', () => {
  const bodies = [
    { ...base },
    { ...base, group_by: ['channel', 'video_category'], interval: 'month' },
    { ...base, group_by: ['video_category'], source_types: ['video', 'short', 'video'] },
    { ...base, group_by: ['channel', 'source_type'], max_results: 4 },
    // The leading channel has 4 rows: 5 sends them and cuts the second channel after its first row.
    { ...base, group_by: ['channel', 'source_type'], max_results: 5 },
  ];
  it.each(bodies)('every page walked equals one big page equals the stream (%#)', async (body) => {
    const { max_results: cap, ...rest } = body as typeof body & { max_results?: number };
    const small = (await allPages(org(), 'youtubeChannels', rest, 1)).flatMap((p) => p.data);
    const big = (await allPages(org(), 'youtubeChannels', rest, 50)).flatMap((p) => p.data);
    expect(small).toEqual(big);
    const events = await streamEvents(org(), 'youtubeChannels', { ...body, limit: 1, cursor: 'ignored-by-the-stream' });
    expect(events[0]!.event).toBe('summary');
    const expected = cap ? big.slice(0, cap) : big;
    expect(events.slice(1).map((e) => e.data)).toEqual(expected);
    expect(events[0]!.data).toMatchObject({
      count: expected.length,
      next_cursor: null,
      total_results: new Set(big.map((r) => r.rank)).size,
      limit: new Set(expected.map((r) => r.rank)).size,
    });
  });

  it('the page endpoint accepts max_results and ignores it', async () => {
    const page = await org().reports.youtubeChannels({ ...base, limit: 3, max_results: 1 });
    expect(page.data).toHaveLength(3);
  });

  it('the videoplatform path is the same report, cursors included', async () => {
    const first = await org().reports.youtubeChannels({ ...base, limit: 2 });
    const alias = await org().reports.videoplatformChannels({ ...base, limit: 2 });
    expect(alias).toEqual(first);
    const next = await org().call('POST', '/v2/reports/social/videoplatform/channels', {
      body: { ...base, limit: 2, cursor: first.info.next_cursor },
    });
    expect(next.kind).toBe('json');
    const events = [];
    for await (const e of org().reports.videoplatformChannelsStream({ ...base, max_results: 1 })) events.push(e);
    expect(events.map((e) => e.event)).toEqual(['summary', 'result']);
  });
});

describe('info block and tenancy', () => {
  it('has every listed field, echoes cursor on later pages, counts distinct channels and rows apart', async () => {
    const body = {
      ...base,
      group_by: ['source_type', 'channel'],
      source_types: ['short', 'video', 'short'],
      filter: { field: 'channel', op: 'contains', value: 'Gear' },
      limit: 1,
    } as const;
    const first = await org().reports.youtubeChannels(body);
    expect(Object.keys(first.info)).toEqual([
      'category_id',
      'total_results',
      'count',
      'next_cursor',
      'limit',
      'interval',
      'group_by',
      'models',
      'start_date',
      'end_date',
      'filter',
      'source_types',
      'fingerprint',
    ]);
    expect(first.info).toMatchObject({
      category_id: ids.cat1,
      total_results: 2,
      interval: null,
      group_by: ['channel', 'source_type'],
      source_types: ['short', 'video'],
      limit: 1,
    });
    expect(first.info.count).toBe(first.data.length);
    const cursor = first.info.next_cursor;
    const second = await org().reports.youtubeChannels({ ...body, cursor });
    expect(second.info).toMatchObject({ cursor, next_cursor: null });
    expect(Object.keys(second.info).indexOf('cursor')).toBe(4);
  });

  it('refuses another organization’s category', async () => {
    await expect(org().reports.youtubeChannels({ ...base, category_id: ids.cat2 })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });
});
