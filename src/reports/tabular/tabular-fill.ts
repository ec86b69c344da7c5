import { ValidationError } from '../../errors.ts';
import { windowBuckets } from '../../query/instants.ts';
import { join, sql, seenKeys } from '../../query/sql.ts';
import { keyColumn, metricColumn, type TabularShape, type TabularSql } from './tabular-shape.ts';

/** The fill extension of the tabular family, in SQL over a report's groups (`grouped`: keys `k<i>`, metrics `m<j>`). */

/** The time dimension fill completes and compare aligns. */
export const timeDimension = 'date';

/** Fill needs the date dimension. Its SQL generates one instant per hour of the window, which every tabular request bounds. */
export function checkFill(plan: TabularShape): void {
  if (!plan.dimensions.includes(timeDimension) || !plan.window || !plan.bucket) {
    throw ValidationError.of(
      ['query', 'fill'],
      `fill needs the ${timeDimension} dimension: add '${timeDimension}' to dimensions`,
      'zero',
    );
  }
}

/**
 * The groups with every time bucket of the window for every combination of the other keys seen: a
 * missing bucket gets 0 for count metrics and NULL for the others. The plain groups are kept as they are.
 */
export function filledSql(plan: TabularShape, t: TabularSql, countMetrics: readonly string[]): TabularSql {
  const d = plan.dimensions.indexOf(timeDimension);
  const others = plan.dimensions.map((_, i) => i).filter((i) => i !== d);
  const ofBucket = t.ofBucket ?? {};
  // A key the bucket decides is not crossed with the buckets: an hour bucket has one hour of day.
  const free = others.filter((i) => !ofBucket[i]);
  const seen = seenKeys(free.map((i) => keyColumn(i)));
  const metrics = plan.metrics.map((m, j) =>
    countMetrics.includes(m)
      ? sql`coalesce(g.${metricColumn(j)}, 0) AS ${metricColumn(j)}`
      : sql`g.${metricColumn(j)} AS ${metricColumn(j)}`,
  );
  const matches = [
    sql`g.${keyColumn(d)} = b.k`,
    ...free.map((i) => sql`g.${keyColumn(i)} IS NOT DISTINCT FROM s.${keyColumn(i)}`),
  ];
  const keyOf = (i: number) =>
    ofBucket[i] ? sql`${ofBucket[i](sql`b.k`)} AS ${keyColumn(i)}` : sql`s.${keyColumn(i)} AS ${keyColumn(i)}`;
  return {
    ...t,
    ctes: sql`${t.ctes},
grouped_plain AS (${t.grouped}),
fill_seen AS (SELECT DISTINCT ${seen} FROM grouped_plain),
fill_buckets AS (${windowBuckets(plan.bucket!, plan.window!)} UNION SELECT ${keyColumn(d)} FROM grouped_plain)`,
    grouped: sql`SELECT ${join([...others.map(keyOf), sql`b.k AS ${keyColumn(d)}`, ...metrics], ', ')}
  FROM fill_seen s CROSS JOIN fill_buckets b
  LEFT JOIN grouped_plain g ON ${join(matches, ' AND ')}`,
  };
}
