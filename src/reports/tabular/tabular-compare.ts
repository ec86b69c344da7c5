import { ValidationError } from '../../errors.ts';
import { formatInstant, windowBuckets } from '../../query/instants.ts';
import { join, sql, type Fragment } from '../../query/sql.ts';
import { bucketsMet, changeTerms } from '../extensions/compare-rule.ts';
import { semiJoin } from '../../query/dialect.ts';
import { comparedWindow, type CompareSpec, type MsWindow } from '../extensions/compare-window.ts';
import { maxWindowDays } from '../insights/common.ts';
import { timeDimension } from './tabular-fill.ts';
import { keyColumn, metricColumn, type TabularShape, type TabularSql } from './tabular-shape.ts';

/** The compare extension of the tabular family, in SQL over a report's groups (`grouped`: keys `k<i>`, metrics `m<j>`). */

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
    const t = changeTerms(
      sql`c.${metricColumn(j)}`,
      sql`p.${metricColumn(j)}`,
      instants.includes(m) ? 'seconds' : 'number',
    );
    return [
      sql`${t.previous} AS ${metricColumn(n + 3 * j)}`,
      sql`${t.change} AS ${metricColumn(n + 3 * j + 1)}`,
      sql`${t.changePct} AS ${metricColumn(n + 3 * j + 2)}`,
    ];
  });
  const ofBucket = d < 0 ? {} : (cur.ofBucket ?? {});
  // A key the bucket decides follows the bucket the row shows, as buckets meet by their place.
  const keys = others.map((i) =>
    ofBucket[i]
      ? sql`${ofBucket[i](sql`coalesce(c.${keyColumn(d)}, p.${keyColumn(d)})`)} AS ${keyColumn(i)}`
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
  const windowBucketsOf = (p: TabularShape) => windowBuckets(p.bucket!, p.window!);
  // The compared groups move onto the window's buckets; a compared bucket past the window's last is left out.
  const moved = [
    ...plan.dimensions.map((_, i) =>
      i === d ? sql`m.now_k AS ${keyColumn(i)}` : sql`g.${keyColumn(i)} AS ${keyColumn(i)}`,
    ),
    ...plan.metrics.map((_, j) => sql`g.${metricColumn(j)} AS ${metricColumn(j)}`),
  ];
  return sql`${windows},
cmp_cur_b AS (${windowBucketsOf(plan)}),
cmp_met AS (${bucketsMet(sql`SELECT k FROM cmp_cur_b`, windowBucketsOf(prevPlan))}),
cmp_c AS (SELECT g.* FROM cmp_cur g ${semiJoin} cmp_cur_b b ON g.${keyColumn(d)} = b.k),
cmp_p AS (SELECT ${join(moved, ', ')} FROM cmp_prev g JOIN cmp_met m ON m.then_k = g.${keyColumn(d)}),
grouped AS (
  SELECT ${join([...keys, sql`coalesce(c.${keyColumn(d)}, p.${keyColumn(d)}) AS ${keyColumn(d)}`, ...current, ...derived], ', ')}
  FROM cmp_c c FULL JOIN cmp_p p ON ${join([sql`c.${keyColumn(d)} = p.${keyColumn(d)}`, ...matches], ' AND ')}
)`;
}
