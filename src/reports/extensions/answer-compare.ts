import type { PagedReport } from '../paged-report.ts';
import { ValidationError } from '../../errors.ts';
import { comparedAnswer, type AnswerColumns } from './compared-answer.ts';
import { comparedDates, type DateSpan } from './compared-dates.ts';

/** The v2 windows' bound, which the compared window keeps too. */
const maxWindowDays = 3 * 366;

type Compared<Plan> = Plan & { readonly compared?: DateSpan };

/**
 * The compare extension over whole answers, for a v2 report that declares its `answer` columns and
 * builds no comparison of its own: the plan carries the compared window, and the compiled report is
 * the plain answer beside the same plan's answer over that window (`comparedAnswer`). Read by units,
 * never by date windows, since the compared rows are known only once both answers are.
 */
export function withAnswerCompare<Req, Plan>(report: PagedReport<Req, Plan>): PagedReport<Req, Plan> {
  const answer = report.answer;
  if (report.compare || !answer) return report;
  const compared = (plan: Plan) => (plan as Compared<Plan>).compared;
  const plain = (plan: Plan): Plan => {
    const { compared: _, ...rest } = plan as Compared<Plan>;
    return rest as Plan;
  };
  const byDate = report.byDate;
  return {
    ...report,
    compare(plan, spec) {
      const columns = answer.columns(plan);
      if (typeof columns === 'string') throw ValidationError.of(['query', 'compare'], columns, spec);
      return { ...plan, compared: comparedDates(answer.window(plan), spec, maxWindowDays) };
    },
    compile(plan, rollups) {
      const then = compared(plan);
      if (!then) return report.compile(plan, rollups);
      const base = plain(plan);
      return comparedAnswer(report.compile(base, rollups), report.compile(answer.within(base, then), rollups), answer.columns(base) as AnswerColumns, { now: answer.window(base), then });
    },
    ...(byDate ? { byDate: { ...byDate, order: (plan: Plan) => (compared(plan) ? null : byDate.order(plan)) } } : {}),
    info(plan, page) {
      const then = compared(plan);
      return { ...report.info(plan, page), ...(then ? { compare: { start_date: then.startDate, end_date: then.endDate } } : {}) };
    },
  };
}
