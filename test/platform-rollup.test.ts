import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { platformDaily } from '../src/reports/insights/platform-rollup.ts';
import { channelsReport } from '../src/reports/insights-v2/social/channels.ts';
import { videosReport } from '../src/reports/insights-v2/social/videos.ts';
import { expectGolden } from './helpers/golden.ts';
import { pageSql } from './helpers/page-sql.ts';
import { rollupPair, rollupWindows } from './helpers/rollup-pair.ts';
import { allPages, streamEvents } from './helpers/walk.ts';
import { ids } from './fixtures/insights.ts';

type Body = Record<string, unknown>;

const { engines, acrossEdit } = rollupPair(platformDaily, [ids.cat1, ids.cat2], {
  v2: channelsReport,
  v2Name: 'youtubeChannels',
});

const reports = {
  youtubeChannels: channelsReport,
  youtubeVideos: videosReport,
} as const;
type Name = keyof typeof reports;

const reads = async (engine: Engine, name: Name, body: Body) =>
  (await pageSql(reports[name] as never, body, engine.org(ids.org1).context(), 'use')).query.text.includes(
    'rollup_platform_daily',
  );
const pagesText = async (engine: Engine, name: Name, body: Body, limit: number) =>
  JSON.stringify(await allPages(engine.org(ids.org1), name, { ...body, limit }, 7));

const model = { field: 'model', op: 'in', value: ['ChatGPT', 'Perplexity'] };
const channel = { field: 'channel', op: 'contains_case_insensitive', value: 'trail' };
const handle = { field: 'channel', op: 'is', value: '@trailtalk' };
/** Filters the rollup serves (model and channel clauses), then prompt-level fields it does not keep. */
const served = [undefined, model, channel, handle, { and: [model, channel] }, { not: model }];
const unserved = [
  { field: 'topic', op: 'is', value: ids.topics[0] },
  { field: 'analysis_type', op: 'is', value: 'sentiment' },
  { and: [{ field: 'region', op: 'is', value: ids.regions[0] }, channel] },
];

const groupings: Record<Name, readonly (readonly string[] | undefined)[]> = {
  youtubeChannels: [
    undefined,
    ['video_category'],
    ['source_type'],
    ['channel', 'video_category'],
    ['channel', 'source_type'],
    ['channel', 'model'],
  ],
  youtubeVideos: [undefined, ['video', 'model'], ['video', 'source_type']],
};

const sourceTypes: Record<Name, string[]> = {
  youtubeChannels: ['video', 'short', 'channel', 'playlist'],
  youtubeVideos: ['video', 'short'],
};

describe('the video platforms daily rollup', () => {
  it('answers every channels and videos request it serves exactly as the facts do, and serves just those', async () => {
    const used = new Set<boolean>();
    const request = fc.constantFrom<Name>('youtubeChannels', 'youtubeVideos').chain((name) =>
      fc.record({
        name: fc.constant(name),
        group_by: fc.constantFrom(...groupings[name]),
        filter: fc.oneof(
          { arbitrary: fc.constantFrom(...served), weight: 3 },
          { arbitrary: fc.constantFrom(...unserved), weight: 1 },
        ),
        source_types: fc.option(fc.subarray(sourceTypes[name], { minLength: 1 }), { nil: undefined }),
        interval: fc.option(fc.constantFrom('day', 'week', 'month'), { nil: undefined }),
        window: fc.constantFrom(...rollupWindows),
        limit: fc.constantFrom(1, 3, 50),
        stream: fc.boolean(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const body: Body = {
          category_id: ids.cat1,
          start_date: r.window[0],
          end_date: r.window[1],
          ...(r.group_by ? { group_by: r.group_by } : {}),
          ...(r.source_types ? { source_types: r.source_types } : {}),
          ...(r.interval ? { interval: r.interval } : {}),
          ...(r.filter ? { filter: r.filter } : {}),
        };
        const read = await reads(engines.withRollups, r.name, body);
        expect(read).toBe(served.includes(r.filter as never));
        used.add(read);
        expect(await pagesText(engines.withRollups, r.name, body, r.limit)).toBe(
          await pagesText(engines.factsOnly, r.name, body, r.limit),
        );
        if (r.stream) {
          expect(await streamEvents(engines.withRollups.org(ids.org1), r.name, body)).toEqual(
            await streamEvents(engines.factsOnly.org(ids.org1), r.name, body),
          );
        }
      }),
      { numRuns: 50 },
    );
    expect([...used].sort()).toEqual([false, true]);
  });

  it('is not read once a prompt is deleted, and answers as the facts do once rebuilt', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-02-20',
      end_date: '2026-12-31',
      group_by: ['model', 'channel'],
    };
    const { before, after } = await acrossEdit(body, {}, (engine) =>
      engine.org(ids.org1).call('PATCH', `/v1/org/categories/${ids.cat1}/prompts/status`, {
        body: { prompt_ids: [ids.prompts[0]], status: 'deleted' },
      }),
    );
    expect(after[0]).not.toBe(before[0]);
  });

  it('golden SQL of a channels page read from it', async () => {
    const dir = fileURLToPath(new URL('./golden', import.meta.url));
    const { query } = await pageSql(
      channelsReport as never,
      {
        category_id: ids.cat1,
        start_date: '2026-02-20',
        end_date: '2026-12-31',
        group_by: ['channel', 'model'],
        interval: 'week',
        filter: { and: [model, channel] },
      },
      engines.withRollups.org(ids.org1).context(),
      'use',
    );
    expectGolden(join(dir, 'channels-rollup.sql'), query.text);
  });
});
