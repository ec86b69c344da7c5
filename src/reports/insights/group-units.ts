import { everyColumn, semiJoin } from '../../query/dialect.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import type { UnitRange } from '../rows-query.ts';
import type { Grouping } from './group-keys.ts';

/**
 * How a v2 report's grouped rows become page units. Rows are ordered by the keys of `partition` (in
 * their order), then by `within` inside a partition; a row's `rank` is its place in its partition. With
 * `kept`, only the rows it keeps are units, while the rank still counts every row (a scope applied
 * after ranking). Partitions are counted first, without building rows; a range then builds and ranks
 * only the rows of the partitions it touches.
 */
export interface GroupUnits {
  /** Every group key of a row: their lookups give the rows their columns. */
  readonly groups: Grouping;
  readonly partition: Grouping;
  /** One row per partition: its keys (`k_<name>`), `n_all` rows and `n_kept` units. */
  readonly counts: Fragment;
  /**
   * The rows (one per candidate unit, keys as `k_<name>`) of the partitions in relation `pg` (its name), or of
   * every partition when `pg` is null: CTEs to add, then the relation's name.
   */
  readonly rowsOf: (pg: string | null) => { readonly ctes: readonly Fragment[]; readonly from: Fragment };
  /** Sort terms inside a partition over relation `alias`; a total order (none when a partition holds one row). */
  readonly within: (alias: string) => Fragment[];
  /** The joins `within` reads (e.g. the names the groups sort by), over relation `alias`. */
  readonly withinLookups?: (alias: string) => Fragment;
  readonly kept?: (alias: string) => Fragment;
}

/** `counts` of the distinct groups (`groups`' keys) of relation `from` that `where` keeps, without scoring them. */
export function countGroups(
  from: string,
  groups: Grouping,
  partition: Grouping,
  where: Fragment = sql`TRUE`,
): Fragment {
  return sql`SELECT ${partition.cols()}count(*) AS n_all, count(*) AS n_kept FROM (SELECT DISTINCT ${groups.cols()}1 FROM ${ident(from)} WHERE ${where}) ${partition.groupBy()}`;
}

/** The rows of relation `from` whose `keys` match a row of relation `to` (every row when `to` is null or there are no keys). */
export function matching(from: string, keys: Grouping, to: string | null): Fragment {
  return to === null || keys.empty
    ? ident(from)
    : sql`(SELECT x.* FROM ${ident(from)} x ${semiJoin} ${ident(to)} ON ${keys.equal('x', to)})`;
}

/** `counts` from a relation that holds every row. */
export function countRows(from: Fragment, partition: Grouping, kept?: (alias: string) => Fragment): Fragment {
  return sql`SELECT ${partition.cols()}count(*) AS n_all, ${kept ? sql`count(*) FILTER (WHERE ${kept('x')})` : sql`count(*)`} AS n_kept FROM ${from} x ${partition.groupBy()}`;
}

/**
 * The CTEs every statement of the units reads: `parts` (the counts) and, with a partition, `ordinals`:
 * each partition's place and the rows and units before it, so a range finds its partitions by them.
 */
export function unitCtes(u: GroupUnits): Fragment {
  const parts = sql`parts AS (${u.counts})`;
  if (u.partition.empty) return parts;
  const p = u.partition;
  return sql`${parts},
ordinals AS (
  SELECT ${p.cols('x')}row_number() OVER w AS ordinal, x.n_kept,
         CAST(sum(x.n_all) OVER w - x.n_all AS BIGINT) AS all_before, CAST(sum(x.n_kept) OVER w - x.n_kept AS BIGINT) AS kb
  FROM parts x
  ${p.orderLookups('x')}
  WINDOW w AS (ORDER BY ${join(p.order('x'), ', ')} ROWS UNBOUNDED PRECEDING)
)`;
}

export const unitTotal = sql`SELECT CAST(coalesce(sum(n_kept), 0) AS BIGINT) FROM parts`;

const lookups = (u: GroupUnits, alias: string) => u.withinLookups?.(alias) ?? sql``;

const upper = (range: UnitRange, unit: Fragment) => (range.upTo === null ? sql`` : sql` AND ${unit} <= ${range.upTo}`);

