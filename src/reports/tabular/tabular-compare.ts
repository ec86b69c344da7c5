import { ValidationError } from '../../errors.ts';
import { formatInstant, windowBuckets } from '../../query/instants.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import { bucketsMet, changeTerms, metKey, movedOntoWindow, windowsMet } from '../extensions/compare-rule.ts';
import { semiJoin } from '../../query/dialect.ts';
import { comparedWindow, type CompareSpec, type MsWindow } from '../extensions/compare-window.ts';
import { maxWindowDays } from '../insights/common.ts';
import { timeDimension } from './tabular-fill.ts';
import { keyColumn, keyName, metricColumn, metricName, type TabularShape, type TabularSql } from './tabular-shape.ts';

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
  const derived = plan.metrics.flatMap((m, j) => {
    const t = changeTerms(
      sql`n.${metricColumn(j)}`,
      sql`t.${metricColumn(j)}`,
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
  const keys = plan.dimensions.map((_, i) => {
    const of = i === d ? undefined : ofBucket[i];
    return sql`${of ? of(metKey(keyName(d))) : metKey(keyName(i))} AS ${keyColumn(i)}`;
  });
  const matched = plan.dimensions.map((_, i) => i).filter((i) => !ofBucket[i]);
  const current = plan.metrics.map((_, j) => sql`n.${metricColumn(j)} AS ${metricColumn(j)}`);
  const columns = [...plan.dimensions.map((_, i) => keyName(i)), ...plan.metrics.map((_, j) => metricName(j))];
  const windows = sql`cmp_cur AS (WITH ${cur.ctes}
${cur.grouped}),
cmp_prev AS (WITH ${prev.ctes}
${prev.grouped})`;
  const joined = (now: string, then: string) => sql`grouped AS (
  SELECT ${join([...keys, ...current, ...derived], ', ')}
  FROM ${windowsMet(
    ident(now),
    ident(then),
    matched.map((i) => keyName(i)),
  )}
)`;
  if (d < 0)
    return sql`${windows},
${joined('cmp_cur', 'cmp_prev')}`;
  const windowBucketsOf = (p: TabularShape) => windowBuckets(p.bucket!, p.window!);
  return sql`${windows},
cmp_cur_b AS (${windowBucketsOf(plan)}),
cmp_met AS (${bucketsMet(sql`SELECT k FROM cmp_cur_b`, windowBucketsOf(prevPlan))}),
cmp_c AS (SELECT g.* FROM cmp_cur g ${semiJoin} cmp_cur_b b ON g.${keyColumn(d)} = b.k),
cmp_p AS (${movedOntoWindow(sql`cmp_prev`, columns, keyName(d), sql`cmp_met`)}),
${joined('cmp_c', 'cmp_p')}`;
}
