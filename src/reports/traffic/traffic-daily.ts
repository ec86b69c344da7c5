import { rollupTable, type RollupDef } from '../../engine/rollups.ts';
import { etZone, localDate, type InstantWindow } from '../../query/instants.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';

const etDay = `CAST(timezone('${etZone}', ts) AS DATE)`;

/**
 * Traffic's daily rollup: per organization, domain, America/New_York day and every column the v1
 * daily views group or filter by, the visits and the latest one. A daily view's row is a visit's ET
 * day, so summing a day's visits and taking its latest instant here gives the view's sums and maxima,
 * without converting every hour's instant to a day per request. Facts never change, so it never goes
 * stale.
 */
export const trafficDaily: RollupDef = {
  name: 'traffic_daily',
  scope: { kind: 'organization' },
  tables: {
    bot_events: `SELECT organization_id, domain, ${etDay} AS day, host, path, bot_name, bot_provider, bot_type, count(*) AS visits, max(ts) AS last_at
FROM bot_events WHERE organization_id = $scope
GROUP BY ALL ORDER BY domain, day`,
    referral_visits: `SELECT organization_id, domain, ${etDay} AS day, host, path, referral_source, referral_type, count(*) AS visits, max(ts) AS last_at
FROM referral_visits WHERE organization_id = $scope
GROUP BY ALL ORDER BY domain, day`,
  },
};

/** Every daily view but the raw request log's reads it: its windows are whole ET days by construction. */
export const servedByTrafficDaily = (def: { readonly table: string; readonly view: string }): boolean =>
  def.view === 'daily' && def.table !== 'request_log';

/**
 * The daily view's rows from the rollup: the ET days of `window` (whole days), the organization's
 * domain and the request's filter and segment over `f`.
 */
export function rolledDailyView(
  table: string,
  columns: Fragment,
  window: InstantWindow,
  where: { organizationId: string; domain: string; filter: Fragment; segment: Fragment },
): Fragment {
  const day = (iso: string) => localDate(Date.parse(iso), etZone);
  return sql`SELECT f.day, ${columns}, f.visits, f.last_at
  FROM ${ident(rollupTable(trafficDaily, table))} f
  WHERE f.organization_id = ${where.organizationId} AND f.domain = ${where.domain} AND f.day >= CAST(${day(window.start)} AS DATE) AND f.day < CAST(${day(window.end)} AS DATE) AND ${where.filter}${where.segment}`;
}
