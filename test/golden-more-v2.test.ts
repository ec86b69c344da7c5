import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { CursorCodec } from '../src/query/cursor.ts';
import { render } from '../src/query/sql.ts';
import { promptAnswersReport } from '../src/reports/answers/prompt-answers.ts';
import { compileAnswersV1, planAnswersV1 } from '../src/reports/answers/prompt-answers-v1.ts';
import { citationsReport } from '../src/reports/insights-v2/citations/citations.ts';
import { factcheckReport } from '../src/reports/insights-v2/factcheck/factcheck.ts';
import { queryFanoutsReport } from '../src/reports/insights-v2/query-fanouts.ts';
import { sentimentReport } from '../src/reports/insights-v2/sentiment/sentiment.ts';
import { videosReport } from '../src/reports/insights-v2/social/videos.ts';
import { pageSql } from './helpers/page-sql.ts';
import type { Report } from '../src/reports/core/report.ts';
import { pageQuery } from '../src/reports/rows-query.ts';
import { pageRange } from '../src/reports/core/offset-framing.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { expectGolden } from './helpers/golden.ts';
import { ids } from './fixtures/insights.ts';
import { moreIds, moreV2Fixture } from './fixtures/more-v2.ts';

const dir = fileURLToPath(new URL('./golden', import.meta.url));
const now = new Date('2026-11-22T12:00:00Z');
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(moreV2Fixture(), { cursorSecret: 'golden', clock: () => now });
});
afterAll(() => engine.close());

const as = (r: unknown) => r as Report<never, unknown>;
const window = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-06-30' };
const dst = { category_id: ids.cat1, start_date: '2026-03-08', end_date: '2026-11-01' };

const cases: { name: string; report: Report<never, unknown>; body: Record<string, unknown> }[] = [
  { name: 'citations/domains', report: as(citationsReport), body: { ...window, limit: 4 } },
  {
    name: 'citations/pages-by-model-owned',
    report: as(citationsReport),
    body: {
      ...dst,
      group_by: ['page', 'model'],
      scope: 'owned',
      metrics: ['rank', 'count', 'first_cited_at', 'citation_share'],
      filter: { field: 'analysis_type', op: 'is', value: 'all' },
      limit: 4,
    },
  },
  {
    name: 'citations/tagged-subdomains-by-week',
    report: as(citationsReport),
    body: {
      ...window,
      group_by: ['date'],
      interval: 'week',
      limit: 3,
      filter: {
        and: [
          { field: 'citation_tag', op: 'in', value: ['Press', moreIds.tags.foreign] },
          { not: { field: 'domain', op: 'is', value: 'blog.acme.example' } },
          { field: 'persona', op: 'not_is', value: '' },
        ],
      },
    },
  },
  { name: 'sentiment/brand', report: as(sentimentReport), body: { ...window, asset: 'Acme' } },
  {
    name: 'sentiment/themes-compared-with-sites',
    report: as(sentimentReport),
    body: {
      ...window,
      asset: 'Brandy',
      group_by: ['theme', 'tag'],
      metrics: ['positive_sentiment', 'occurrence'],
      include_cited_websites: true,
      comparison_start_date: '2026-07-01',
      comparison_end_date: '2026-10-31',
      limit: 3,
    },
  },
  {
    name: 'sentiment/citation-source',
    report: as(sentimentReport),
    body: {
      ...window,
      asset: ids.assets[2],
      source: 'citation',
      filter: { field: 'claim', op: 'in', value: ['soft', 'too pricey'] },
      limit: 3,
    },
  },
  { name: 'query-fanouts/prompts', report: as(queryFanoutsReport), body: { ...window } },
  {
    name: 'query-fanouts/prompt-queries-share',
    report: as(queryFanoutsReport),
    body: {
      ...window,
      group_by: ['prompt', 'query'],
      metrics: ['share', 'total_fanouts', 'fanouts_per_execution'],
      limit: 4,
    },
  },
  {
    name: 'query-fanouts/months-every-type',
    report: as(queryFanoutsReport),
    body: {
      ...dst,
      group_by: ['date', 'model'],
      interval: 'month',
      limit: 4,
      filter: {
        and: [
          { field: 'analysis_type', op: 'in', value: ['all'] },
          { field: 'topic', op: 'is', value: 'Tents 50%_off' },
        ],
      },
    },
  },
  { name: 'factcheck/flat', report: as(factcheckReport), body: { ...window } },
  {
    name: 'factcheck/theme-by-model',
    report: as(factcheckReport),
    body: {
      ...window,
      group_by: ['theme', 'model'],
      limit: 4,
      filter: { field: 'topic', op: 'not_in', value: ['Boots'] },
    },
  },
  { name: 'factcheck/citation', report: as(factcheckReport), body: { ...window, group_by: ['citation'], limit: 3 } },
  {
    name: 'factcheck/tag-by-week',
    report: as(factcheckReport),
    body: { ...dst, group_by: ['tag', 'date'], interval: 'week', limit: 4 },
  },
  {
    name: 'prompt-answers/cited-domain',
    report: as(promptAnswersReport),
    body: {
      ...window,
      limit: 2,
      include: [
        'run_id',
        'date',
        'model',
        'persona',
        'tags',
        'mentions',
        'citations',
        'search_queries',
        'analysis_types',
      ],
      filter: {
        and: [
          { field: 'domain', op: 'is', value: 'WWW.Acme.Example' },
          { field: 'analysis_type', op: 'in', value: ['factcheck', 'sentiment'] },
        ],
      },
    },
  },
  { name: 'videos/video', report: as(videosReport), body: { ...window, limit: 3 } },
  {
    name: 'videos/video-x-model-by-month',
    report: as(videosReport),
    body: {
      ...window,
      group_by: ['video', 'model'],
      interval: 'month',
      source_types: ['short'],
      limit: 2,
      filter: { field: 'channel', op: 'not_contains_case_insensitive', value: 'trail' },
    },
  },
];

