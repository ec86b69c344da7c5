import { ValidationError } from '../../errors.ts';
import { formatInstant, windowBuckets } from '../../query/instants.ts';
import { nullDouble } from '../../query/dialect.ts';
import { join, sql, type Fragment } from '../../query/sql.ts';
import { comparedWindow, type CompareSpec, type MsWindow } from '../extensions/compare-window.ts';
import { maxWindowDays } from '../insights/common.ts';
import type { ShapedReport } from '../rows-query.ts';
import type { ScalarType } from '../../query/row-shape.ts';
import { tabularCompiled } from './tabular-compiled.ts';
import {
  componentNames,
  keyColumn,
  metricColumn,
  type ExtensibleReport,
  type TabularShape,
  type TabularSql,
} from './tabular-shape.ts';

/**
 * The answer extensions of the tabular family, in SQL over a report's groups (`grouped`: keys `k<i>`,
 * metrics `m<j>`), so ordering, `total_rows`, metric filters and paging see the extended answer.
 */

/** The time dimension fill completes and compare aligns. */
const timeDimension = 'date';

/** Fill needs the date dimension. Its SQL generates one instant per hour of the window, which every tabular request bounds. */
export function checkFill(plan: TabularShape): void {
  if (!plan.dimensions.includes(timeDimension) || !plan.window || !plan.bucket) {
    throw ValidationError.of(
      ['query', 'fill'],
      `fill needs the ${timeDimension} dimension: add '${timeDimension}' to dimensions`,
      'zero',
    );
  }
}

/**
 * The groups with every time bucket of the window for every combination of the other keys seen: a
 * missing bucket gets 0 for count metrics and NULL for the others. The plain groups are kept as they are.
 */
export function filledSql(plan: TabularShape, t: TabularSql, countMetrics: readonly string[]): TabularSql {
  const d = plan.dimensions.indexOf(timeDimension);
  const others = plan.dimensions.map((_, i) => i).filter((i) => i !== d);
  const ofBucket = t.ofBucket ?? {};
  // A key the bucket decides is not crossed with the buckets: an hour bucket has one hour of day.
  const free = others.filter((i) => !ofBucket[i]);
  const seen =
    free.length > 0
      ? join(
          free.map((i) => keyColumn(i)),
          ', ',
        )
      : sql`1 AS seen`;
  const metrics = plan.metrics.map((m, j) =>
    countMetrics.includes(m)
      ? sql`coalesce(g.${metricColumn(j)}, 0) AS ${metricColumn(j)}`
      : sql`g.${metricColumn(j)} AS ${metricColumn(j)}`,
  );
  const matches = [
    sql`g.${keyColumn(d)} = b.k`,
    ...free.map((i) => sql`g.${keyColumn(i)} IS NOT DISTINCT FROM s.${keyColumn(i)}`),
  ];
  const keyOf = (i: number) =>
    ofBucket[i] ? sql`${ofBucket[i](sql`b.k`)} AS ${keyColumn(i)}` : sql`s.${keyColumn(i)} AS ${keyColumn(i)}`;
  return {
    ...t,
    ctes: sql`${t.ctes},
grouped_plain AS (${t.grouped}),
fill_seen AS (SELECT DISTINCT ${seen} FROM grouped_plain),
fill_buckets AS (${windowBuckets(plan.bucket!, plan.window!)} UNION SELECT ${keyColumn(d)} FROM grouped_plain)`,
    grouped: sql`SELECT ${join([...others.map(keyOf), sql`b.k AS ${keyColumn(d)}`, ...metrics], ', ')}
  FROM fill_seen s CROSS JOIN fill_buckets b
  LEFT JOIN grouped_plain g ON ${join(matches, ' AND ')}`,
  };
}

/** The columns compare adds after the requested metrics, for each metric in order. */
export const compareSuffixes = ['_previous', '_change', '_change_pct'] as const;

/** The compared window of a plan, or a 422 at `["query", "compare"]`. */
export function compareWindowOf(plan: TabularShape, spec: CompareSpec): MsWindow {
  if (!plan.window || !plan.bucket)
    throw ValidationError.of(['query', 'compare'], 'compare needs a report with a date window', null);
  return comparedWindow(
    spec,
    { startMs: Date.parse(plan.window.start), endMs: Date.parse(plan.window.end) },
    plan.bucket.zone,
    maxWindowDays,
  );
}

