import { materialized } from '../../query/dialect.ts';
import { field, shapeColumns, value, type RowShape, type ScalarType, type ShapeField } from '../../query/row-shape.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import type { CalendarInterval } from '../../query/time.ts';
import type { ShapedReport } from '../rows-query.ts';
import { bucketsMet, changeTerms, movedOntoWindow, windowsMet } from './compare-rule.ts';
import { dateBuckets, type DateSpan } from './compared-dates.ts';

/**
 * What identifies and measures a row of a v2 answer, for the extensions built over whole answers:
 * `keys` are the columns that identify a row (each answer holds one row per value of them; hidden
 * columns the shape does not show may be among them), `metrics` the top-level fields compared,
 * `places` the fields that hold a row's place in its own window (its rank), and `date` the key column
 * holding the date bucket. Every other column describes the row and is carried as it is; `counts`
 * and `about` say what a row added by fill holds (src/reports/extensions/filled-answer.ts).
 */
export interface AnswerColumns {
  readonly keys: readonly string[];
  readonly metrics: readonly string[];
  readonly places?: readonly string[];
  /** Fields that count rows: 0 in a row fill adds. */
  readonly counts?: readonly string[];
  /** Fields that describe the row's key beyond its own fields (a product's rating): a row fill adds keeps them. */
  readonly about?: readonly string[];
  readonly date: { readonly column: string; readonly interval: CalendarInterval } | null;
}

const all = { after: 0, upTo: null } as const;

/** The single column of a top-level value field, and its type. */
function valueOf(shape: RowShape, name: string): { column: string; type: ScalarType } {
  const f = shape.fields.find((x) => x.name === name);
  if (!f || f.node.kind !== 'value' || typeof f.node.type !== 'string')
    throw new Error(`compare: ${name} is not a scalar field of the answer`);
  return { column: f.node.column, type: f.node.type };
}

const columnsOf = (shape: RowShape, names: readonly string[]) =>
  shapeColumns({ fields: shape.fields.filter((f) => names.includes(f.name)) });

/** Each metric's previous value, change and relative change, over the joined row: fields and their SQL. */
function comparedFields(shape: RowShape, metrics: readonly string[]): { field: ShapeField; expr: Fragment }[] {
  return metrics.flatMap((m, i) => {
    const { column, type } = valueOf(shape, m);
    const instant = type === 'instant';
    const t = changeTerms(ident(column), ident(`cmp_p${i}`), instant ? 'instant' : 'number');
    return [
      { field: field(`${m}_previous`, value(`${m}_previous`, type)), expr: t.previous },
      { field: field(`${m}_change`, value(`${m}_change`, instant ? 'integer' : type)), expr: t.change },
      { field: field(`${m}_change_pct`, value(`${m}_change_pct`, 'float')), expr: t.changePct },
    ];
  });
}

/**
 * The answer of `now` beside the answer of `then` (the same plan over the compared window): rows match
 * on their keys, the date by its place in the window (bucket i meets bucket i; a compared bucket past
 * the window's last is left out). The window's rows keep their units and order; a row of the compared
 * window only follows them all, in the compared answer's order, with NULL metrics and places. Both
 * answers are read whole (the compared units cannot be known before both are), in one statement.
 */
export function comparedAnswer(
  now: ShapedReport,
  then: ShapedReport,
  cols: AnswerColumns,
  windows: { readonly now: DateSpan; readonly then: DateSpan },
): ShapedReport {
  const metricCols = cols.metrics.map((m) => valueOf(now.shape, m).column);
  const placeCols = columnsOf(now.shape, cols.places ?? []);
  const carried = [...new Set([...cols.keys, ...shapeColumns(now.shape)])].filter(
    (c) => !metricCols.includes(c) && !placeCols.includes(c),
  );
  const prev = metricCols.map((c, i) => sql`t.${ident(c)} AS ${ident(`cmp_p${i}`)}`);
  const date = cols.date;
  const thenColumns = ['unit', 'seq', ...new Set([...carried, ...metricCols])];
  const moved = date
    ? sql`cmp_met AS (${bucketsMet(
        dateBuckets(date.interval, windows.now.startDate, windows.now.endDate),
        dateBuckets(date.interval, windows.then.startDate, windows.then.endDate),
      )}),
cmp_then_k ${materialized} (${movedOntoWindow(sql`cmp_then`, thenColumns, date.column, sql`cmp_met`)})`
    : sql`cmp_then_k ${materialized} (SELECT * FROM cmp_then)`;
  const fields = comparedFields(now.shape, cols.metrics);
  // TRICKY: a row of the compared window only follows every unit of the window, in the compared answer's
  // order: its unit is the window's last plus its unit's place among such units.
  const windowed = sql`n.unit IS NOT NULL`;
  const unit = sql`CASE WHEN ${windowed} THEN n.unit ELSE (SELECT coalesce(max(unit), 0) FROM cmp_now) + dense_rank() OVER (PARTITION BY ${windowed} ORDER BY t.unit) END AS unit`;
  const either = (c: string) => sql`CASE WHEN ${windowed} THEN n.${ident(c)} ELSE t.${ident(c)} END AS ${ident(c)}`;
  const own = (c: string) => sql`n.${ident(c)} AS ${ident(c)}`;
  // TRICKY: the compared report's own CTEs share names with the window's, so they are nested in cmp_then,
  // where they shadow the outer ones.
  const ctes = sql`${now.ctes},
cmp_now ${materialized} (SELECT * FROM (${now.rows(all)}) x),
cmp_then AS (WITH ${then.ctes}
SELECT * FROM (${then.rows(all)}) x),
${moved},
cmp_j ${materialized} (
  SELECT ${join([unit, either('seq'), ...carried.map(either), ...[...metricCols, ...placeCols].map(own), ...prev], ', ')}
  FROM ${windowsMet(sql`cmp_now`, sql`cmp_then_k`, cols.keys)}
)`;
  return {
    ctes,
    shape: { fields: [...now.shape.fields, ...fields.map((f) => f.field)] },
    rows: (range) =>
      sql`SELECT ${join([sql`unit`, sql`seq`, ...[...carried, ...metricCols, ...placeCols].map((c) => ident(c)), ...fields.map((f) => sql`${f.expr} AS ${ident(f.field.name)}`)], ', ')}
FROM cmp_j WHERE unit > ${range.after}${range.upTo === null ? sql`` : sql` AND unit <= ${range.upTo}`}`,
    total: sql`SELECT coalesce(max(unit), 0) FROM cmp_j`,
    ...(now.info ? { info: now.info } : {}),
    sliceUnits: Number.POSITIVE_INFINITY,
    ...(now.unitRows ? { unitRows: sql`SELECT unit, count(*) AS n FROM cmp_j GROUP BY unit` } : {}),
  };
}
