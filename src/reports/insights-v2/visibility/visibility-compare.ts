import { ident, join, sql, type Fragment, seenKeys } from '../../../query/sql.ts';
import { bucketsMet, metKey, movedOntoWindow, windowsMet } from '../../extensions/compare-rule.ts';
import { dateBuckets } from '../../extensions/compared-dates.ts';
import { keyColumn, keyColumnAs, keyName, keysEqual, keysLeading } from '../../insights/dimensions.ts';
import type { VisibilityPlan } from './visibility-plan.ts';

const windowBucketsMet = (plan: VisibilityPlan): Fragment =>
  bucketsMet(
    dateBuckets(plan.interval, plan.startDate, plan.endDate),
    dateBuckets(plan.interval, plan.compare!.startDate, plan.compare!.endDate),
  );

/**
 * `cmp_prev`: for each group of the compared window and each brand of the category, the metrics as the
 * report computes them there, moved onto the window's buckets (`movedOntoWindow`). `prevSources` are the
 * report's sources (`answers_by_key`, `mentions_by_key`) over the compared window.
 */
export function comparedMetrics(
  plan: VisibilityPlan,
  prevSources: Fragment,
  metricSql: Readonly<Record<string, Fragment>>,
): Fragment {
  const dims = plan.groupBy;
  const keys = dims.map((d) => keyColumn(d));
  const keyList = keys.length > 0 ? sql`${join(keys, ', ')}, ` : sql``;
  const prevMetrics = Object.keys(metricSql).map((name) => `prev_${name}`);
  const scored = sql`SELECT ${keyList}asset_id, ${join(
    Object.entries(metricSql).map(([name, expr]) => sql`${expr} AS ${ident(`prev_${name}`)}`),
    ', ',
  )} FROM cmp_scored`;
  return sql`cmp_prev AS (
  WITH ${prevSources},
  prev_groups AS (SELECT ${keyList}sum(n) AS executions FROM answers_by_key ${keys.length > 0 ? sql`GROUP BY ${join(keys, ', ')}` : sql`HAVING sum(n) > 0`}),
  prev_group_mentions AS (SELECT ${keyList}sum(mentions) AS total_mentions FROM mentions_by_key ${keys.length > 0 ? sql`GROUP BY ${join(keys, ', ')}` : sql``}),
  cmp_scored AS (
    SELECT ${keysLeading(dims, 'pg')}a.id AS asset_id, pg.executions, coalesce(pm.mentions, 0) AS mentions, pm.position_sum, coalesce(pt.total_mentions, 0) AS total_mentions
    FROM prev_groups pg
    CROSS JOIN (SELECT id FROM assets WHERE category_id = ${plan.categoryId}) a
    LEFT JOIN mentions_by_key pm ON pm.asset_id = a.id AND ${keysEqual(dims, 'pm', 'pg')}
    LEFT JOIN prev_group_mentions pt ON ${keysEqual(dims, 'pt', 'pg')}
  )${
    dims.includes('date')
      ? sql`,
  buckets_met AS (${windowBucketsMet(plan)}),
  cmp_unmoved AS (${scored})
  ${movedOntoWindow(sql`cmp_unmoved`, [...dims.map((d) => keyName(d)), 'asset_id', ...prevMetrics], keyName('date'), sql`buckets_met`)}`
      : sql`
  ${scored}`
  }
)`;
}

/**
 * The window's groups together with the compared window's (`windowsMet`): 0 answers where the window has
 * none, and `windowed` false on a group of the compared window only (its parts are NULL). With fill,
 * `windowGroups` defines `g_window`, the window's filled groups, and the compared window is filled alike
 * before the two meet: every key it saw, in every bucket that has a place in the window.
 */
export function comparedGroups(
  plan: VisibilityPlan,
  keysSelectPlain: Fragment,
  windowGroups: Fragment | null,
): Fragment {
  const dims = plan.groupBy;
  const keys = dims.map((d) => keyColumn(d));
  if (keys.length === 0) {
    return sql`g_plain AS (SELECT sum(n) AS executions FROM answers_by_key HAVING sum(n) > 0),
groups AS (SELECT coalesce((SELECT executions FROM g_plain), 0) AS executions, EXISTS (SELECT 1 FROM g_plain) AS windowed WHERE EXISTS (SELECT 1 FROM g_plain) OR EXISTS (SELECT 1 FROM cmp_prev))`;
  }
  const met = (now: string, compared: Fragment) =>
    sql`groups AS (
  SELECT ${join(
    dims.map((d) => sql`${metKey(keyName(d))} AS ${keyColumn(d)}`),
    ', ',
  )}, coalesce(n.executions, 0) AS executions, n.executions IS NOT NULL AS windowed
  FROM ${windowsMet(
    ident(now),
    sql`(${compared})`,
    dims.map((d) => keyName(d)),
  )}
)`;
  if (windowGroups) {
    const others = dims.filter((d) => d !== 'date');
    const seen = seenKeys(others.map((d) => keyColumn(d)));
    return sql`${windowGroups},
cmp_fill_buckets AS (SELECT now_k AS k FROM (${windowBucketsMet(plan)})),
${met(
  'g_window',
  sql`SELECT ${join([...others.map((d) => keyColumnAs(d, 's')), sql`b.k AS ${keyColumn('date')}`], ', ')}
    FROM (SELECT DISTINCT ${seen} FROM cmp_prev) s CROSS JOIN cmp_fill_buckets b`,
)}`;
  }
  return sql`g_plain AS (SELECT ${keysSelectPlain}sum(n) AS executions FROM answers_by_key GROUP BY ${join(keys, ', ')}),
${met('g_plain', sql`SELECT DISTINCT ${join(keys, ', ')} FROM cmp_prev`)}`;
}
