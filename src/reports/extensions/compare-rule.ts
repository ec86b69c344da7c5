import { epochSeconds, nullDouble, nullSafeEqual } from '../../query/dialect.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';

/**
 * Compare, as every answer shape shares it (docs/extensions.md, "compare"): how a window's date buckets
 * meet the compared window's, how the compared rows move onto the window's buckets, the one join of the
 * two windows' rows, and what a compared metric's three columns hold. Where a row of the compared window
 * only goes is the answer shape's own placement: after every unit of a whole v2 answer
 * (`compared-answer.ts`), among the tabular family's groups (`tabular/tabular-compare.ts`), or as a group
 * of v2 visibility's brands (`insights-v2/visibility/visibility-compare.ts`).
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

/**
 * The compared window's rows (`then`, a relation with `columns`) moved onto the window's buckets through
 * `met` (a relation of `bucketsMet`): `date` takes the bucket of the same place; a row of a bucket past
 * the window's last is left out.
 */
export const movedOntoWindow = (then: Fragment, columns: readonly string[], date: string, met: Fragment): Fragment =>
  sql`SELECT ${join(
    [
      ...columns.filter((c) => c !== date).map((c) => sql`x.${ident(c)} AS ${ident(c)}`),
      sql`m.now_k AS ${ident(date)}`,
    ],
    ', ',
  )} FROM ${then} x JOIN ${met} m ON m.then_k = x.${ident(date)}`;

/**
 * The one join of compare: every row of the window (`now`, as `n`) beside the row of the compared window
 * (`then`, moved onto the window's buckets, as `t`) with the same `keys`, NULL equal to NULL. A row of
 * one window only has NULLs on the other's side.
 */
export const windowsMet = (now: Fragment, then: Fragment, keys: readonly string[]): Fragment =>
  sql`${now} n FULL JOIN ${then} t ON ${
    keys.length === 0
      ? sql`TRUE`
      : join(
          keys.map((k) => nullSafeEqual(sql`n.${ident(k)}`, sql`t.${ident(k)}`)),
          ' AND ',
        )
  }`;

/** A key of a row of `windowsMet`, whichever window holds the row. */
export const metKey = (key: string): Fragment => sql`coalesce(n.${ident(key)}, t.${ident(key)})`;

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
