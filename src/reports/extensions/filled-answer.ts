import { materialized } from '../../query/dialect.ts';
import { shapeColumns, type RowShape } from '../../query/row-shape.ts';
import { ident, join, sql } from '../../query/sql.ts';
import type { ShapedReport } from '../rows-query.ts';
import type { AnswerColumns } from './compared-answer.ts';
import { dateBuckets, type DateSpan } from './compared-dates.ts';
import { addedGroups } from './filled-groups.ts';

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
  const day = ident(date.column);
  const many = now.unitRows !== undefined;
  // TRICKY: an added row's unit and seq are first its key's first unit and seq. A unit that holds several keys
  // (a channel's cells by model) takes an added cell after its last row, numbered within the unit by its key's
  // place there, then its bucket; a unit of one row is numbered after every plain unit, by its key's first unit,
  // then its bucket.
  const place = many
    ? [sql`a.unit AS unit`, sql`ul.last_seq + row_number() OVER (PARTITION BY a.unit ORDER BY a.seq, a.${day}) AS seq`]
    : [sql`(SELECT max(unit) FROM fill_plain) + row_number() OVER (ORDER BY a.unit, a.${day}) AS unit`, sql`0 AS seq`];
  const ctes = sql`${now.ctes},
fill_plain ${materialized} (SELECT * FROM (${now.rows(all)}) x),
fill_added AS (
  ${addedGroups({
    plain: 'fill_plain',
    time: date.column,
    others: [
      ...keys.map((column) => ({ column })),
      ...[...copied.filter((c) => !keys.includes(c)), 'unit', 'seq'].map((column) => ({
        column,
        describes: sql`min(${ident(column)})`,
      })),
    ],
    buckets: dateBuckets(date.interval, window.startDate, window.endDate),
    bucketsHoldGroups: true,
    values: [
      ...zeroed.map((column) => ({ column, count: true })),
      ...nulled.map((column) => ({ column, count: false })),
    ],
  })}
),
fill_j ${materialized} (
  SELECT ${join([sql`unit`, sql`seq`, ...every.map((c) => ident(c))], ', ')} FROM fill_plain
  UNION ALL
  SELECT ${join([...place, ...every.map((c) => sql`a.${ident(c)} AS ${ident(c)}`)], ', ')}
  FROM fill_added a${many ? sql` JOIN (SELECT unit AS last_of, max(seq) AS last_seq FROM fill_plain GROUP BY unit) ul ON ul.last_of = a.unit` : sql``}
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
