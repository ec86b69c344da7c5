import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError, type ValidationIssue } from '../src/errors.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { channelsFixture } from './fixtures/channels.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(channelsFixture());
});
afterAll(() => engine.close());

const base = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-03-31' };

async function detail(body: unknown, stream = false): Promise<ValidationIssue[]> {
  const org = engine.org(ids.org1);
  const run = stream
    ? (async () => {
        for await (const _ of org.stream('youtubeChannels')(body as object)) void _;
      })()
    : org.report('youtubeChannels')(body as object);
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return [...(error as ValidationError).detail];
}

const first = async (body: unknown, stream = false) => (await detail(body, stream))[0]!;
const ok = (body: object) => engine.org(ids.org1).report('youtubeChannels')(body);

const topic = { field: 'topic', op: 'is', value: 'Boots' };
const exact = { field: 'channel', op: 'is', value: '@trailtalk' };
const text = { field: 'channel', op: 'contains', value: 'Gear' };

describe('v2 channels 422s', () => {
  it('required and unknown fields', async () => {
    expect((await detail({})).map((i) => i.loc)).toEqual([
      ['body', 'category_id'],
      ['body', 'start_date'],
      ['body', 'end_date'],
    ]);
    expect(await first({ ...base, metrics: ['count'] })).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'metrics'],
    });
  });

  it('group_by: unknown values, duplicates, lone model and the cross-tabs that are not allowed', async () => {
    expect(await first({ ...base, group_by: ['domain'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'group_by', 0],
      msg: "Input should be 'channel', 'video_category', 'model' or 'source_type'",
    });
    expect(await first({ ...base, group_by: ['channel', 'channel'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'group_by', 1],
    });
    for (const groupBy of [
      ['model'],
      ['video_category', 'source_type'],
      ['model', 'source_type'],
      ['channel', 'model', 'source_type'],
    ]) {
      expect(await first({ ...base, group_by: groupBy })).toMatchObject({
        type: 'value_error',
        loc: ['body', 'group_by'],
        input: groupBy,
      });
    }
    await expect(ok({ ...base, group_by: ['video_category', 'channel'] })).resolves.toMatchObject({
      info: { group_by: ['channel', 'video_category'] },
    });
  });

  it('source_types: empty, unknown, and other (which has no channel); duplicates are removed', async () => {
    expect(await first({ ...base, source_types: [] })).toMatchObject({
      type: 'too_short',
      loc: ['body', 'source_types'],
    });
    expect(await first({ ...base, source_types: ['podcast'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'source_types', 0],
    });
    expect(await first({ ...base, source_types: ['video', 'other'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'source_types', 1],
      input: 'other',
    });
    await expect(ok({ ...base, source_types: ['short', 'short', 'video'] })).resolves.toMatchObject({
      info: { source_types: ['short', 'video'] },
    });
  });

  it('interval, limit and the stream’s max_results', async () => {
    expect(await first({ ...base, interval: 'year' })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'interval'],
    });
    expect(await first({ ...base, limit: 0 })).toMatchObject({ type: 'greater_than_equal', loc: ['body', 'limit'] });
    expect(await first({ ...base, limit: 51 })).toMatchObject({ type: 'less_than_equal', loc: ['body', 'limit'] });
    expect(await first({ ...base, max_results: 0 }, true)).toMatchObject({
      type: 'greater_than',
      loc: ['body', 'max_results'],
    });
  });

  it('domain and page filters are refused by name', async () => {
    expect(await first({ ...base, filter: { field: 'domain', op: 'is', value: 'youtube.com' } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filter', 'field'],
      msg: 'Value error, the channels report does not filter on domain: it ranks video-platform channels',
    });
    expect(await first({ ...base, filter: { and: [topic, { field: 'page', op: 'is', value: 'x' }] } })).toMatchObject({
      loc: ['body', 'filter', 'and', 1, 'field'],
    });
  });

  it('nesting is at most 3 deep', async () => {
    await expect(
      ok({ ...base, filter: { and: [{ or: [{ not: { field: 'model', op: 'is', value: 'ChatGPT' } }, topic] }] } }),
    ).resolves.toBeDefined();
    expect(await first({ ...base, filter: { and: [{ or: [{ not: { and: [topic] } }, topic] }] } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filter', 'and', 0, 'or', 0, 'not'],
      msg: 'Value error, filter nesting is at most 3 levels deep',
    });
  });

  it('an exact channel selection is its own and clause', async () => {
    await expect(ok({ ...base, filter: exact })).resolves.toBeDefined();
    await expect(
      ok({
        ...base,
        filter: { and: [topic, exact, { or: [text, { field: 'channel', op: 'not_contains', value: 'Zed' }] }] },
      }),
    ).resolves.toBeDefined();
    for (const [filter, loc] of [
      [{ or: [exact, text] }, ['body', 'filter', 'or', 0]],
      [{ not: exact }, ['body', 'filter', 'not']],
      [
        { and: [topic, { not: { field: 'channel', op: 'in', value: ['@boots'] } }] },
        ['body', 'filter', 'and', 1, 'not'],
      ],
    ] as const) {
      expect(await first({ ...base, filter })).toMatchObject({
        type: 'value_error',
        loc,
        msg: expect.stringContaining('must be its own and clause'),
      });
    }
  });

  it('a channel leaf never shares an or or not with a prompt-level leaf', async () => {
    await expect(ok({ ...base, filter: { not: text } })).resolves.toBeDefined();
    for (const [filter, loc] of [
      [{ or: [topic, text] }, ['body', 'filter']],
      [{ and: [exact, { not: { and: [text, topic] } }] }, ['body', 'filter', 'and', 1]],
      [{ and: [{ or: [{ and: [text, topic] }, text] }] }, ['body', 'filter', 'and', 0]],
    ] as const) {
      expect(await first({ ...base, filter })).toMatchObject({
        type: 'value_error',
        loc,
        msg: expect.stringContaining('cannot share'),
      });
    }
  });

  it('the channel field takes its six operators only; analysis_type is a prompt-level field', async () => {
    expect(await first({ ...base, filter: { field: 'channel', op: 'matches', value: '^T' } })).toMatchObject({
      loc: ['body', 'filter', 'op'],
    });
    expect(await first({ ...base, filter: { field: 'channel', op: 'not_in', value: ['@boots'] } })).toMatchObject({
      loc: ['body', 'filter', 'op'],
    });
    await expect(
      ok({ ...base, filter: { and: [{ field: 'analysis_type', op: 'in', value: ['factcheck'] }, exact] } }),
    ).resolves.toBeDefined();
  });
});
