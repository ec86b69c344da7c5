/**
 * A consumer of the packed package, type-checked by test/package.test.ts under `strict` and
 * `noUncheckedIndexedAccess`. Every `@ts-expect-error` marks a misuse that must not compile: were the
 * line accepted (a type gone `any`, a body left open), tsc would fail on the unused directive.
 */
import {
  NotFoundError,
  type Engine,
  type Page,
  type VisibilityInfo,
  type VisibilityRow,
  type TabularRow,
} from 'answer-engine-analytics';

export async function consume(
  engine: Engine,
  orgId: string,
  categoryId: string,
  domain: string,
  reportName: string,
): Promise<void> {
  const acme = engine.org(orgId);
  const window = { category_id: categoryId, start_date: '2026-10-01', end_date: '2026-10-31' };

  const page: Page<VisibilityInfo, VisibilityRow> = await acme.reports.visibility({
    ...window,
    scope: 'all',
    group_by: ['model'],
  });
  const total: number = page.info.total_results;
  const next: string | null = page.info.next_cursor;
  const first = page.data[0];
  const brand: string | undefined = first?.asset.name;
  const score: number | null | undefined = first?.visibility_score;
  const model: string | undefined = first?.model?.name;

  // @ts-expect-error a misspelt report
  await acme.reports.visibilty(window);
  // @ts-expect-error a value outside the enum
  await acme.reports.visibility({ ...window, scope: 'nope' });
  // @ts-expect-error a group_by dimension the report does not have
  await acme.reports.visibility({ ...window, group_by: ['channel'] });
  // @ts-expect-error a field the report does not take
  await acme.reports.visibility({ ...window, colour: 'red' });
  // @ts-expect-error a required field left out
  await acme.reports.visibility({ start_date: '2026-10-01', end_date: '2026-10-31' });
  // @ts-expect-error a nullable number used as a number
  const position: number = first!.average_position;
  // @ts-expect-error an info field that is not there
  void page.info.total_rows;

  for await (const e of acme.reports.visibilityStream({ ...window, max_results: 100 })) {
    if (e.event === 'summary') {
      const streamed: number = e.data.total_results;
      void streamed;
    } else {
      const rank: number = e.data.rank;
      // @ts-expect-error a result event carries a row, not the summary
      void e.data.total_results;
      void rank;
    }
  }
  // @ts-expect-error a report with no stream
  acme.reports.botsV1Stream;

  const table = await acme.reports.visibility(window, { format: 'arrow' });
  const rows: number = table.numRows;
  const csv: string = await acme.reports.visibility(window, { format: 'csv' });
  const parquet: Uint8Array = await acme.reports.visibility(window, { format: 'parquet' });
  const explained = await acme.reports.visibility(window, { explain: true });
  const sql: string | undefined = explained.explain.statements[0]?.sql;
  // @ts-expect-error a format that does not exist
  await acme.reports.visibility(window, { format: 'xml' });

  const bots = await acme.reports.bots({
    domain,
    start_date: '2026-10-01',
    metrics: ['count'],
    dimensions: ['bot_type'],
  });
  const totalRows: number = bots.info.total_rows;
  const row: TabularRow | undefined = bots.data[0];
  const count: number | null | undefined = row?.metrics[0];
  // @ts-expect-error a metric the traffic report does not declare
  await acme.reports.bots({ domain, start_date: '2026-10-01', metrics: ['visits'] });
  // @ts-expect-error the v1 visibility report's dimensions are its own
  await acme.reports.visibilityV1({ ...window, metrics: ['visibility_score'], dimensions: ['channel'] });

  const v1 = await acme.reports.visibilityV1({ ...window, metrics: ['visibility_score'], dimensions: ['asset_name'] });
  // @ts-expect-error a v1 metric may be null
  const v1Score: number[] = v1.data[0]!.metrics;

  const named = acme.report(reportName);
  const anyPage = await named(window);
  const untyped: unknown = anyPage.info;
  const missing: boolean = (() => {
    try {
      acme.report('nope');
      return false;
    } catch (error) {
      return error instanceof NotFoundError;
    }
  })();

  void [
    total,
    next,
    brand,
    score,
    model,
    position,
    rows,
    csv,
    parquet,
    sql,
    totalRows,
    count,
    v1Score,
    untyped,
    missing,
  ];
}
