import { ident, join, sql, type Fragment, seenKeys } from '../../../query/sql.ts';
import { bucketsMet } from '../../extensions/compare-rule.ts';
import { dateBuckets } from '../../extensions/compared-dates.ts';
import { keyColumn, keyColumnAs, keysEqual } from '../../insights/dimensions.ts';
import type { VisibilityPlan } from './visibility-plan.ts';

/**
 * `cmp_prev`: for each group of the compared window and each brand of the category, the metrics as the
 * report computes them there, keyed like the window's groups: a date moves to the window's bucket of
 * the same place (bucket i meets bucket i), and a compared bucket past the window's last is left out.
 * `prevSources` are the report's sources (`e`, `m`) over the compared window.
 */
export function comparedMetrics(
  plan: VisibilityPlan,
  compared: { startDate: string; endDate: string },
  prevSources: Fragment,
  metricSql: Readonly<Record<string, Fragment>>,
): Fragment {
  const dims = plan.groupBy;
  const keys = dims.map((d) => keyColumn(d));
  const keyList = keys.length > 0 ? sql`${join(keys, ', ')}, ` : sql``;
  const byDate = dims.includes('date');
  const mapped = dims.map((d) => (d === 'date' ? sql`bm.now_k AS ${keyColumn('date')}` : keyColumnAs(d, 'pg')));
  return sql`cmp_prev AS (
  WITH ${prevSources},
  prev_groups AS (SELECT ${keyList}sum(n) AS executions FROM answers_by_key ${keys.length > 0 ? sql`GROUP BY ${join(keys, ', ')}` : sql`HAVING sum(n) > 0`}),
  prev_group_mentions AS (SELECT ${keyList}sum(mentions) AS total_mentions FROM mentions_by_key ${keys.length > 0 ? sql`GROUP BY ${join(keys, ', ')}` : sql``}),
  buckets_met AS (${bucketsMet(
    dateBuckets(plan.interval, plan.startDate, plan.endDate),
    dateBuckets(plan.interval, compared.startDate, compared.endDate),
  )}),
  cmp_scored AS (
    SELECT ${mapped.length > 0 ? sql`${join(mapped, ', ')}, ` : sql``}a.id AS asset_id, pg.executions, coalesce(pm.mentions, 0) AS mentions, pm.position_sum, coalesce(pt.total_mentions, 0) AS total_mentions
    FROM prev_groups pg${byDate ? sql` JOIN buckets_met bm ON bm.then_k = ${keyColumn('date', 'pg')}` : sql``}
    CROSS JOIN (SELECT id FROM assets WHERE category_id = ${plan.categoryId}) a
    LEFT JOIN mentions_by_key pm ON pm.asset_id = a.id AND ${keysEqual(dims, 'pm', 'pg')}
    LEFT JOIN prev_group_mentions pt ON ${keysEqual(dims, 'pt', 'pg')}
  )
  SELECT ${keyList}asset_id, ${join(
    Object.entries(metricSql).map(([name, expr]) => sql`${expr} AS ${ident(`prev_${name}`)}`),
    ', ',
  )} FROM cmp_scored
)`;
}

/**
 * The window's groups together with the compared window's (moved onto the window's dates): 0 answers where
 * the window has none, and `windowed` false on a group of the compared window only (its parts are NULL).
 * With fill, `windowGroups` defines `g_window`, the window's filled groups, and the compared window is
 * filled alike before the two meet: every key it saw, in every bucket that has a place in the window.
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
  if (windowGroups) {
    const others = dims.filter((d) => d !== 'date');
    const ordered = [...others, 'date' as const];
    const seen = seenKeys(others.map((d) => keyColumn(d)));
    return sql`${windowGroups},
cmp_fill_buckets AS (
  SELECT now_k AS k FROM (${bucketsMet(
    dateBuckets(plan.interval, plan.startDate, plan.endDate),
    dateBuckets(plan.interval, plan.compare!.startDate, plan.compare!.endDate),
  )})
),
groups AS (
  SELECT ${join(
    ordered.map((d) => keyColumnAs(d, 'u')),
    ', ',
  )}, coalesce(gw.executions, 0) AS executions, gw.executions IS NOT NULL AS windowed
  FROM (
    SELECT ${join(
      ordered.map((d) => keyColumn(d)),
      ', ',
    )} FROM g_window
    UNION
    SELECT ${join([...others.map((d) => keyColumnAs(d, 's')), sql`b.k AS ${keyColumn('date')}`], ', ')}
    FROM (SELECT DISTINCT ${seen} FROM cmp_prev) s CROSS JOIN cmp_fill_buckets b
  ) u
  LEFT JOIN g_window gw ON ${keysEqual(dims, 'gw', 'u')}
)`;
  }
  return sql`g_plain AS (SELECT ${keysSelectPlain}sum(n) AS executions FROM answers_by_key GROUP BY ${join(keys, ', ')}),
groups AS (
  SELECT ${join(
    dims.map((d) => keyColumnAs(d, 'u')),
    ', ',
  )}, coalesce(gp.executions, 0) AS executions, gp.executions IS NOT NULL AS windowed
  FROM (SELECT ${join(keys, ', ')} FROM g_plain UNION SELECT DISTINCT ${join(keys, ', ')} FROM cmp_prev) u
  LEFT JOIN g_plain gp ON ${keysEqual(dims, 'gp', 'u')}
)`;
}
