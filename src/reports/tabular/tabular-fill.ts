import { ValidationError } from '../../errors.ts';
import { windowBuckets } from '../../query/instants.ts';
import { sql } from '../../query/sql.ts';
import { materialized } from '../../query/dialect.ts';
import { filledGroups } from '../extensions/filled-groups.ts';
import { keyName, metricName, type TabularShape, type TabularSql } from './tabular-shape.ts';

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
  const ofBucket = t.ofBucket ?? {};
  const others = plan.dimensions.map((_, i) => i).filter((i) => i !== d);
  return {
    ...t,
    ctes: sql`${t.ctes},
grouped_plain ${materialized} (${t.grouped})`,
    grouped: filledGroups({
      plain: 'grouped_plain',
      time: keyName(d),
      others: others.map((i) => ({ column: keyName(i), ...(ofBucket[i] ? { ofBucket: ofBucket[i] } : {}) })),
      buckets: windowBuckets(plan.bucket!, plan.window!),
      values: plan.metrics.map((m, j) => ({ column: metricName(j), count: countMetrics.includes(m) })),
    }),
  };
}
