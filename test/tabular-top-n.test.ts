import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { domains, tabularFixture } from './fixtures/tabular.ts';
import { spaces } from './helpers/tabular-spaces.ts';

/**
 * A tabular page is read by one top-N statement (src/reports/top-n-page.ts) that carries the total beside
 * each row; a stream, and an engine opened with `leanPages: false`, read the one-statement form that
 * numbers every row in SQL. Both give the same bytes for every request: random requests of every tabular
 * report with random pages (past the last row too), orders and (on the traffic reports, which take them)
 * metric filters.
 */
const rows = tabularFixture();
const clock = () => new Date('2026-12-01T00:00:00Z');
let topN: Engine;
let statement: Engine;
beforeAll(async () => {
  topN = await openFixture(rows, { clock, cursorSecret: 'top-n' });
  statement = await openFixture(rows, { clock, cursorSecret: 'top-n', leanPages: false });
}, 60_000);
afterAll(async () => {
  await topN?.close();
  await statement?.close();
});

async function answer(engine: Engine, name: string, body: Record<string, unknown>): Promise<string> {
  try {
    return JSON.stringify(await engine.org(ids.org1).report(name)(body));
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

const paged = (body: Record<string, unknown>) =>
  fc
    .record({
      limit: fc.option(fc.integer({ min: 1, max: 6 })),
      offset: fc.integer({ min: 0, max: 12 }),
      direction: fc.constantFrom('asc', 'desc'),
      byDimension: fc.boolean(),
      least: fc.option(fc.integer({ min: 0, max: 3 })),
    })
    .map((r) => {
      const metrics = body.metrics as string[];
      const dimensions = body.dimensions as string[];
      const key = r.byDimension && dimensions.length > 0 ? dimensions[0]! : metrics[0]!;
      return {
        ...body,
        pagination: { limit: r.limit, offset: r.offset },
        order_by: { [key]: r.direction },
        ...(r.least === null || !('domain' in body) ? {} : { metric_filters: [{ field: metrics[0], value: r.least }] }),
      };
    });

describe('the top-N page of the tabular reports', () => {
  it.each(spaces)(
    '$name: the same bytes as the one-statement page',
    async ({ name, body }) => {
      const before = topN.core.stats.leanPages;
      let answered = 0;
      await fc.assert(
        fc.asyncProperty(
          body.chain((b) => paged(b)),
          async (b) => {
            const expected = await answer(statement, name, b);
            if (expected.startsWith('{')) answered++;
            expect(await answer(topN, name, b)).toBe(expected);
          },
        ),
        { numRuns: 24 },
      );
      // About half the random requests are refused; a page whose groups are not few is read by the one statement
      // (src/reports/read-rows.ts), so not every answered page is a top-N page; some must be.
      expect(answered).toBeGreaterThan(0);
      expect(topN.core.stats.leanPages - before).toBeGreaterThan(0);
    },
    120_000,
  );

  it('a page past the last row reads the total by a statement of its own', async () => {
    const body = { domain: domains.own, start_date: '2026-02-01', metrics: ['visits'], dimensions: ['path'] };
    const all = JSON.parse(await answer(topN, 'referrals', body));
    expect(all.info.total_rows).toBeGreaterThan(2);
    for (const offset of [all.info.total_rows, all.info.total_rows + 5]) {
      const past = { ...body, pagination: { limit: 2, offset } };
      const page = JSON.parse(await answer(topN, 'referrals', past));
      expect(page.data).toEqual([]);
      expect(page.info.total_rows).toBe(all.info.total_rows);
      expect(await answer(topN, 'referrals', past)).toBe(await answer(statement, 'referrals', past));
    }
  });

  it('explain shows the one statement, with the page as parameters', async () => {
    const body = {
      domain: domains.own,
      start_date: '2026-02-01',
      metrics: ['visits'],
      dimensions: ['path'],
      pagination: { limit: 3, offset: 2 },
    };
    const explained = (await topN.org(ids.org1).report('referrals')(body, { explain: true })) as {
      explain: { statements: { role: string; sql: string; params: unknown[] }[] };
    };
    const [s] = explained.explain.statements;
    expect(explained.explain.statements.length).toBe(1);
    expect(s!.role).toBe('page (lean: one top-N statement)');
    expect(s!.sql).toMatch(
      /page_units AS \(SELECT \* FROM labeled WHERE .*\(SELECT count\(\*\) FROM page_units\) AS head_total\nFROM page_units\nORDER BY .* LIMIT \$\d+ OFFSET \$\d+$/s,
    );
    expect(s!.params.slice(-2)).toEqual([3, 2]);
    const plain = (await statement.org(ids.org1).report('referrals')(body, { explain: true })) as typeof explained;
    expect(plain.explain.statements[0]!.role).toBe('page');
  });

  it("writes an instant's label after the cut, for the page's rows alone, and sorts the page again", async () => {
    const body = {
      start_date: '2026-02-01',
      metrics: ['count'],
      dimensions: ['timestamp', 'path'],
      pagination: { limit: 5 },
    };
    const explained = (await topN.org(ids.org1).report('rawBotLogs')(
      { domain: domains.own, ...body },
      { explain: true },
    )) as {
      explain: { statements: { sql: string }[] };
    };
    const sql = explained.explain.statements[0]!.sql;
    const [before, after] = sql.split('\nSELECT "m0" AS "out_m0"');
    // The instant's text is formatted over the page's rows; the path, which the order reads, is labeled before.
    expect(before).not.toMatch(/strftime/);
    expect(before).toMatch(/"g"\."k1" AS "d1"/);
    expect(after).toMatch(/strftime\("k0"/);
    expect(after).toMatch(/\) page_rows\nORDER BY "m0" DESC/);
    // A page past 1,024 rows may hold every group: it is cut by the one ORDER BY, as before.
    const large = (await topN.org(ids.org1).report('rawBotLogs')(
      { domain: domains.own, ...body, pagination: { limit: 1025 } },
      { explain: true },
    )) as typeof explained;
    expect(large.explain.statements[0]!.sql).not.toMatch(/page_rows/);
  });
});
