import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError } from '../src/errors.ts';
import { toWire, type FilterNode } from '../src/query/filter-node.ts';
import { channelField, channelPromptFields } from '../src/reports/insights-v2/social/channel-filter.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { layeredFilter, windows } from './helpers/more-v2.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';
import { referenceVideos, type VideosQuery } from './reference/videos.ts';

const fixture = moreV2Fixture();
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org1);
const base = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };

async function everything(body: Record<string, unknown>, limit = 50) {
  return (await allPages(org(), 'youtubeVideos', body, limit)).flatMap((p) => p.data);
}

/** An exact channel selection, its own clause of the top-level and. */
const exact = fc.option(
  fc
    .uniqueArray(fc.constantFrom('@trailtalk', '@boots', '@zed_', '@gearlab', '@nope'), { minLength: 1, maxLength: 3 })
    .map((value) => ({ kind: 'leaf', field: 'channel', op: 'in', value }) as FilterNode),
  { nil: undefined, freq: 2 },
);
const channelText = { channel: { ...channelField, ops: channelField.ops.filter((o) => o !== 'is' && o !== 'in') } };

describe('v2 video-platform videos against the reference evaluator', () => {
  it('agrees for cross-tabs, source types, intervals and channel-aware filters', async () => {
    let nonEmpty = 0;
    const request = fc.record({
      filter: layeredFilter(channelPromptFields, channelText, exact),
      group_by: fc.constantFrom<string[] | undefined>(
        undefined,
        ['video'],
        ['video', 'model'],
        ['source_type', 'video'],
      ),
      source_types: fc.option(fc.subarray(['video', 'short', 'video'], { minLength: 1 }), { nil: undefined }),
      interval: fc.constantFrom(undefined, 'week' as const, 'month' as const),
      window: fc.constantFrom(...windows),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const q: VideosQuery = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          ...(r.group_by ? { group_by: r.group_by } : {}),
          ...(r.source_types ? { source_types: r.source_types } : {}),
          ...(r.interval ? { interval: r.interval } : {}),
          ...(r.filter ? { filter: r.filter } : {}),
        };
        const expected = referenceVideos(fixture, q);
        if (expected.length > 0) nonEmpty++;
        expect(await everything({ ...q, filter: r.filter ? toWire(r.filter) : null })).toEqual(expected);
      }),
      { numRuns: 30 },
    );
    expectNotVacuous(nonEmpty, 30, 0.51);
  });

  it('limit counts videos: a cross-tab page holds every row of its videos, rank repeated', async () => {
    const page = await org().reports.youtubeVideos({ ...base, group_by: ['video', 'model'], limit: 2 });
    const data = page.data as { rank: number }[];
    expect(new Set(data.map((r) => r.rank))).toEqual(new Set([1, 2]));
    expect(data.length).toBeGreaterThan(2);
    expect(page.info).toMatchObject({
      count: data.length,
      limit: 2,
      group_by: ['video', 'model'],
      source_types: ['video', 'short'],
    });
  });
});

describe('pages, streams and the videoplatform alias', () => {
  const bodies = [{ ...base }, { ...base, group_by: ['video', 'source_type'], interval: 'month', max_results: 5 }];
  it.each(bodies)('every page walked equals one big page equals the stream (%#)', async (body) => {
    const { max_results: cap, ...rest } = body as typeof body & { max_results?: number };
    const small = await everything(rest, 2);
    const big = await everything(rest, 50);
    expect(small).toEqual(big);
    const events = await streamEvents(org(), 'youtubeVideos', { ...body, limit: 1, cursor: 'ignored-by-the-stream' });
    const expected = cap ? big.slice(0, cap) : big;
    expect(events[0]).toMatchObject({ event: 'summary', data: { count: expected.length, next_cursor: null } });
    expect(events.slice(1).map((e) => e.data)).toEqual(expected);
  });

  it('the videoplatform path is the same report, cursors included; channel, playlist and other source types are refused', async () => {
    const first = await org().reports.youtubeVideos({ ...base, limit: 2 });
    expect(await org().reports.videoplatformVideos({ ...base, limit: 2 })).toEqual(first);
    const next = await org().call('POST', '/v2/reports/social/videoplatform/videos', {
      body: { ...base, limit: 2, cursor: first.info.next_cursor },
    });
    expect(next.kind).toBe('json');
    const events = await streamEvents(org(), 'videoplatformVideos', { ...base, max_results: 1 });
    expect(events.map((e) => e.event)).toEqual(['summary', 'result']);
    const error = await org()
      .reports.youtubeVideos({ ...base, source_types: ['video', 'playlist'] })
      .catch((e: unknown) => e);
    expect((error as ValidationError).detail[0]).toMatchObject({
      type: 'value_error',
      loc: ['body', 'source_types', 1],
    });
  });
});
