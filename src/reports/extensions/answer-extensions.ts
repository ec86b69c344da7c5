import { ValidationError } from '../../errors.ts';
import { maxWindowDays } from '../insights/common.ts';
import type { V2Declaration } from '../v2-declaration.ts';
import type { ShapedReport } from '../rows-query.ts';
import { comparedAnswer, type AnswerColumns } from './compared-answer.ts';
import { comparedDates, type DateSpan } from './compared-dates.ts';
import { filledAnswer } from './filled-answer.ts';

type Extended<Plan> = Plan & { readonly compared?: DateSpan; readonly filled?: true };

/**
 * fill and compare over whole answers, for a v2 report that declares its `answer` columns and builds
 * neither of its own: the plan carries them, and the compiled report is the plain answer filled with
 * the window's missing buckets (`filledAnswer`), and beside the same plan's answer over the compared
 * window (`comparedAnswer`), filled alike. Read by units, never by date windows: the added and
 * compared rows are known only once the whole answer is.
 */
export function withAnswerExtensions<Req, Plan extends { readonly categoryId: string }, In>(
  report: V2Declaration<Req, Plan, In>,
): V2Declaration<Req, Plan, In> {
  const answer = report.answer;
  if (!answer || report.compare || report.fill) return report;
  const ext = (plan: Plan) => plan as Extended<Plan>;
  const plain = (plan: Plan): Plan => {
    const { compared: _c, filled: _f, ...rest } = ext(plan);
    return rest as Plan;
  };
  const columnsOf = (plan: Plan, name: 'fill' | 'compare', value: unknown): AnswerColumns => {
    const columns = answer.columns(plan);
    if (typeof columns === 'function') throw ValidationError.of(['query', name], columns(name), value);
    return columns;
  };
  const build = (plan: Plan, rollups: ReadonlySet<string>): ShapedReport => {
    const base = plain(plan);
    // The rows must carry what identifies them (hidden ids where they show names); plain answers skip them.
    const compiled = report.compile({ ...base, keyed: true }, rollups);
    return ext(plan).filled
      ? filledAnswer(compiled, answer.columns(base) as AnswerColumns, answer.window(base))
      : compiled;
  };
  const byDate = report.byDate;
  return {
    ...report,
    fill(plan) {
      if (columnsOf(plan, 'fill', 'zero').date === null)
        throw ValidationError.of(['query', 'fill'], `fill needs the date dimension: ${answer.dated}`, 'zero');
      return { ...plan, filled: true };
    },
    compare(plan, spec) {
      columnsOf(plan, 'compare', spec);
      return { ...plan, compared: comparedDates(answer.window(plan), spec, maxWindowDays) };
    },
    compile(plan, rollups) {
      const then = ext(plan).compared;
      if (!then && !ext(plan).filled) return report.compile(plan, rollups);
      if (!then) return build(plan, rollups);
      const { compared: _, ...now } = ext(plan);
      const base = plain(plan);
      return comparedAnswer(
        build(now as Plan, rollups),
        build(answer.within(now as Plan, then), rollups),
        answer.columns(base) as AnswerColumns,
        { now: answer.window(base), then },
      );
    },
    ...(byDate
      ? {
          byDate: {
            ...byDate,
            order: (plan: Plan) => (ext(plan).compared || ext(plan).filled ? null : byDate.order(plan)),
          },
        }
      : {}),
    info(plan, page) {
      const then = ext(plan).compared;
      return {
        ...report.info(plan, page),
        ...(then ? { compare: { start_date: then.startDate, end_date: then.endDate } } : {}),
      };
    },
  };
}
