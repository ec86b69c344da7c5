import { ident, join, seenKeys, sql, type Fragment } from '../../query/sql.ts';

/** What the fill rewrite needs to know of a relation of groups, by column name. */
export interface GroupsToFill {
  /** The relation (a CTE) holding the groups as the report counts them. */
  readonly plain: string;
  /** The time key: a bucket of the window. */
  readonly time: string;
  /** The other keys; one the bucket decides (an hour bucket's hour of day) is computed from the bucket, not crossed with it. */
  readonly others: readonly { readonly column: string; readonly ofBucket?: (bucket: Fragment) => Fragment }[];
  /** Every bucket of the window, as `SELECT … AS k`. */
  readonly buckets: Fragment;
  /** The values: a count is 0 in an added group, any other value NULL. */
  readonly values: readonly { readonly column: string; readonly count: boolean }[];
}

/**
 * The fill rewrite over groups, for every report that counts groups before it ranks and pages them: every
 * bucket of the window, and every bucket the groups hold, for every combination of the other keys seen,
 * with the plain groups as they are. Columns: the other keys, the time key, the values.
 */
export function filledGroups(g: GroupsToFill): Fragment {
  const plain = ident(g.plain);
  const free = g.others.filter((k) => !k.ofBucket);
  const keys = g.others.map((k) =>
    k.ofBucket ? sql`${k.ofBucket(sql`b.k`)} AS ${ident(k.column)}` : sql`s.${ident(k.column)} AS ${ident(k.column)}`,
  );
  const values = g.values.map((v) =>
    v.count
      ? sql`coalesce(g.${ident(v.column)}, 0) AS ${ident(v.column)}`
      : sql`g.${ident(v.column)} AS ${ident(v.column)}`,
  );
  const matches = [
    sql`g.${ident(g.time)} = b.k`,
    ...free.map((k) => sql`g.${ident(k.column)} IS NOT DISTINCT FROM s.${ident(k.column)}`),
  ];
  return sql`SELECT ${join([...keys, sql`b.k AS ${ident(g.time)}`, ...values], ', ')}
  FROM (SELECT DISTINCT ${seenKeys(free.map((k) => ident(k.column)))} FROM ${plain}) s
  CROSS JOIN (${g.buckets} UNION SELECT ${ident(g.time)} FROM ${plain}) b
  LEFT JOIN ${plain} g ON ${join(matches, ' AND ')}`;
}