/** The plan as compare answers it: the metrics with their compared columns, and `info.query` naming them and the window. */
export function comparedShape<Plan extends TabularShape>(plan: Plan, window: MsWindow): Plan {
  const metrics = [...plan.metrics, ...plan.metrics.flatMap((m) => compareSuffixes.map((s) => `${m}${s}`))];
  const zone = plan.bucket!.zone;
  return {
    ...plan,
    metrics,
    query: {
      ...plan.query,
      metrics,
      compare: { start_date: formatInstant(window.startMs, zone), end_date: formatInstant(window.endMs, zone) },
    },
  };
}

// TRICKY: a window's buckets are numbered in time order, so bucket i of the window meets bucket i of the
// compared window whatever their dates; the row shows the window's bucket.
const numberedBuckets = (plan: TabularShape) =>
  sql`SELECT k, row_number() OVER (ORDER BY k) AS o FROM (${windowBuckets(plan.bucket!, plan.window!)})`;

/**
 * The window's groups beside the compared window's, matched on the group keys (the date by its place
 * among the window's buckets). A group in one window only has NULLs for the other; a compared bucket
 * beyond the window's last is left out. For each metric: the previous value, the change, and the
 * change relative to the previous value (NULL when that is 0 or NULL, or for `instants`).
 */
export function comparedGroups(
  plan: TabularShape,
  cur: TabularSql,
  prevPlan: TabularShape,
  prev: TabularSql,
  instants: readonly string[],
): Fragment {
  const n = plan.metrics.length;
  const d = plan.dimensions.indexOf(timeDimension);
  const others = plan.dimensions.map((_, i) => i).filter((i) => i !== d);
  const derived = plan.metrics.flatMap((m, j) => {
    const [c, p] = [sql`c.${metricColumn(j)}`, sql`p.${metricColumn(j)}`];
    const pct = instants.includes(m) ? nullDouble : sql`(${c} - ${p}) / NULLIF(${p}, 0)`;
    return [
      sql`${p} AS ${metricColumn(n + 3 * j)}`,
      sql`${c} - ${p} AS ${metricColumn(n + 3 * j + 1)}`,
      sql`${pct} AS ${metricColumn(n + 3 * j + 2)}`,
    ];
  });
  const ofBucket = d < 0 ? {} : (cur.ofBucket ?? {});
  // A key the bucket decides follows the bucket the row shows, as buckets meet by their place.
  const keys = others.map((i) =>
    ofBucket[i]
      ? sql`${ofBucket[i](sql`coalesce(c.${keyColumn(d)}, cb.k)`)} AS ${keyColumn(i)}`
      : sql`coalesce(c.${keyColumn(i)}, p.${keyColumn(i)}) AS ${keyColumn(i)}`,
  );
  const matches = others
    .filter((i) => !ofBucket[i])
    .map((i) => sql`c.${keyColumn(i)} IS NOT DISTINCT FROM p.${keyColumn(i)}`);
  const current = plan.metrics.map((_, j) => sql`c.${metricColumn(j)} AS ${metricColumn(j)}`);
  const windows = sql`cmp_cur AS (WITH ${cur.ctes}
${cur.grouped}),
cmp_prev AS (WITH ${prev.ctes}
${prev.grouped})`;
  if (d < 0) {
    return sql`${windows},
grouped AS (
  SELECT ${join([...keys, ...current, ...derived], ', ')}
  FROM cmp_cur c FULL JOIN cmp_prev p ON ${matches.length > 0 ? join(matches, ' AND ') : sql`TRUE`}
)`;
  }
  return sql`${windows},
cmp_cur_b AS (${numberedBuckets(plan)}),
cmp_prev_b AS (${numberedBuckets(prevPlan)}),
cmp_c AS (SELECT g.*, b.o AS cmp_o FROM cmp_cur g JOIN cmp_cur_b b ON g.${keyColumn(d)} = b.k),
cmp_p AS (SELECT g.*, b.o AS cmp_o FROM cmp_prev g JOIN cmp_prev_b b ON g.${keyColumn(d)} = b.k),
grouped AS (
  SELECT ${join([...keys, sql`coalesce(c.${keyColumn(d)}, cb.k) AS ${keyColumn(d)}`, ...current, ...derived], ', ')}
  FROM cmp_c c FULL JOIN cmp_p p ON ${join([sql`c.cmp_o = p.cmp_o`, ...matches], ' AND ')}
  LEFT JOIN cmp_cur_b cb ON cb.o = p.cmp_o
  WHERE c.cmp_o IS NOT NULL OR cb.k IS NOT NULL
)`;
}

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
