import { epochSeconds, nullDouble } from '../../query/dialect.ts';
import { sql, type Fragment } from '../../query/sql.ts';

/**
 * The compare rule every answer shape shares (docs/extensions.md, "compare"): how a window's date buckets
 * meet the compared window's, and what a compared metric's three columns hold. How the two windows' rows are
 * joined and where a compared-only row goes is the answer shape's own: whole v2 answers
 * (`compared-answer.ts`), the tabular family's groups (`tabular/tabular-compare.ts`) and v2 visibility's
 * brands in their groups (`insights-v2/visibility/visibility-compare.ts`).
 */

// TRICKY: buckets are numbered in time order, so bucket i of the window meets bucket i of the compared window
// whatever their dates.
/** A window's buckets (`SELECT … AS k`) numbered in time order: `k` the bucket, `o` its place. */
export const bucketsByPlace = (buckets: Fragment): Fragment =>
  sql`SELECT k, row_number() OVER (ORDER BY k) AS o FROM (${buckets})`;

/**
 * Where the compared window's buckets go: `then_k`, a bucket of the compared window, meets `now_k`, the window's
 * bucket of the same place. A compared bucket past the window's last has none; a compared row moves onto the
 * window's dates by joining it.
 */
export const bucketsMet = (now: Fragment, then: Fragment): Fragment =>
  sql`SELECT pb.k AS then_k, cb.k AS now_k FROM (${bucketsByPlace(then)}) pb JOIN (${bucketsByPlace(now)}) cb ON cb.o = pb.o`;

/** How a metric's values subtract: numbers as they are, instants (TIMESTAMPTZ) in seconds, seconds counted already. */
export type ComparedKind = 'number' | 'instant' | 'seconds';

/**
 * A compared metric's columns over its current and previous values: the previous value, the change, and the
 * change relative to the previous value (NULL when that is 0 or NULL, and for instants of either form).
 */
export function changeTerms(
  current: Fragment,
  previous: Fragment,
  kind: ComparedKind,
): { readonly previous: Fragment; readonly change: Fragment; readonly changePct: Fragment } {
  return {
    previous,
    change:
      kind === 'instant' ? sql`${epochSeconds(current)} - ${epochSeconds(previous)}` : sql`${current} - ${previous}`,
    changePct: kind === 'number' ? sql`(${current} - ${previous}) / NULLIF(${previous}, 0)` : nullDouble,
  };
}
