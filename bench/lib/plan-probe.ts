import { render } from '../../src/query/sql.ts';
import { cursorFingerprint } from '../../src/reports/core/cursor-framing.ts';
import { prepareCall } from '../../src/reports/core/prepare.ts';
import type { Report } from '../../src/reports/core/report.ts';
import { plainPrepare } from '../../src/reports/endpoint.ts';
import type { ReportCase } from './case.ts';

/** The planner probe of a report: validate, authorize from memory, plan, compile, render its page statement. */
export function planProbe<Req, Plan>(report: Report<Req, Plan>): ReportCase['plan'] {
  return async (org, body) => {
    const call = await prepareCall(report, body, 'page', org.context(), { ...plainPrepare, lookup: 'look' });
    return render(call.statements.at(-1)!.queries('duckdb')[0]!);
  };
}

/** Page N of a v2 report: the cursor the engine would have returned after page N-1 (`fallback`: the report's default page size). */
export function pagedPageBody<Req, Plan>(report: Report<Req, Plan>, fallback = 10): ReportCase['pageBody'] {
  return (org, body, page) => {
    const ctx = org.context();
    const read = report.read(report.schema.parse(body), ctx, 'page');
    const limit = typeof body.limit === 'number' ? body.limit : fallback;
    const at = cursorFingerprint(report.id, ctx.organizationId, read);
    return { ...body, cursor: ctx.cursors.encode((page - 1) * limit, at) };
  };
}
