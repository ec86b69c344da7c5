import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError, type ValidationIssue } from '../src/errors.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(moreV2Fixture());
});
afterAll(() => engine.close());

const base = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-03-31' };
const topic = { field: 'topic', op: 'is', value: 'Boots' };

async function detail(name: string, body: unknown, stream = false): Promise<ValidationIssue[]> {
  const org = engine.org(ids.org1);
  const run = stream
    ? (async () => {
        for await (const _ of org.stream(name)(body as object)) void _;
      })()
    : org.report(name)(body as object);
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, JSON.stringify(body)).toBeInstanceOf(ValidationError);
  return [...(error as ValidationError).detail];
}
const first = async (name: string, body: unknown, stream = false) => (await detail(name, body, stream))[0]!;

describe('v2 citations 422s', () => {
  it('required and unknown fields (no sort), group_by and metrics values, page size', async () => {
    expect((await detail('citations', {})).map((i) => i.loc)).toEqual([
      ['body', 'category_id'],
      ['body', 'start_date'],
      ['body', 'end_date'],
    ]);
    expect(await first('citations', { ...base, sort: { field: 'count' } })).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'sort'],
    });
    expect(await first('citations', { ...base, group_by: ['domain'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'group_by', 0],
    });
    expect(await first('citations', { ...base, group_by: ['page', 'page'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'group_by', 1],
    });
    expect(await first('citations', { ...base, metrics: ['count', 'first_cited_at'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'metrics', 1],
      msg: 'Value error, first_cited_at is a page metric: add page to group_by',
    });
    expect(await first('citations', { ...base, metrics: [] })).toMatchObject({
      type: 'too_short',
      loc: ['body', 'metrics'],
    });
    expect(await first('citations', { ...base, scope: 'mine' })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'scope'],
    });
    expect(await first('citations', { ...base, limit: 51 })).toMatchObject({
      type: 'less_than_equal',
      loc: ['body', 'limit'],
    });
    expect(await first('citations', { ...base, max_results: 0 }, true)).toMatchObject({
      type: 'greater_than',
      loc: ['body', 'max_results'],
    });
    expect(await first('citations', { ...base, end_date: '2026-02-01' })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'end_date'],
    });
  });

  it('filter: fields, operators, layers and the top-level analysis_type', async () => {
    expect(await first('citations', { ...base, filter: { field: 'channel', op: 'is', value: 'x' } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filter', 'field'],
    });
    expect(
      await first('citations', { ...base, filter: { field: 'citation_tag', op: 'contains', value: 'F' } }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter', 'op'] });
    expect(await first('citations', { ...base, filter: { field: 'domain', op: 'in', value: 'a.com' } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filter', 'value'],
    });
    expect(
      await first('citations', { ...base, filter: { or: [topic, { field: 'domain', op: 'is', value: 'a.com' }] } }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter'] });
    expect(
      await first('citations', {
        ...base,
        filter: { and: [topic, { not: { and: [topic, { field: 'page', op: 'is', value: 'x' }] } }] },
      }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter', 'and', 1] });
    expect(
      await first('citations', {
        ...base,
        filter: { or: [topic, { field: 'analysis_type', op: 'is', value: 'all' }] },
      }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter', 'or', 1] });
    const twice = {
      and: [
        { field: 'analysis_type', op: 'is', value: 'all' },
        { field: 'analysis_type', op: 'is', value: 'sentiment' },
      ],
    };
    expect(await first('citations', { ...base, filter: twice })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filter', 'and', 1, 'field'],
    });
    expect(
      await first('citations', { ...base, filter: { field: 'analysis_type', op: 'not_is', value: 'all' } }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter', 'op'] });
    await expect(
      engine.org(ids.org1).reports.citations({
        ...base,
        filter: {
          and: [
            topic,
            {
              or: [
                { field: 'domain', op: 'is', value: 'a.com' },
                { not: { field: 'page', op: 'contains', value: 'x' } },
              ],
            },
          ],
        },
      }),
    ).resolves.toBeDefined();
  });
});

describe('v2 sentiment 422s', () => {
  const sbase = { ...base, asset: 'Acme' };
  it('asset, group_by, the citation mode, occurrence, cited websites and the comparison period', async () => {
    expect(await first('sentiment', base)).toMatchObject({ type: 'missing', loc: ['body', 'asset'] });
    expect(await first('sentiment', { ...base, asset: '' })).toMatchObject({
      type: 'string_too_short',
      loc: ['body', 'asset'],
    });
    expect(await first('sentiment', { ...sbase, asset: 'Lendco' })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'asset'],
    });
    expect(await first('sentiment', { ...sbase, group_by: ['theme', 'model', 'tag'] })).toMatchObject({
      type: 'too_long',
      loc: ['body', 'group_by'],
    });
    expect(await first('sentiment', { ...sbase, group_by: ['sentiment'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'group_by', 0],
    });
    expect(await first('sentiment', { ...sbase, source: 'citation', group_by: ['theme'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'group_by'],
    });
    expect(await first('sentiment', { ...sbase, source: 'page' })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'source'],
    });
    expect(
      await first('sentiment', { ...sbase, group_by: ['model'], metrics: ['positive_sentiment', 'occurrence'] }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'metrics', 1] });
    await expect(
      engine
        .org(ids.org1)
        .reports.sentiment({ ...sbase, metrics: ['occurrence'], filter: { field: 'claim', op: 'is', value: 'soft' } }),
    ).resolves.toBeDefined();
    expect(await first('sentiment', { ...sbase, group_by: ['model'], include_cited_websites: true })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'include_cited_websites'],
    });
    expect(await first('sentiment', { ...sbase, comparison_start_date: '2026-01-01' })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'comparison_end_date'],
    });
    expect(
      await first('sentiment', { ...sbase, comparison_start_date: '2026-02-01', comparison_end_date: '2026-01-01' }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'comparison_end_date'] });
    expect(
      await first('sentiment', {
        ...sbase,
        comparison_start_date: '2026-01-01',
        comparison_end_date: '2026-01-31',
        group_by: ['date'],
      }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'comparison_start_date'] });
    expect(
      await first('sentiment', { ...sbase, comparison_start_date: '2026-1-01', comparison_end_date: '2026-01-31' }),
    ).toMatchObject({ type: 'date_from_datetime_parsing', loc: ['body', 'comparison_start_date'] });
  });

  it('theme and claim take is and in, and never share an or or not with a prompt-level leaf', async () => {
    expect(
      await first('sentiment', { ...base, asset: 'Acme', filter: { field: 'theme', op: 'contains', value: 'P' } }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter', 'op'] });
    expect(
      await first('sentiment', {
        ...base,
        asset: 'Acme',
        filter: { and: [topic, { not: { or: [topic, { field: 'claim', op: 'is', value: 'soft' }] } }] },
      }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter', 'and', 1] });
  });
});

describe('v2 query fan-outs 422s (the docs’ combination rules)', () => {
  it('share needs query, query needs prompt, query_variations cannot be combined with query', async () => {
    expect(await first('queryFanouts', { ...base, metrics: ['total_fanouts', 'share'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'metrics', 1],
    });
    expect(await first('queryFanouts', { ...base, group_by: ['query'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'group_by'],
    });
    expect(
      await first('queryFanouts', { ...base, group_by: ['prompt', 'query'], metrics: ['query_variations'] }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'metrics', 0] });
    expect(await first('queryFanouts', { ...base, group_by: ['topic'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'group_by', 0],
    });
    expect(
      await first('queryFanouts', { ...base, metrics: ['share', 'share'], group_by: ['prompt', 'query'] }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'metrics', 1] });
    expect(
      await first('queryFanouts', {
        ...base,
        filter: { not: { field: 'analysis_type', op: 'is', value: 'sentiment' } },
      }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter', 'not'] });
    expect(
      await first('queryFanouts', { ...base, filter: { field: 'domain', op: 'is', value: 'a.com' } }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter', 'field'] });
  });
});

describe('v2 fact-check scores 422s', () => {
  it('group_by: at most two, citation alone; the claims filter rules', async () => {
    expect(await first('factcheck', { ...base, group_by: ['model', 'tag', 'theme'] })).toMatchObject({
      type: 'too_long',
      loc: ['body', 'group_by'],
    });
    expect(await first('factcheck', { ...base, group_by: ['citation', 'model'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'group_by'],
    });
    expect(await first('factcheck', { ...base, group_by: ['claim'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'group_by', 0],
    });
    expect(await first('factcheck', { ...base, filter: { or: [topic, topic] } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filter'],
    });
    expect(
      await first('factcheck', { ...base, filter: { field: 'model', op: 'not_is', value: 'ChatGPT' } }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter', 'op'] });
    expect(await first('factcheck', { ...base, filter: { and: [topic, topic] } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filter', 'and', 1, 'field'],
    });
    expect(await first('factcheck', { ...base, include: ['theme'] })).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'include'],
    });
  });
});

describe('v2 prompt answers 422s', () => {
  it('include values, domain and page leaves top-level with is or in', async () => {
    expect(await first('promptAnswers', { ...base, include: ['run_id', 'answer'] })).toMatchObject({
      type: 'literal_error',
      loc: ['body', 'include', 1],
    });
    expect(await first('promptAnswers', { ...base, include: ['run_id', 'run_id'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'include', 1],
    });
    expect(await first('promptAnswers', { ...base, include: [] })).toMatchObject({
      type: 'too_short',
      loc: ['body', 'include'],
    });
    expect(await first('promptAnswers', { ...base, group_by: ['model'] })).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'group_by'],
    });
    expect(
      await first('promptAnswers', {
        ...base,
        filter: { or: [topic, { field: 'page', op: 'is', value: 'https://x' }] },
      }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter', 'or', 1] });
    expect(
      await first('promptAnswers', { ...base, filter: { field: 'domain', op: 'contains', value: 'x' } }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter', 'op'] });
    expect(await first('promptAnswers', { ...base, limit: 0 })).toMatchObject({
      type: 'greater_than_equal',
      loc: ['body', 'limit'],
    });
  });

  it('v1: the include map, flat filters, the window and pagination', async () => {
    const v1 = { ...base, end_date: '2026-04-01' };
    expect(await first('promptAnswersV1', { ...v1, include: { answer: true } })).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'include', 'answer'],
    });
    expect(await first('promptAnswersV1', { ...v1, include: { response: 'maybe' } })).toMatchObject({
      type: 'bool_parsing',
      loc: ['body', 'include', 'response'],
    });
    expect(
      await first('promptAnswersV1', { ...v1, filters: [{ field: 'citation_category', operator: 'is', value: 'x' }] }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filters', 0, 'field'] });
    expect(
      await first('promptAnswersV1', { ...v1, filters: [{ field: 'model_id', operator: 'is', value: 'gpt' }] }),
    ).toMatchObject({ type: 'uuid_parsing', loc: ['body', 'filters', 0, 'value'] });
    expect(await first('promptAnswersV1', { ...v1, end_date: '2026-03-01' })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'end_date'],
    });
    expect(await first('promptAnswersV1', { ...v1, pagination: { limit: 50_001 } })).toMatchObject({
      type: 'less_than_equal',
      loc: ['body', 'pagination', 'limit'],
    });
  });
});

describe('v2 videos 422s', () => {
  it('group_by forms, source types without a video, domain and page filters', async () => {
    expect(await first('youtubeVideos', { ...base, group_by: ['model'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'group_by'],
    });
    expect(await first('youtubeVideos', { ...base, group_by: ['video', 'model', 'source_type'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'group_by'],
    });
    expect(await first('youtubeVideos', { ...base, group_by: ['video', 'video'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'group_by', 1],
    });
    expect(await first('youtubeVideos', { ...base, source_types: ['other'] })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'source_types', 0],
    });
    expect(await first('youtubeVideos', { ...base, filter: { field: 'page', op: 'is', value: 'x' } })).toMatchObject({
      type: 'value_error',
      loc: ['body', 'filter', 'field'],
      msg: 'Value error, the videos report does not filter on page: it ranks video-platform videos',
    });
    expect(
      await first('youtubeVideos', {
        ...base,
        filter: { or: [topic, { field: 'channel', op: 'is', value: '@boots' }] },
      }),
    ).toMatchObject({ type: 'value_error', loc: ['body', 'filter'] });
  });
});
