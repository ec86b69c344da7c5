import { daySeries, materialized } from '../../../query/dialect.ts';
import { ident, join, sql, type Fragment } from '../../../query/sql.ts';
import { dayBucket } from '../../../query/time.ts';
import { filledGroups } from '../../extensions/filled-groups.ts';
import { keyName } from '../../insights/dimensions.ts';
import type { VisibilityPlan } from './visibility-plan.ts';

/**
 * The groups (keys and answers) of a request with fill, as the CTE `name`: every date bucket of the
 * window for every combination of the other keys seen, with 0 answers where there were none.
 */
export function filledWindowGroups(
  plan: VisibilityPlan,
  keyList: Fragment,
  keys: readonly Fragment[],
  name = 'groups',
): Fragment {
  const days = daySeries(sql`${plan.startDate}`, sql`${plan.endDate}`);
  return sql`g_plain ${materialized} (
  SELECT ${keyList}sum(n) AS executions FROM answers_by_key GROUP BY ${join(keys, ', ')}
),
${ident(name)} AS (
  ${filledGroups({
    plain: 'g_plain',
    time: keyName('date'),
    others: plan.groupBy.filter((d) => d !== 'date').map((d) => ({ column: keyName(d) })),
    buckets: sql`SELECT DISTINCT ${dayBucket(plan.interval, sql`d`)} AS k FROM (${days})`,
    values: [{ column: 'executions', count: true }],
  })}
)`;
}
