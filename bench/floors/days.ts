/**
 * Days as integers (days since 1970-01-01, as floor rollups store them): a window binds two integers and a
 * label is looked up once per day.
 */
const labels = new Map<number, string>();

export const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

export function dayLabel(d: number): string {
  let s = labels.get(d);
  if (s === undefined) labels.set(d, (s = new Date(d * 86_400_000).toISOString().slice(0, 10)));
  return s;
}

/** The Monday of the ISO week (1970-01-01 was a Thursday). */
export const weekStart = (d: number): number => d - ((d + 3) % 7);

export function monthStart(d: number): number {
  const date = new Date(d * 86_400_000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 86_400_000;
}

export function monthEnd(d: number): number {
  const date = new Date(d * 86_400_000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0) / 86_400_000;
}

/** `(day - DATE '1970-01-01')::INTEGER`: a DATE column as a day number, in rollup SQL. */
export const daySql = (column: string) => `(${column} - DATE '1970-01-01')::INTEGER`;

const twoDigits = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/** An instant (Unix seconds, whole or not) as ISO 8601 UTC to the second, `YYYY-MM-DDTHH:MM:SSZ`, by arithmetic. */
export function isoSecond(epoch: number): string {
  const s = Math.floor(epoch);
  const day = Math.floor(s / 86_400);
  const t = s - day * 86_400;
  return `${dayLabel(day)}T${twoDigits[Math.floor(t / 3600)]}:${twoDigits[Math.floor((t % 3600) / 60)]}:${twoDigits[t % 60]}Z`;
}
