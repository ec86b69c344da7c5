import { pageQuery } from '../../src/reports/rows-query.ts';
import { prepare } from '../../src/reports/paged-prepare.ts';
import type { PagedReport } from '../../src/reports/paged-report.ts';
import { render } from '../../src/query/sql.ts';
import type { ReportCase } from './case.ts';

/** The planner probe of a v2 paged report: validate, authorize from memory, plan, compile, render. */
export function pagedPlanProbe<Req, Plan>(report: PagedReport<Req, Plan>): ReportCase['plan'] {
  return (org, body) => {
    const p = prepare(report, body, 'page', org.context());
    return render(pageQuery(p.compiled, { after: 0, upTo: p.paging.limit }));
  };
}

/** Page N of a v2 paged report: the cursor the engine would have returned after page N-1. */
export function pagedPageBody<Req, Plan>(report: PagedReport<Req, Plan>): ReportCase['pageBody'] {
  return (org, body, page) => {
    const ctx = org.context();
    const p = prepare(report, body, 'page', ctx);
    return { ...body, cursor: ctx.cursors.encode((page - 1) * p.paging.limit, p.fingerprint) };
  };
}
