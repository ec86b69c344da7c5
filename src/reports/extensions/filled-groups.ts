import { ident, join, seenKeys, sql, type Fragment } from '../../query/sql.ts';

/** What the fill rewrite needs to know of a relation of groups, by column name. */
export interface GroupsToFill {
  /** The relation (a CTE) holding the groups as the report counts them. */
  readonly plain: string;
  /** The time key: a bucket of the window. */
  readonly time: string;
  /**
   * The other keys; one the bucket decides (an hour bucket's hour of day) is computed from the bucket, not crossed
   * with it; one that only describes the others is an aggregate over their plain groups (a key's name, its first
   * place), given to its added groups too, never matched.
   */
  readonly others: readonly {
    readonly column: string;
    readonly ofBucket?: (bucket: Fragment) => Fragment;
    readonly describes?: Fragment;
  }[];
  /** Every bucket of the window, as `SELECT … AS k`. */
  readonly buckets: Fragment;
  /** The groups' buckets are all among `buckets` (whole answers' are): they need not be added to them. */
  readonly bucketsHoldGroups?: boolean;
  /** The values: a count is 0 in an added group, any other value NULL. */
  readonly values: readonly { readonly column: string; readonly count: boolean }[];
}

/**
 * The fill rewrite, written once: every bucket of the window, and every bucket the groups hold, for every
 * combination of the other keys seen. These are the groups it adds, those the plain groups lack; columns: the
 * other keys, the time key, the values. A report that ranks and pages groups fills them before
 * (`filledGroups`); whole answers place the added rows after their own (filled-answer.ts).
 */
export function addedGroups(g: GroupsToFill): Fragment {
  const plain = ident(g.plain);
  const time = ident(g.time);
  const free = g.others.filter((k) => !k.ofBucket);
  const matched = free.filter((k) => !k.describes).map((k) => ident(k.column));
  const described = free.flatMap((k) => (k.describes ? [sql`${k.describes} AS ${ident(k.column)}`] : []));
  const seen =
    described.length === 0
      ? sql`SELECT DISTINCT ${seenKeys(matched)} FROM ${plain}`
      : sql`SELECT ${join([...matched, ...described], ', ')} FROM ${plain} ${matched.length > 0 ? sql`GROUP BY ${join(matched, ', ')}` : sql`HAVING count(*) > 0`}`;
  const columns = [
    ...g.others.map((k) =>
      k.ofBucket ? sql`${k.ofBucket(sql`b.k`)} AS ${ident(k.column)}` : sql`s.${ident(k.column)} AS ${ident(k.column)}`,
    ),
    sql`b.k AS ${time}`,
    ...g.values.map((v) => sql`${v.count ? sql`0` : sql`NULL`} AS ${ident(v.column)}`),
  ];
  // TRICKY: only the keys and the time of the plain groups are joined to find the missing ones.
  return sql`SELECT ${join(columns, ', ')}
  FROM (${seen}) s
  CROSS JOIN (${g.bucketsHoldGroups ? g.buckets : sql`${g.buckets} UNION SELECT ${time} FROM ${plain}`}) b
  LEFT JOIN (SELECT ${join([...matched, time], ', ')}, TRUE AS fill_hit FROM ${plain}) h ON ${join(
    [sql`h.${time} = b.k`, ...matched.map((k) => sql`h.${k} IS NOT DISTINCT FROM s.${k}`)],
    ' AND ',
  )}
  WHERE h.fill_hit IS NULL`;
}

/** The plain groups as they are (a count that is NULL reads 0), then the groups the fill adds. */
export function filledGroups(g: GroupsToFill): Fragment {
  const columns = [
    ...g.others.map((k) => ident(k.column)),
    ident(g.time),
    ...g.values.map((v) => (v.count ? sql`coalesce(${ident(v.column)}, 0) AS ${ident(v.column)}` : ident(v.column))),
  ];
  return sql`SELECT ${join(columns, ', ')} FROM ${ident(g.plain)}
  UNION ALL
  ${addedGroups(g)}`;
}
