/** Calendar days as `YYYY-MM-DD`, computed independently of src/query/time.ts for the tests that check it. */
export const dayMs = 86_400_000;
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const dayOf = (day: string) => Date.parse(`${day}T00:00:00Z`);
export const nextDay = (day: string) => isoDay(dayOf(day) + dayMs);

/** The first day of the bucket holding `day`: ISO weeks start on Monday. */
export const bucketStart = (interval: 'day' | 'week' | 'month', day: string) =>
  interval === 'day'
    ? day
    : interval === 'week'
      ? isoDay(dayOf(day) - ((new Date(dayOf(day)).getUTCDay() + 6) % 7) * dayMs)
      : `${day.slice(0, 7)}-01`;

/** A day from 2024 through 2027, for fast-check. */
export const anyDay = (fc: typeof import('fast-check').default) =>
  fc.integer({ min: dayOf('2024-01-01') / dayMs, max: dayOf('2027-12-31') / dayMs }).map((d) => isoDay(d * dayMs));
