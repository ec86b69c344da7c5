import type { ByDate, PageFacts, Paging } from './core/cursor-framing.ts';
import type { DataGuard, Mode, ReadContext, ReportIdentity, RollupUse } from './core/report.ts';
import type { CompareSpec } from './extensions/compare-window.ts';
import type { AnswerColumns } from './extensions/compared-answer.ts';
import type { DateSpan } from './extensions/compared-dates.ts';
import type { ShapedReport } from './rows-query.ts';

/**
 * What a v2 report declares (`{info, data}` pages with a cursor and an SSE stream of a summary then
 * results), which `v2Report` turns into the one report declaration. A v2 report reads one category.
 * `In`: the body a caller writes (the schema's input, before defaults), which the library's types take.
 */
export interface V2Declaration<Req, Plan extends { readonly categoryId: string }, In = unknown>
  extends ReportIdentity<Req, In> {
  /** Pure: the request read into a plan once, or a ValidationError naming every bad field (locations start with `body`). */
  read(req: Req, ctx: ReadContext, mode: Mode): Plan;
  paging(req: Req, mode: Mode): Paging;
  /** The rollups that together could answer this plan, when its shape allows; each is read when current. */
  rollups?(plan: Plan): readonly RollupUse[];
  compile(plan: Plan, rollups: ReadonlySet<string>): ShapedReport;
  guards?(plan: Plan): readonly DataGuard[];
  readonly byDate?: ByDate<Plan>;
  info(plan: Plan, page: PageFacts): Record<string, unknown>;
  /** The components rewrite, where the report's ratios have parts (the row gains `<ratio>_numerator`, `<ratio>_denominator`). */
  components?(plan: Plan): Plan;
  /** The fill rewrite of a report that fills date buckets itself, or a 422 at `["query", "fill"]`. */
  fill?(plan: Plan): Plan;
  /** The compare rewrite of a report that compares itself, or a 422 at `["query", "compare"]`. */
  compare?(plan: Plan, spec: CompareSpec): Plan;
  /**
   * What identifies and measures the answer's rows, and its window: a report that declares it (and no
   * `compare` or `fill` of its own) takes both over whole answers (src/reports/extensions/answer-extensions.ts).
   */
  readonly answer?: {
    /** How a request gets the date dimension, for fill's refusal without it (or why it never has one). */
    readonly dated: string;
    /** The columns, or why an extension does not apply to this plan (a 422 at its query parameter). */
    columns(plan: Plan): AnswerColumns | ((extension: 'fill' | 'compare') => string);
    window(plan: Plan): DateSpan;
    within(plan: Plan, span: DateSpan): Plan;
  };
}
