import { materialized, nullSafeEqual } from '../../query/dialect.ts';
import { shapeColumns, type RowShape } from '../../query/row-shape.ts';
import { ident, join, sql } from '../../query/sql.ts';
import type { ShapedReport } from '../rows-query.ts';
import type { AnswerColumns } from './compared-answer.ts';
import { numberedBuckets, type DateSpan } from './compared-dates.ts';

const all = { after: 0, upTo: null } as const;

/** The columns of the top-level fields that `keep` picks. */
const columnsWhere = (shape: RowShape, keep: (fieldColumns: readonly string[], name: string) => boolean) =>
  shape.fields.flatMap((f) => {
    const columns = shapeColumns({ fields: [f] });
    return keep(columns, f.name) ? columns : [];
  });

/**
 * The answer with every date bucket of the window for every key seen in it (the row keys but the
 * date): the plain rows as they are, then an added row for each (key, bucket) without one, whose
 * `counts` are 0, whose key fields (the key's id and name) and `about` fields are the key's, and whose
 * other fields are NULL. A report whose units hold one row numbers the added rows after its own, by the
 * key's first unit, then the bucket; a report whose units hold several rows (a channel's cells) adds
 * them to the key's unit after its own rows, so its units and their order do not change.
 */
export function filledAnswer(now: ShapedReport, cols: AnswerColumns, window: DateSpan): ShapedReport {
  const date = cols.date!;
  const keys = cols.keys.filter((k) => k !== date.column);
  const shown = shapeColumns(now.shape);
  const copied = [
    ...new Set([
      ...keys,
      ...columnsWhere(now.shape, (c, name) => c.some((x) => keys.includes(x)) || (cols.about ?? []).includes(name)),
    ]),
  ].filter((c) => c !== date.column);
  const zeroed = columnsWhere(now.shape, (_, name) => (cols.counts ?? []).includes(name));
  const nulled = shown.filter((c) => c !== date.column && !copied.includes(c) && !zeroed.includes(c));
  const every = [...copied, date.column, ...zeroed, ...nulled];
  const keyed =
    keys.length === 0
      ? sql``
      : sql`${join(
          keys.map((k) => ident(k)),
          ', ',
        )}, `;
  const sameKey =
    keys.length === 0
      ? sql`TRUE`
      : join(
          keys.map((k) => nullSafeEqual(sql`h.${ident(k)}`, sql`fk.${ident(k)}`)),
          ' AND ',
        );
  const many = now.unitRows !== undefined;
  // TRICKY: a unit holds several keys (a channel's cells by model), so an added cell follows the unit's last
  // row, numbered within the unit by its key's place there, then its bucket.
  const place = many
    ? [
        sql`fk.unit AS unit`,
        sql`ul.last_seq + row_number() OVER (PARTITION BY fk.unit ORDER BY fk.first_seq, b.k) AS seq`,
      ]
    : [
        sql`(SELECT coalesce(max(unit), 0) FROM fill_plain) + row_number() OVER (ORDER BY fk.unit, b.k) AS unit`,
        sql`0 AS seq`,
      ];
  const ctes = sql`${now.ctes},
fill_plain ${materialized} (SELECT * FROM (${now.rows(all)}) x),
fill_b AS (${numberedBuckets(date.interval, window.startDate, window.endDate)}),
fill_keys AS (
  SELECT ${keyed}${join([...copied.filter((c) => !keys.includes(c)).map((c) => sql`min(${ident(c)}) AS ${ident(c)}`), sql`min(unit) AS unit`, sql`min(seq) AS first_seq`], ', ')}
  FROM fill_plain${
    keys.length === 0
      ? sql` HAVING count(*) > 0`
      : sql` GROUP BY ${join(
          keys.map((k) => ident(k)),
          ', ',
        )}`
  }
),
fill_j ${materialized} (
  SELECT ${join([sql`unit`, sql`seq`, ...every.map((c) => ident(c))], ', ')} FROM fill_plain
  UNION ALL
  SELECT ${join([...place, ...copied.map((c) => sql`fk.${ident(c)} AS ${ident(c)}`), sql`b.k AS ${ident(date.column)}`, ...zeroed.map((c) => sql`0 AS ${ident(c)}`), ...nulled.map((c) => sql`NULL AS ${ident(c)}`)], ', ')}
  FROM fill_keys fk CROSS JOIN fill_b b${
    many
      ? sql`
  JOIN (SELECT unit, max(seq) AS last_seq FROM fill_plain GROUP BY unit) ul ON ul.unit = fk.unit`
      : sql``
  }
  LEFT JOIN (SELECT ${keyed}${ident(date.column)}, TRUE AS fill_hit FROM fill_plain) h ON ${sameKey} AND h.${ident(date.column)} = b.k
  WHERE h.fill_hit IS NULL
)`;
  return {
    ctes,
    shape: now.shape,
    rows: (range) =>
      sql`SELECT ${join([sql`unit`, sql`seq`, ...every.map((c) => ident(c))], ', ')} FROM fill_j WHERE unit > ${range.after}${range.upTo === null ? sql`` : sql` AND unit <= ${range.upTo}`}`,
    total: sql`SELECT coalesce(max(unit), 0) FROM fill_j`,
    ...(now.info ? { info: now.info } : {}),
    sliceUnits: Number.POSITIVE_INFINITY,
    ...(many ? { unitRows: sql`SELECT unit, count(*) AS n FROM fill_j GROUP BY unit` } : {}),
  };
}