describe('golden plans, SQL and results of the v2 citations, sentiment, fan-outs, fact-check, answers and videos reports', () => {
  it.each(cases)('$name', async ({ name, report, body }) => {
    const ctx = { organizationId: ids.org1, core: engine.core, now, cursors: new CursorCodec('golden') };
    const prepared = await pageSql(report, body, ctx);
    const query = prepared.query;
    expectGolden(join(dir, `${name}.plan.json`), JSON.stringify(prepared.plan, null, 2) + '\n');
    expectGolden(join(dir, `${name}.sql`), `${query.text}\n-- params: ${JSON.stringify(query.params)}\n`);
    const result = await engine.org(ids.org1).call('POST', report.path, { body });
    expectGolden(
      join(dir, `${name}.result.json`),
      JSON.stringify(JSON.parse(result.kind === 'json' ? result.json : '{}'), null, 2) + '\n',
    );
  });

  it('prompt-answers/v1', async () => {
    const body = {
      ...window,
      start_date: '2026-03-08 01:59',
      end_date: '2026-04-20T03:30:00-04:00',
      include: { response: false, prompt: false, sentiment_themes: true, themes: true },
      filters: [{ field: 'prompt_type', operator: 'is', value: 'sentiment' }],
      pagination: { limit: 2, offset: 1 },
    };
    const plan = planAnswersV1(body as never, { organizationId: ids.org1, now });
    const query = render(pageQuery(compileAnswersV1(plan), pageRange(plan.pagination)));
    expectGolden(join(dir, 'prompt-answers/v1.plan.json'), JSON.stringify(plan, null, 2) + '\n');
    expectGolden(join(dir, 'prompt-answers/v1.sql'), `${query.text}\n-- params: ${JSON.stringify(query.params)}\n`);
    const result = await engine.org(ids.org1).call('POST', '/v1/prompts/answers', { body });
    expectGolden(
      join(dir, 'prompt-answers/v1.result.json'),
      JSON.stringify(JSON.parse(result.kind === 'json' ? result.json : '{}'), null, 2) + '\n',
    );
  });
});
