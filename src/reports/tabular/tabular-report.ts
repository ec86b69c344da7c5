import { ValidationError, type ValidationIssue } from '../../errors.ts';
import { join, sql, type Fragment } from '../../query/sql.ts';
import type { CallContext } from '../endpoint.ts';
import { offsetFraming } from '../core/offset-framing.ts';
import {
  defineReport,
  identityOf,
  type Mode,
  type ReadContext,
  type Report,
  type ReportIdentity,
  type RollupUse,
} from '../core/report.ts';
import type { MsWindow } from '../extensions/compare-window.ts';
import { keyColumn, type ExtensibleReport, type TabularShape } from './tabular-shape.ts';
import { answeredPlan, checkComponents, extendedSql } from './tabular-extensions.ts';
import { compareWindowOf } from './tabular-compare.ts';
import { checkFill } from './tabular-fill.ts';

/**
 * The tabular family (v1 Insights and traffic reports): `{info: {total_rows, query}, data: [{metrics,
 * dimensions}]}`, and for some an SSE stream whose first event is `{query, total_rows}`. A report
 * computes one row per group; the family's SQL does what follows aggregation for every report: metric
 * filters, ordering with its tie-break, paging, the row shape (src/reports/tabular/tabular-compiled.ts).
 */

export type { TabularDimension, TabularShape, TabularSql } from './tabular-shape.ts';
export { keyColumn, metricColumn } from './tabular-shape.ts';
export { tabularCompiled } from './tabular-compiled.ts';
export type { Mode } from '../core/report.ts';

/** What a tabular report declares, which `tabularReport` turns into the one report declaration. */
export interface TabularDeclaration<Req, Plan extends TabularShape, In = unknown>
  extends ExtensibleReport<Plan>,
    ReportIdentity<Req, In> {
  /** Pure: reads the request into a plan, or throws a ValidationError naming every bad field. */
  read(req: Req, ctx: ReadContext, mode: Mode): Plan;
  /** Refuses objects of another organization (403) or of none (404) before any fact is read. */
  authorize(plan: Plan, ctx: CallContext): void | Promise<void>;
  /** The rollups that could answer this plan, best first; the first current one is read. */
  rollups?(plan: Plan): readonly RollupUse[];
}

/** What the extensions asked of a tabular plan: the plan as read, and each extension. */
export interface Extension<Plan> {
  readonly read: Plan;
  readonly fill: boolean;
  readonly components: boolean;
  readonly compared: MsWindow | null;
}

/** A tabular plan as answered (its metrics and `info.query` with what the extensions add), with what they asked. */
export type Extended<Plan> = Plan & { readonly extension?: Extension<Plan> };

const extensionOf = <Plan>(plan: Extended<Plan>): Extension<Plan> =>
  plan.extension ?? { read: plan, fill: false, components: false, compared: null };

/** The plan as answered, without what the extensions asked (the answer's fingerprint hashes it). */
function answered<Plan>(plan: Extended<Plan>): Plan {
  const { extension: _, ...rest } = plan;
  return rest as Plan;
}

/** The one report declaration of a tabular report: offset framing, and the extensions in SQL over its groups. */
export function tabularReport<Req, Plan extends TabularShape, In>(
  d: TabularDeclaration<Req, Plan, In>,
): Report<Req, Extended<Plan>, In> {
  const extend = (plan: Extended<Plan>, asked: Partial<Extension<Plan>>): Extended<Plan> => {
    const extension = { ...extensionOf(plan), ...asked };
    return { ...answeredPlan(d, extension), extension };
  };
  const windows = (plan: Extended<Plan>): Plan[] => {
    const x = extensionOf(plan);
    return x.compared && d.within ? [x.read, d.within(x.read, x.compared)] : [x.read];
  };
  // Each window reads the first of its own rollups found current.
  const chosenFor = (plan: Plan, chosen: ReadonlySet<string>) =>
    new Set(
      (d.rollups?.(plan) ?? [])
        .map((u) => u.def.name)
        .filter((n) => chosen.has(n))
        .slice(0, 1),
    );
  return defineReport<Req, Extended<Plan>, In>({
    ...identityOf(d),
    read: (req, ctx, mode) => d.read(req, ctx, mode),
    authorize: (plan, ctx) => d.authorize(extensionOf(plan).read, ctx),
    rewrites: {
      ...(d.fills
        ? {
            fill: (plan: Extended<Plan>) => {
              checkFill(extensionOf(plan).read);
              return extend(plan, { fill: true });
            },
          }
        : {}),
      ...(d.within
        ? {
            compare: (plan: Extended<Plan>, spec) =>
              extend(plan, { compared: compareWindowOf(extensionOf(plan).read, spec) }),
          }
        : {}),
      ...((d.ratioMetrics ?? []).length > 0
        ? {
            components: (plan: Extended<Plan>) => {
              checkComponents(d, extensionOf(plan).read);
              return extend(plan, { components: true });
            },
          }
        : {}),
    },
    ...(d.rollups ? { rollups: (plan: Extended<Plan>) => windows(plan).map((w) => d.rollups!(w)) } : {}),
    compile: (plan, chosen) => extendedSql(d, extensionOf(plan), answered(plan), (w) => chosenFor(w, chosen)),
    framing: offsetFraming<Req, Extended<Plan>>({
      pagination: (plan) => plan.pagination,
      info: (plan, total) => ({ total_rows: total, query: plan.query }),
      summary: (plan, total) => ({ query: plan.query, total_rows: total }),
      normalized: answered,
    }),
  });
}

/** `GROUP BY k0, k1, …`, or `HAVING count(*) > 0` without dimensions so that no data gives no row. */
export function groupKeys(count: number): Fragment {
  if (count === 0) return sql`HAVING count(*) > 0`;
  return sql`GROUP BY ${join(
    Array.from({ length: count }, (_, i) => keyColumn(i)),
    ', ',
  )}`;
}

/** Semantic validation failures are thrown with every issue at once. */
export function throwIfAny(issues: { list: readonly ValidationIssue[] }): void {
  if (issues.list.length > 0) throw new ValidationError(issues.list);
}
