import { boundedMemo } from './bounded-memo.ts';
import {
  daysBetween,
  formatDay,
  hourSeries,
  instant,
  intDiv,
  wallClockText,
  zoneDay,
  zoneHour,
  zoneHourStart,
  zoneOffsetSeconds,
} from './dialect.ts';
import { sql, type Fragment } from './sql.ts';

/**
 * Instants, zones and time buckets of the tabular reports. Request dates are resolved to instants in
 * JavaScript (pure, with the clock passed in); buckets are SQL over TIMESTAMPTZ columns with the zone
 * bound as a parameter.
 */

export const dateIntervals = ['hour', 'day', 'week', 'month', 'quarter', 'year', 'relative_week'] as const;
export type DateInterval = (typeof dateIntervals)[number];

export const etZone = 'America/New_York';
export const utcZone = 'UTC';

const formatText = 'YYYY-MM-DD, YYYY-MM-DD HH:MM, YYYY-MM-DD HH:MM:SS or an ISO 8601 timestamp';
const pattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

interface DateTimeParts {
  readonly wall: number;
  /** Minutes east of UTC when the text carries an offset; null for a wall time in the report's zone. */
  readonly offsetMinutes: number | null;
}

const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

function parse(text: string): DateTimeParts | string {
  const m = pattern.exec(text);
  if (!m) return `expected ${formatText}`;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (mo < 1 || mo > 12) return 'month value is outside expected range of 1-12';
  if (d < 1 || d > daysInMonth(y, mo)) return 'day value is outside expected range';
  if (h > 23) return 'hour value is outside expected range of 0-23';
  if (mi > 59) return 'minute value is outside expected range of 0-59';
  if (s > 59) return 'second value is outside expected range of 0-59';
  const ms = Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3));
  let offsetMinutes: number | null = null;
  const zone = m[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return 'the UTC offset is outside expected range';
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  } else if (zone) offsetMinutes = 0;
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  if (y < 1900 || y > 2200) return 'year value is outside expected range of 1900-2200';
  return { wall, offsetMinutes };
}

/** Why a request date cannot be read, or null when it can. */
export function instantError(text: string): string | null {
  const p = parse(text);
  return typeof p === 'string' ? `${p}; use ${formatText}` : null;
}

export const isDateOnly = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text);
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock of an instant in a zone, as milliseconds of the same wall clock read as UTC. */
export function wallOf(zone: string, ms: number): number {
  const second = Math.floor(ms / 1000);
  return wallOfSecond({ zone, second }) + (ms - second * 1000);
}

// Offsets change only on whole seconds, so a second's wall clock holds for each of its milliseconds;
// requests ask for the same few instants again and again, and formatToParts costs about 10 µs.
const wallOfSecond = boundedMemo(
  16_384,
  (at: { zone: string; second: number }) => `${at.zone} ${at.second}`,
  ({ zone, second }) => {
    const parts: Record<string, number> = {};
    for (const p of formatter(zone).formatToParts(new Date(second * 1000)))
      if (p.type !== 'literal') parts[p.type] = Number(p.value);
    return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  },
);

/** The zone's offset from UTC at an instant, in milliseconds. */
export const offsetAt = (zone: string, ms: number): number => wallOf(zone, ms) - ms;

/**
 * The instant of a wall clock in a zone, disambiguated as Temporal's `compatible` does: a time that
 * occurs twice (the fall-back hour) is the earlier instant; a time that does not occur (the
 * spring-forward gap) moves forward by the length of the gap.
 */
export function wallToInstant(zone: string, wall: number): number {
  const before = offsetAt(zone, wall - 86_400_000);
  const after = offsetAt(zone, wall + 86_400_000);
  const valid = [...new Set([wall - before, wall - after])].filter((c) => wallOf(zone, c) === wall);
  return valid.length > 0 ? Math.min(...valid) : wall - before;
}

