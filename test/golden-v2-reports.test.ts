import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { CursorCodec } from '../src/query/cursor.ts';
import { channelsReport } from '../src/reports/insights-v2/social/channels.ts';
import { factcheckClaimsReport } from '../src/reports/insights-v2/factcheck/factcheck-claims.ts';
import { shoppingProductsReport } from '../src/reports/insights-v2/shopping/shopping-products.ts';
import { pageSql } from './helpers/page-sql.ts';
import type { Report } from '../src/reports/core/report.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { expectGolden } from './helpers/golden.ts';
import { claimsFixture } from './fixtures/claims.ts';
import { ids } from './fixtures/insights.ts';
import { productIds, shoppingFixture } from './fixtures/shopping.ts';

const dir = fileURLToPath(new URL('./golden', import.meta.url));
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture({ ...shoppingFixture(), ...claimsFixture() }, { cursorSecret: 'golden' });
});
afterAll(() => engine.close());

interface GoldenCase {
  readonly name: string;
  readonly report: Report<never, unknown>;
  readonly body: Record<string, unknown>;
}

const window = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-06-30' };
const shopping = shoppingProductsReport as unknown as Report<never, unknown>;
const channels = channelsReport as unknown as Report<never, unknown>;
const claims = factcheckClaimsReport as unknown as Report<never, unknown>;

const cases: GoldenCase[] = [
  { name: 'shopping/default', report: shopping, body: { ...window, limit: 3 } },
  {
    name: 'shopping/with-merchants',
    report: shopping,
    body: {
      ...window,
      include_merchants: true,
      filter: {
        or: [
          { field: 'merchant', op: 'is', value: 'REI' },
          { field: 'brand', op: 'is', value: '' },
        ],
      },
    },
  },
  {
    name: 'shopping/target-product-by-week',
    report: shopping,
    body: {
      ...window,
      end_date: '2026-03-31',
      target_product: productIds[2],
      competitor_limit: 2,
      group_by: ['date'],
      interval: 'week',
      metrics: ['visibility_score', 'visibility_rank', 'position1_percentage'],
    },
  },
  { name: 'channels/channel', report: channels, body: { ...window, limit: 3 } },
  { name: 'channels/video-category', report: channels, body: { ...window, group_by: ['video_category'] } },
  {
    name: 'channels/source-type-by-month',
    report: channels,
    body: { ...window, group_by: ['source_type'], interval: 'month', source_types: ['video', 'short'] },
  },
  {
    name: 'channels/channel-x-video-category',
    report: channels,
    body: { ...window, group_by: ['channel', 'video_category'], limit: 2 },
  },
  {
    name: 'channels/channel-x-source-type-filtered',
    report: channels,
    body: {
      ...window,
      group_by: ['channel', 'source_type'],
      limit: 2,
      filter: {
        and: [
          { field: 'topic', op: 'is', value: 'Boots' },
          { not: { field: 'channel', op: 'contains_case_insensitive', value: 'ZED' } },
          { field: 'channel', op: 'in', value: ['@trailtalk', '@gearlab', '@zed_'] },
        ],
      },
    },
  },
  { name: 'channels/channel-x-model', report: channels, body: { ...window, group_by: ['channel', 'model'], limit: 1 } },
  {
    name: 'claims/flat-with-sources',
    report: claims,
    body: { ...window, include: ['citation_sources', 'evidence'], limit: 3 },
  },
  {
    name: 'claims/sectioned-by-tag',
    report: claims,
    body: {
      ...window,
      group_by: ['tag'],
      include: ['theme', 'models', 'evidence'],
      filter: { field: 'topic', op: 'not_is', value: 'Tents 50%_off' },
    },
  },
  {
    name: 'claims/sectioned-by-theme',
    report: claims,
    body: { ...window, group_by: ['theme'], include: ['reasoning'] },
  },
];

describe('golden plans, SQL and results of the shopping, channels and fact-check claims reports', () => {
  it.each(cases)('$name', async ({ name, report, body }) => {
    const ctx = {
      organizationId: ids.org1,
      core: engine.core,
      now: new Date('2026-11-22T12:00:00Z'),
      cursors: new CursorCodec('golden'),
    };
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
});
