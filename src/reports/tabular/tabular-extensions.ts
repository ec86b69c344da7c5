import { ValidationError } from '../../errors.ts';
import type { MsWindow } from '../extensions/compare-window.ts';
import type { ShapedReport } from '../rows-query.ts';
import type { ScalarType } from '../../query/row-shape.ts';
import { tabularCompiled } from './tabular-compiled.ts';
import { comparedGroups, comparedShape, compareSuffixes } from './tabular-compare.ts';
import { filledSql } from './tabular-fill.ts';
import { componentNames, type ExtensibleReport, type TabularShape, type TabularSql } from './tabular-shape.ts';

/**
 * The answer extensions of the tabular family, in SQL over a report's groups (`grouped`: keys `k<i>`,
 * metrics `m<j>`), so ordering, `total_rows`, metric filters and paging see the extended answer.
 */

/** What the extensions ask of a plan: the plan as read, and each extension (see `Extension` in tabular-report.ts). */
interface Asked<Plan> {
  readonly read: Plan;
  readonly fill: boolean;
  readonly components: boolean;
  readonly compared: MsWindow | null;
}

/** The plan with its ratios' parts among its metrics, when components asks for them (counts that fill makes 0, compared like any other). */
function shapedOf<Plan extends TabularShape>(report: ExtensibleReport<Plan>, plan: Plan, components: boolean): Plan {
  if (!components) return plan;
  const metrics = [...plan.metrics, ...componentNames(plan.metrics, report.ratioMetrics ?? [])];
  return { ...plan, components: true, metrics, query: { ...plan.query, metrics } };
}

/** The plan as answered: its metrics and `info.query` with what the extensions add. */
export function answeredPlan<Plan extends TabularShape>(report: ExtensibleReport<Plan>, x: Asked<Plan>): Plan {
  const shaped = shapedOf(report, x.read, x.components);
  return x.compared ? comparedShape(shaped, x.compared) : shaped;
}

/**
 * The answer's SQL with the extensions asked for, in SQL over the report's groups; `rollupsOf` says
 * which rollups each window's plan reads.
 */
export function extendedSql<Plan extends TabularShape>(
  report: ExtensibleReport<Plan>,
  x: Asked<Plan>,
  answered: Plan,
  rollupsOf: (plan: Plan) => ReadonlySet<string>,
): ShapedReport {
  const parts = x.components ? componentNames(x.read.metrics, report.ratioMetrics ?? []) : [];
  const sqlOf = (p: Plan): TabularSql => {
    const t = report.compile(x.components ? { ...p, components: true } : p, rollupsOf(p));
    return x.fill ? filledSql(shapedOf(report, p, x.components), t, [...report.countMetrics, ...parts]) : t;
  };
  const integers = new Set([...report.countMetrics, ...(report.instantMetrics ?? []), ...parts]);
  const shaped = shapedOf(report, x.read, x.components);
  const t = { ...sqlOf(x.read), metricTypes: metricTypes(shaped.metrics, integers) };
  if (!x.compared || !report.within) return tabularCompiled(answered, t);
  const prevPlan = report.within(x.read, x.compared);
  const groups = comparedGroups(
    shaped,
    t,
    shapedOf(report, prevPlan, x.components),
    sqlOf(prevPlan),
    report.instantMetrics ?? [],
  );
  return tabularCompiled(answered, t, groups);
}

/**
 * Counts, instants (Unix seconds) and ratio parts are integers in Arrow and Parquet, as in v2; compare's
 * previous value and change keep their metric's type, its relative change is a float; the rest are floats.
 */
function metricTypes(metrics: readonly string[], integers: ReadonlySet<string>): Record<string, ScalarType> {
  const typeOf = (m: string): ScalarType => (integers.has(m) ? 'integer' : 'float');
  const types: Record<string, ScalarType> = {};
  for (const m of metrics) {
    types[m] = typeOf(m);
    const [previous, change, pct] = compareSuffixes.map((s) => `${m}${s}`);
    types[previous!] = types[m];
    types[change!] = types[m];
    types[pct!] = 'float';
  }
  return types;
}

/** components refuses the dimensions whose rows do not re-aggregate. */
export function checkComponents<Plan extends TabularShape>(report: ExtensibleReport<Plan>, plan: Plan): void {
  const partial = plan.dimensions.filter((d) => report.partialDimensions?.includes(d));
  if (partial.length > 0) {
    throw ValidationError.of(
      ['query', 'components'],
      `components does not apply with the ${partial.join(', ')} dimension: a row exists only where it has facts while its denominator counts the whole group, so sums over rows would not re-aggregate exactly`,
      true,
    );
  }
}
