import { ValidationError } from '../../errors.ts';
import { formatInstant, windowBuckets } from '../../query/instants.ts';
import { nullDouble } from '../../query/dialect.ts';
import { join, sql, type Fragment } from '../../query/sql.ts';
import { comparedWindow, type CompareSpec, type MsWindow } from '../extensions/compare-window.ts';
import { maxWindowDays } from '../insights/common.ts';
import type { RollupChoice } from '../endpoint.ts';
import type { Extensions } from '../extensions/options.ts';
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

/**
 * Checks the extensions a request asks for against its plan (a 422 at the query parameter), then
 * returns how to compile it once authorized: `rollupsOf` says which rollups a plan may read.
 */
export function extendedCompile<Plan extends TabularShape>(
  report: ExtensibleReport<Plan>,
  plan: Plan,
  extensions: Extensions,
): (rollupsOf: (p: Plan) => RollupChoice) => { plan: Plan; compiled: ShapedReport; rollups: RollupChoice } {
  const { fill, compare, components } = extensions;
  if (fill) checkFill(plan);
  if (components) checkComponents(report, plan);
  const compared = compare && report.within ? compareWindowOf(plan, compare) : null;
  const parts = components ? componentNames(plan.metrics, report.ratioMetrics ?? []) : [];
  // The parts are metrics of the answer: counts that fill makes 0, compared like any other.
  const shapedOf = (p: Plan): Plan => {
    if (!components) return p;
    const metrics = [...p.metrics, ...parts];
    return { ...p, components: true, metrics, query: { ...p.query, metrics } };
  };
  const sqlOf = (p: Plan, chosen: readonly string[]): TabularSql => {
    const t = report.compile(components ? { ...p, components: true } : p, new Set(chosen));
    return fill ? filledSql(shapedOf(p), t, [...report.countMetrics, ...parts]) : t;
  };
  const integers = new Set([...report.countMetrics, ...(report.instantMetrics ?? []), ...parts]);
  return (rollupsOf) => {
    const rollups = rollupsOf(plan);
    const shaped = shapedOf(plan);
    const t = { ...sqlOf(plan, rollups.chosen), metricTypes: metricTypes(shaped.metrics, integers) };
    if (compared && report.within) {
      const prevPlan = report.within(plan, compared);
      const prevRollups = rollupsOf(prevPlan);
      const answered = comparedShape(shaped, compared);
      const groups = comparedGroups(
        shaped,
        t,
        shapedOf(prevPlan),
        sqlOf(prevPlan, prevRollups.chosen),
        report.instantMetrics ?? [],
      );
      const both = {
        candidates: [...new Set([...rollups.candidates, ...prevRollups.candidates])],
        chosen: [...new Set([...rollups.chosen, ...prevRollups.chosen])],
      };
      return { plan: answered, compiled: tabularCompiled(answered, t, groups), rollups: both };
    }
    return { plan: shaped, compiled: tabularCompiled(shaped, t), rollups };
  };
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
function checkComponents<Plan extends TabularShape>(report: ExtensibleReport<Plan>, plan: Plan): void {
  const partial = plan.dimensions.filter((d) => report.partialDimensions?.includes(d));
  if (partial.length > 0) {
    throw ValidationError.of(
      ['query', 'components'],
      `components does not apply with the ${partial.join(', ')} dimension: a row exists only where it has facts while its denominator counts the whole group, so sums over rows would not re-aggregate exactly`,
      true,
    );
  }
}