/** A request date as an instant: a wall time without an offset is read in `zone`. */
export function resolveInstant(text: string, zone: string): number {
  const p = parse(text);
  if (typeof p === 'string') throw new Error(`unchecked date ${JSON.stringify(text)}`);
  return p.offsetMinutes === null ? wallToInstant(zone, p.wall) : p.wall - p.offsetMinutes * 60_000;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYY-MM-DDTHH:MM:SS±HH:MM` (with `.mmm` when the instant has milliseconds), the wall clock in `zone`. */
export function formatInstant(ms: number, zone: string): string {
  const wall = wallOf(zone, ms);
  const offset = Math.round((wall - ms) / 60_000);
  const text = new Date(wall).toISOString();
  const clock = ms % 1000 === 0 ? text.slice(0, 19) : text.slice(0, 23);
  const sign = offset < 0 ? '-' : '+';
  return `${clock}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** The calendar day of an instant in a zone, `YYYY-MM-DD`. */
export const localDate = (ms: number, zone: string): string => new Date(wallOf(zone, ms)).toISOString().slice(0, 10);

/** The instant a calendar day starts in a zone. */
export const dayStart = (day: string, zone: string): number => wallToInstant(zone, Date.parse(`${day}T00:00:00Z`));

const supportedZones = new Set(Intl.supportedValuesOf('timeZone'));

/**
 * The zone name to bind in SQL, or null when it is not an IANA zone. Names are checked against the
 * runtime's IANA list, and links (`UTC`, `Asia/Kolkata`, any letter case) through Intl, which reads
 * the same ICU data as DuckDB's ICU extension. The name is kept as given, so it reads the same in
 * every ICU version. Fixed offsets are not zones.
 */
export function zoneName(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name) || name.length > 64) return null;
  if (supportedZones.has(name)) return name;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    return null;
  }
}

/** A half-open window `[start, end)` of instants, as UTC ISO strings for binding. */
export interface InstantWindow {
  readonly start: string;
  readonly end: string;
}

export const toIso = (ms: number) => new Date(ms).toISOString();

/** How the rows of a report are bucketed by date. `anchor` is the local day relative weeks count from. */
export interface BucketSpec {
  readonly interval: DateInterval;
  readonly zone: string;
  readonly anchor: string;
  /** The zone's offset is a whole number of hours throughout the window (see `wholeHourOffsets`). */
  readonly wholeHours?: boolean;
}

const hourMs = 3_600_000;

/**
 * True when the zone's offset is a whole number of hours at the window's ends and at every 1st and 15th
 * of a month between them (UTC midnight). Offsets change only at transitions, twice a year at most in
 * today's rules; a zone that uses a half-hour offset (Asia/Kolkata) or moves by half an hour
 * (Australia/Lord_Howe) shows it at one of these instants. Then a local hour is a UTC hour, and a
 * local day is made of whole UTC hours.
 */
export function wholeHourOffsets(zone: string, startMs: number, endMs: number): boolean {
  const whole = (ms: number) => offsetAt(zone, ms) % hourMs === 0;
  if (!whole(startMs) || !whole(endMs)) return false;
  const d = new Date(startMs);
  for (let y = d.getUTCFullYear(), m = d.getUTCMonth(); Date.UTC(y, m, 1) <= endMs; m === 11 ? ((m = 0), y++) : m++) {
    for (const day of [1, 15]) {
      const ms = Date.UTC(y, m, day);
      if (ms >= startMs && ms <= endMs && !whole(ms)) return false;
    }
  }
  return true;
}

/**
 * The bucket key of an instant column: a DATE for calendar buckets, the bucket's first instant
 * (TIMESTAMPTZ) for hours. `localDay` may give the instant's calendar day in the zone when a column
 * already holds it (the facts' ET `day`), which saves the per-row zone conversion.
 */
