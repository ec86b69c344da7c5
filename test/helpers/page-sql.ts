import { render } from '../../src/query/sql.ts';
import { prepareCall } from '../../src/reports/core/prepare.ts';
import type { Report } from '../../src/reports/core/report.ts';
import type { CallContext, RollupLookup } from '../../src/reports/endpoint.ts';
import { plainPrepare } from '../../src/reports/endpoint.ts';

/**
 * A report's page request through the one pipeline, reading no data: the plan, and the page's statement
 * as DuckDB gets it (a lean page's statements one after the other, each with its own parameters).
 * `lookup` takes a set of rollups as the current ones (none by default), or asks the engine.
 */
export async function pageSql(
  report: Report<never, unknown>,
  body: unknown,
  ctx: CallContext,
  lookup: RollupLookup = new Set(),
): Promise<{ plan: unknown; query: ReturnType<typeof render> }> {
  const call = await prepareCall(report, body, 'page', ctx, { ...plainPrepare, lookup });
  const statements = call.statements
    .at(-1)!
    .queries('duckdb')
    .map((q) => render(q));
  if (statements.length === 1) return { plan: call.plan, query: statements[0]! };
  return {
    plan: call.plan,
    query: { text: statements.map((q) => q.text).join(';\n\n'), params: statements.map((q) => q.params) as never },
  };
}

/** A report declaration of any request and plan, as the tests hand them around. */
export const anyReport = (r: unknown) => r as Report<never, unknown>;
