import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { CursorCodec } from '../src/query/cursor.ts';
import { pageSql } from './helpers/page-sql.ts';
import type { Report } from '../src/reports/core/report.ts';
import { visibilityReport } from '../src/reports/insights-v2/visibility/visibility.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { expectGolden } from './helpers/golden.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';

const dir = fileURLToPath(new URL('./golden', import.meta.url));
let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(insightsFixture(), { cursorSecret: 'golden' });
});
afterAll(() => engine.close());

interface GoldenCase {
  readonly name: string;
  readonly report: Report<never, unknown>;
  readonly body: Record<string, unknown>;
}

const window = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-11-30' };

export const cases: GoldenCase[] = [
  { name: 'visibility/owned-default', report: visibilityReport as never, body: window },
  {
    name: 'visibility/all-by-model-and-week',
    report: visibilityReport as never,
    body: { ...window, scope: 'all', group_by: ['model', 'date'], interval: 'week', limit: 5 },
  },
  {
    name: 'visibility/filtered-assets-sorted',
    report: visibilityReport as never,
    body: {
      ...window,
      scope: 'all',
      metrics: ['share_of_voice', 'average_position'],
      sort: { field: 'average_position', dir: 'desc' },
      assets: { op: 'not_in', value: ['Quiet'] },
      filter: {
        and: [
          { field: 'topic', op: 'is', value: 'Tents 50%_off' },
          { not: { field: 'persona', op: 'in', value: ['Hiker', ''] } },
        ],
      },
    },
  },
  {
    name: 'visibility/by-persona-with-nulls',
    report: visibilityReport as never,
    body: { ...window, scope: 'all', group_by: ['persona'], metrics: ['visibility_score'] },
  },
];

describe('golden plans, SQL and results', () => {
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