const withCtes = (ctes: readonly Fragment[], body: Fragment) =>
  ctes.length === 0 ? body : sql`WITH ${join(ctes, ',\n')}\n${body}`;

/** The rows of `range` as their relation's columns plus `unit` and `rank`, unordered. */
function ranked(u: GroupUnits, range: UnitRange): Fragment {
  const sorted = (alias: string) =>
    u.within(alias).length === 0 ? sql`` : sql`ORDER BY ${join(u.within(alias), ', ')}`;
  const count = u.kept
    ? sql`count(*) FILTER (WHERE ${u.kept('x')}) OVER (w ROWS UNBOUNDED PRECEDING)`
    : sql`row_number() OVER w`;
  const kept = u.kept ? sql`${u.kept('x')} AND ` : sql``;
  if (u.partition.empty) {
    const { ctes, from } = u.rowsOf(null);
    if (!u.kept) {
      // TRICKY: one partition and every row a unit: a top-N (ORDER BY … LIMIT … OFFSET) keeps the range's rows
      // and only they are numbered; the rank is the unit.
      return withCtes(
        ctes,
        sql`SELECT y.*, ${range.after} + row_number() OVER (${sorted('y')}) AS unit, unit AS rank
FROM (
  SELECT x.* FROM ${from} x
  ${lookups(u, 'x')}
  ${sorted('x')}${range.upTo === null ? sql`` : sql` LIMIT ${range.upTo - range.after}`} OFFSET ${range.after}
) y
${lookups(u, 'y')}`,
      );
    }
    return withCtes(
      ctes,
      sql`SELECT x.*, ${count} AS unit, row_number() OVER w AS rank
FROM ${from} x
${lookups(u, 'x')}
WINDOW w AS (${sorted('x')})
QUALIFY ${kept}unit > ${range.after}${upper(range, sql`unit`)}`,
    );
  }
  const { ctes, from } = u.rowsOf('page_partitions');
  const pg = sql`page_partitions AS (
  SELECT * FROM ordinals WHERE kb + n_kept > ${range.after}${range.upTo === null ? sql`` : sql` AND kb < ${range.upTo}`}
)`;
  // TRICKY: the partitions a range touches are consecutive (the units before a partition, `kb`, grow with its
  // place), so one sort of their rows by (place, within) numbers them all: a row's unit is the units before
  // the first of them plus its count of kept rows; its rank its place less the rows of the partitions before
  // its own among them.
  return withCtes(
    [pg, sql`page_start AS (SELECT min(kb) AS k0, min(all_before) AS a0 FROM page_partitions)`, ...ctes],
    sql`SELECT ${everyColumn(
      'x',
      u.partition.names.map((n) => `k_${n}`),
    )}, b.k0 + ${count} AS unit, row_number() OVER w - (pg.all_before - b.a0) AS rank
FROM ${from} x
JOIN page_partitions pg ON ${u.partition.equal('x', 'pg')}
CROSS JOIN page_start b
${lookups(u, 'x')}
WINDOW w AS (ORDER BY ${join([sql`pg.ordinal`, ...u.within('x')], ', ')})
QUALIFY ${kept}unit > ${range.after}${upper(range, sql`unit`)}`,
  );
}

/** What a report adds to its page rows only, over the ranked rows (`ctes` get the CTE's name, `joins` its alias): more CTEs and the joins that read them. */
export interface RowExtras {
  readonly ctes: (t: string) => Fragment[];
  readonly joins: (t: string) => Fragment;
}

/**
 * `unit, seq` and the shape's columns (`columns` over the ranked rows `t`, every key's lookup and the
 * extras' joins) for the units of `range`.
 */
export function unitRows(
  u: GroupUnits,
  range: UnitRange,
  columns: (alias: string) => Fragment[],
  extras?: RowExtras,
): Fragment {
  return sql`WITH ${join([sql`ranked_rows AS (${ranked(u, range)})`, ...(extras?.ctes('ranked_rows') ?? [])], ',\n')}
SELECT t.unit, 0 AS seq, ${join(columns('t'), ', ')}
FROM ranked_rows t
${u.groups.lookups('t')}${extras ? sql`\n${extras.joins('t')}` : sql``}`;
}
