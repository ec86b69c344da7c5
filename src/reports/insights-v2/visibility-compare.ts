import { ValidationError } from '../../errors.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import { dayBucket, daysInclusive, type CalendarInterval } from '../../query/time.ts';
import type { CompareSpec } from '../extensions/compare-window.ts';
import { maxWindowDays } from './common.ts';
import { keyColumn, keysEqual } from './dimensions.ts';
import type { VisibilityPlan } from './visibility-plan.ts';

const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayOf = (text: string) => Date.parse(`${text}T00:00:00Z`);

/** One year earlier on the calendar (29 February reads as 1 March). */
function yearEarlier(day: string): string {
  const d = new Date(dayOf(day));
  return isoDay(Date.UTC(d.getUTCFullYear() - 1, d.getUTCMonth(), d.getUTCDate()));
}

/**
 * The compared window of a v2 request, as inclusive ET dates like its own: as many days just before
 * it, the same dates a year earlier, or `START..END` given as dates. A bad one is a 422 at `["query", "compare"]`.
 */
export function comparedDates(plan: VisibilityPlan, spec: CompareSpec): { startDate: string; endDate: string } {
  if (spec === 'previous_period') {
    const days = daysInclusive(plan.startDate, plan.endDate);
    return { startDate: isoDay(dayOf(plan.startDate) - days * dayMs), endDate: isoDay(dayOf(plan.startDate) - dayMs) };
  }
  if (spec === 'previous_year') return { startDate: yearEarlier(plan.startDate), endDate: yearEarlier(plan.endDate) };
  const text = `${spec.start}..${spec.end}`;
  const date = /^\d{4}-\d{2}-\d{2}$/;
  if (!date.test(spec.start) || !date.test(spec.end) || isoDay(dayOf(spec.start)) !== spec.start || isoDay(dayOf(spec.end)) !== spec.end) {
    throw ValidationError.of(['query', 'compare'], 'compare START..END takes two dates (YYYY-MM-DD, both inclusive) on the v2 reports', text);
  }
  if (spec.end < spec.start) throw ValidationError.of(['query', 'compare'], 'the compared window must end on or after its start', text);
  if (daysInclusive(spec.start, spec.end) > maxWindowDays) throw ValidationError.of(['query', 'compare'], `the compared window is longer than ${maxWindowDays} days`, text);
  return { startDate: spec.start, endDate: spec.end };
}

/** A window's date buckets numbered in time order: `k` the bucket, `o` its place. */
const numberedBuckets = (interval: CalendarInterval, start: string, end: string) =>
  sql`SELECT k, row_number() OVER (ORDER BY k) AS o FROM (SELECT DISTINCT ${dayBucket(interval, sql`d`)} AS k FROM (SELECT unnest(generate_series(CAST(${start} AS DATE), CAST(${end} AS DATE), INTERVAL 1 DAY))::DATE AS d))`;

/**
 * `cmp_prev`: for each group of the compared window and each brand of the category, the metrics as the
 * report computes them there, keyed like the window's groups: a date moves to the window's bucket of
 * the same place (bucket i meets bucket i), and a compared bucket past the window's last is left out.
 * `prevSources` are the report's sources (`e`, `m`) over the compared window.
 */
export function comparedMetrics(plan: VisibilityPlan, compared: { startDate: string; endDate: string }, prevSources: Fragment, metricSql: Readonly<Record<string, Fragment>>): Fragment {
  const dims = plan.groupBy;
  const keys = dims.map((d) => keyColumn(d));
  const keyList = keys.length > 0 ? sql`${join(keys, ', ')}, ` : sql``;
  const byDate = dims.includes('date');
  const mapped = dims.map((d) => (d === 'date' ? sql`cb.k AS ${keyColumn('date')}` : sql`${keyColumn(d, 'pg')}`));
  return sql`cmp_prev AS (
  WITH ${prevSources},
  pg AS (SELECT ${keyList}sum(n) AS executions FROM e ${keys.length > 0 ? sql`GROUP BY ${join(keys, ', ')}` : sql`HAVING sum(n) > 0`}),
  pt AS (SELECT ${keyList}sum(mentions) AS total_mentions FROM m ${keys.length > 0 ? sql`GROUP BY ${join(keys, ', ')}` : sql``}),
  pb AS (${numberedBuckets(plan.interval, compared.startDate, compared.endDate)}),
  cb AS (${numberedBuckets(plan.interval, plan.startDate, plan.endDate)}),
  cmp_scored AS (
    SELECT ${mapped.length > 0 ? sql`${join(mapped, ', ')}, ` : sql``}a.id AS asset_id, pg.executions, coalesce(pm.mentions, 0) AS mentions, pm.position_sum, coalesce(pt.total_mentions, 0) AS total_mentions
    FROM pg${byDate ? sql` JOIN pb ON pb.k = ${keyColumn('date', 'pg')} JOIN cb ON cb.o = pb.o` : sql``}
    CROSS JOIN (SELECT id FROM assets WHERE category_id = ${plan.categoryId}) a
    LEFT JOIN m pm ON pm.asset_id = a.id AND ${keysEqual(dims, 'pm', 'pg')}
    LEFT JOIN pt ON ${keysEqual(dims, 'pt', 'pg')}
  )
  SELECT ${keyList}asset_id, ${join(Object.entries(metricSql).map(([name, expr]) => sql`${expr} AS ${ident(`prev_${name}`)}`), ', ')} FROM cmp_scored
)`;
}

/** The window's groups together with the compared window's (moved onto the window's dates): 0 answers where the window has none. */
export function comparedGroups(plan: VisibilityPlan, keysSelectPlain: Fragment): Fragment {
  const dims = plan.groupBy;
  const keys = dims.map((d) => keyColumn(d));
  if (keys.length === 0) {
    return sql`g_plain AS (SELECT sum(n) AS executions FROM e HAVING sum(n) > 0),
g AS (SELECT coalesce((SELECT executions FROM g_plain), 0) AS executions WHERE EXISTS (SELECT 1 FROM g_plain) OR EXISTS (SELECT 1 FROM cmp_prev))`;
  }
  return sql`g_plain AS (SELECT ${keysSelectPlain}sum(n) AS executions FROM e GROUP BY ${join(keys, ', ')}),
g AS (
  SELECT ${join(dims.map((d) => keyColumn(d, 'u')), ', ')}, coalesce(gp.executions, 0) AS executions
  FROM (SELECT ${join(keys, ', ')} FROM g_plain UNION SELECT DISTINCT ${join(keys, ', ')} FROM cmp_prev) u
  LEFT JOIN g_plain gp ON ${keysEqual(dims, 'gp', 'u')}
)`;
}