export function bucketKey(spec: BucketSpec, instant: Fragment, localDay?: Fragment): Fragment {
  // TRICKY: calendar buckets come from the wall clock in the zone, never from the UTC instant, so a
  // row late in a local day stays in that day (and week, month…) whatever the offset that day.
  const day = localDay ?? zoneDay(instant, sql`${spec.zone}`);
  switch (spec.interval) {
    case 'hour':
      // A whole-hour zone's local hours are UTC hours: one truncation per row, no zone arithmetic.
      if (spec.wholeHours) return sql`date_trunc('hour', ${instant})`;
      // TRICKY: the hour starts where the local wall clock reads :00, which is not a whole UTC hour in
      // half-hour zones (Asia/Kolkata). Subtracting the wall clock's minutes and seconds from the
      // instant keeps the two 01:00 hours of a fall-back night apart, where truncating the wall clock
      // and converting back would merge them.
      return zoneHourStart(instant, sql`${spec.zone}`);
    case 'day':
      return day;
    case 'week':
      return sql`CAST(date_trunc('week', ${day}) AS DATE)`;
    case 'month':
      return sql`CAST(date_trunc('month', ${day}) AS DATE)`;
    case 'quarter':
      return sql`CAST(date_trunc('quarter', ${day}) AS DATE)`;
    case 'year':
      return sql`CAST(date_trunc('year', ${day}) AS DATE)`;
    case 'relative_week':
      return sql`(CAST(${spec.anchor} AS DATE) + CAST(7 * ${intDiv(daysBetween(day, sql`CAST(${spec.anchor} AS DATE)`), sql`7`)} AS INTEGER))`;
  }
}

/**
 * Every bucket key of a window, one row each (column `k`), by the same expression as `bucketKey`.
 */
export function windowBuckets(spec: BucketSpec, window: InstantWindow): Fragment {
  const start = instant(sql`${window.start}`);
  const last = sql`(${instant(sql`${window.end}`)} - INTERVAL 1 MICROSECOND)`;
  // TRICKY: buckets last an hour or more, so each one the window touches holds one of these instants:
  // the start, each hour after it, or the window's last microsecond (a last bucket shorter than an hour).
  return sql`SELECT DISTINCT ${bucketKey(spec, sql`s.ts`)} AS k
FROM (${hourSeries(start, last)} UNION ALL SELECT ${last}) s
WHERE s.ts >= ${start}`;
}

/** What a bucket's label is: a calendar day, or for hour buckets the instant the hour starts (its label shows the offset). */
export const bucketType = (spec: BucketSpec): 'date' | 'instant' => (spec.interval === 'hour' ? 'instant' : 'date');

/** What a row shows for a bucket key: `YYYY-MM-DD`, or for hours the local start with its offset. */
export function bucketLabel(spec: BucketSpec, key: Fragment): Fragment {
  if (spec.interval !== 'hour') return formatDay(key);
  // TRICKY: the key is where the wall clock reads :00 at the offset of the bucket's rows, which in a zone that moves by half
  // an hour (Australia/Lord_Howe) is an instant still under the other offset. The hour's last second always has the rows'
  // offset, so the offset is read there, and the label is that second's wall clock less 59:59: the two 01:00 hours of a
  // fall-back night show -04:00 and -05:00 in ET, +11:00 and +10:30 on Lord Howe.
  const last = sql`(${key} + INTERVAL 3599 SECOND)`;
  const offset = zoneOffsetSeconds(last, sql`${spec.zone}`);
  return sql`${wallClockText(last, sql`${spec.zone}`, 3599)} || CASE WHEN ${offset} < 0 THEN '-' ELSE '+' END || lpad(CAST(${intDiv(sql`abs(${offset})`, sql`3600`)} AS VARCHAR), 2, '0') || ':' || lpad(CAST(${intDiv(sql`abs(${offset}) % 3600`, sql`60`)} AS VARCHAR), 2, '0')`;
}

/** The hour of the day (0–23) of an instant in a zone. */
export const hourOfDay = (zone: string, instant: Fragment): Fragment => zoneHour(instant, sql`${zone}`);
