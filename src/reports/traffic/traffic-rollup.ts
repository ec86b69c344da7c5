import type { RollupDef } from '../../engine/rollups.ts';
import type { BucketSpec, InstantWindow } from '../../query/instants.ts';

const hourMs = 3_600_000;

/**
 * Traffic's hourly rollup: per organization, domain, UTC hour and every column the traffic reports
 * group or filter by, the visits and the latest one. The hour keeps the facts' name `ts`, so windows,
 * buckets and filters compile over it unchanged. Facts never change, so it never goes stale.
 */
export const trafficHourly: RollupDef = {
  name: 'traffic_hourly',
  scope: { kind: 'organization' },
  tables: {
    bot_events: `SELECT organization_id, domain, date_trunc('hour', ts) AS ts, host, path, bot_name, bot_provider, bot_type, count(*) AS visits, max(ts) AS last_at
FROM bot_events WHERE organization_id = $scope
GROUP BY ALL ORDER BY domain, ts`,
    referral_visits: `SELECT organization_id, domain, date_trunc('hour', ts) AS ts, host, path, referral_source, referral_type, count(*) AS visits, max(ts) AS last_at
FROM referral_visits WHERE organization_id = $scope
GROUP BY ALL ORDER BY domain, ts`,
  },
};

const onHour = (iso: string) => Date.parse(iso) % hourMs === 0;

/**
 * The rollup answers a request exactly when its window starts and ends on UTC hours, it needs no time
 * finer than an hour (no minute `timestamp`), and, when it groups by time, every local hour and day
 * of its zone is made of whole UTC hours (see `wholeHourOffsets`).
 */
export function servedByTrafficHourly(
  def: { readonly table: string; readonly view: string; readonly columnOf?: Readonly<Record<string, string>> },
  plan: { readonly window: InstantWindow; readonly dimensions: readonly string[]; readonly bucket: BucketSpec },
): boolean {
  if (def.table === 'request_log') return false;
  if (!onHour(plan.window.start) || !onHour(plan.window.end)) return false;
  if (plan.dimensions.some((d) => (def.columnOf?.[d] ?? d) === 'ts')) return false;
  const timed = plan.dimensions.includes('date') || plan.dimensions.includes('hour') || def.view === 'daily';
  return !timed || plan.bucket.wholeHours === true;
}
