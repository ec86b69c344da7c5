import { daySeries } from '../../../query/dialect.ts';
import { ident, join, sql, type Fragment, seenKeys } from '../../../query/sql.ts';
import { dayBucket } from '../../../query/time.ts';
import { keyColumn, keyColumnAs } from '../../insights/dimensions.ts';
import type { VisibilityPlan } from './visibility-plan.ts';

/**
 * The groups `g` (keys and answers) of a request with fill: every date bucket of the window for every
 * combination of the other keys seen, with 0 answers where there were none.
 */
export function filledGroups(
  plan: VisibilityPlan,
  keyList: Fragment,
  keys: readonly Fragment[],
  name = 'groups',
): Fragment {
  const others = plan.groupBy.filter((d) => d !== 'date');
  const seen = seenKeys(others.map((d) => keyColumn(d)));
  const days = daySeries(sql`${plan.startDate}`, sql`${plan.endDate}`);
  return sql`g_plain AS (
  SELECT ${keyList}sum(n) AS executions FROM answers_by_key GROUP BY ${join(keys, ', ')}
),
${ident(name)} AS (
  SELECT ${join([...others.map((d) => keyColumnAs(d, 's')), sql`b.k AS ${keyColumn('date')}`], ', ')}, coalesce(gp.executions, 0) AS executions
  FROM (SELECT DISTINCT ${seen} FROM g_plain) s
  CROSS JOIN (SELECT DISTINCT ${dayBucket(plan.interval, sql`d`)} AS k FROM (${days}) UNION SELECT ${keyColumn('date')} FROM g_plain) b
  LEFT JOIN g_plain gp ON ${join([sql`gp.${keyColumn('date')} = b.k`, ...others.map((d) => sql`gp.${keyColumn(d)} IS NOT DISTINCT FROM s.${keyColumn(d)}`)], ' AND ')}
)`;
}
