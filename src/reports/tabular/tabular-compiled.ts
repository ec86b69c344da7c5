import { and, ident, join, sql, type Fragment } from '../../query/sql.ts';
import { array, field, repeated, value, type ScalarType } from '../../query/row-shape.ts';
import type { ShapedReport, UnitRange } from '../rows-query.ts';
import { topNPage } from '../top-n-page.ts';
import { keyColumn, metricColumn, type TabularShape, type TabularSql } from './tabular-shape.ts';

const labelColumn = (i: number): Fragment => ident(`d${i}`);

/** Names repeat across rows, so they cross as dictionary codes; typed labels (days, instants) cross as their text. */
const dimensionValue = (i: number, type: ScalarType) => (type === 'text' ? repeated(`d${i}`) : value(`d${i}`, type));

/** Ranges of at most this many units are taken as a top-N. */
const topN = 1024;

const direction = (dir: 'asc' | 'desc') => (dir === 'asc' ? sql`ASC` : sql`DESC`);

/** The core's SQL over a report's groups: labels, metric filters, and the row order with its tie-break. */
export function tabularCompiled(
  plan: TabularShape,
  t: TabularSql,
  groups: Fragment = sql`${t.ctes},
grouped AS (${t.grouped})`,
): ShapedReport {
  const byDimension = (i: number, dir: 'asc' | 'desc'): Fragment[] =>
    t.dimensions[i]!.sortBy === 'key'
      ? [sql`${keyColumn(i)} ${direction(dir)} NULLS LAST`]
      : [sql`${labelColumn(i)} ${direction(dir)} NULLS LAST`, sql`${keyColumn(i)} ${direction(dir)} NULLS LAST`];
  const requested = plan.orderBy.flatMap((o) => {
    const j = plan.metrics.indexOf(o.key);
    return j >= 0
      ? [sql`${metricColumn(j)} ${direction(o.dir)} NULLS LAST`]
      : byDimension(plan.dimensions.indexOf(o.key), o.dir);
  });
  const order = join([...requested, ...plan.dimensions.flatMap((_, i) => byDimension(i, 'asc'))], ', ');
  // TRICKY: names come from a LEFT JOIN on the key, not a scalar subquery per row: ClickHouse runs no
  // correlated subquery over a Distributed table. Dimension tables hold one row per id, so no row repeats.
  const nameAlias = (i: number) => ident(`n${i}`);
  const labelOf = (i: number) => {
    const names = t.dimensions[i]!.names;
    return sql`${t.dimensions[i]!.label(keyColumn(i, 'g'), names ? sql`${nameAlias(i)}.${ident(names.column)}` : undefined)} AS ${labelColumn(i)}`;
  };
  const labels = plan.dimensions.map((_, i) => labelOf(i));
  // An instant's label, which no sort reads, is written after a small top-N page's cut, for its rows alone:
  // a 100-row page of raw logs over 365 days formatted 553,000 instants (224-238 ms, 106-148 after). The page
  // is then sorted again, which a day's cheaper label does not repay.
  const afterCut = (i: number) =>
    t.dimensions[i]!.sortBy === 'key' && !t.dimensions[i]!.names && t.dimensions[i]!.type === 'instant';
  const leanLabels = plan.dimensions.flatMap((_, i) => (afterCut(i) ? [] : [labelOf(i)]));
  const nameJoins = plan.dimensions.flatMap((_, i) => {
    const names = t.dimensions[i]!.names;
    return names
      ? [sql`LEFT JOIN ${ident(names.table)} ${nameAlias(i)} ON ${nameAlias(i)}.id = ${keyColumn(i, 'g')}`]
      : [];
  });
  const kept = and(plan.metricFilters.map((f) => sql`${metricColumn(plan.metrics.indexOf(f.field))} >= ${f.value}`));
  const shown = [
    ...plan.metrics.map((_, j): [string, Fragment] => [`m${j}`, metricColumn(j)]),
    ...plan.dimensions.map((_, i): [string, Fragment] => [`d${i}`, sql`CAST(${labelColumn(i)} AS VARCHAR)`]),
  ];
  const columns = shown.map(([name, value]) => sql`${value} AS ${ident(name)}`);
  // TRICKY: a small range is a top-N (ORDER BY … LIMIT … OFFSET) of the kept groups, and only its groups are
  // numbered; a large one would sort twice that way (the top-N becomes a full sort), so every group is
  // numbered in one sort and the range kept.
  const rows = (range: UnitRange) =>
    range.upTo !== null && range.upTo - range.after <= topN
      ? sql`SELECT ${range.after} + row_number() OVER (ORDER BY ${order}) AS unit, 0 AS seq, ${join(columns, ', ')}
FROM (SELECT * FROM kept ORDER BY ${order} LIMIT ${range.upTo - range.after} OFFSET ${range.after})`
      : sql`SELECT row_number() OVER (ORDER BY ${order}) AS unit, 0 AS seq, ${join(columns, ', ')}
FROM kept
QUALIFY unit > ${range.after}${range.upTo === null ? sql`` : sql` AND unit <= ${range.upTo}`}`;
  const labeledWith = (shown: readonly Fragment[]) => sql`${groups},
labeled AS (SELECT g.*${shown.length > 0 ? sql`, ${join(shown, ', ')}` : sql``} FROM grouped g${nameJoins.length > 0 ? sql`\n${join(nameJoins, '\n')}` : sql``})`;
  const labeled = labeledWith(labels);
  const leanShown = shown.map(([name, value], c): [string, Fragment] => {
    const i = c - plan.metrics.length;
    return i >= 0 && afterCut(i)
      ? [name, sql`CAST(${t.dimensions[i]!.label(keyColumn(i), undefined)} AS VARCHAR)`]
      : [name, value];
  });
  return {
    ctes: sql`${labeled},
kept AS MATERIALIZED (SELECT * FROM labeled WHERE ${kept})`,
    lean: topNPage({
      ctes: labeledWith(leanLabels),
      from: sql`labeled`,
      where: kept,
      order,
      columns: leanShown,
      // A name read from a dimension table pays for the second sort too: v1 visibility's 1,000-row page by
      // date × model × brand 0.65-0.76 of the uncut statement, by prompt × date × brand 0.86-0.98 (80 runs each).
      cutFirst: plan.dimensions.some((_, i) => afterCut(i) || t.dimensions[i]!.names !== undefined),
    }),
    shape: {
      fields: [
        field('metrics', array(plan.metrics.map((m, j) => field(m, value(`m${j}`, t.metricTypes?.[m] ?? 'float'))))),
        field(
          'dimensions',
          array(plan.dimensions.map((d, i) => field(d, dimensionValue(i, t.dimensions[i]!.type ?? 'text')))),
        ),
      ],
    },
    rows,
    total: sql`SELECT count(*) FROM kept`,
    sliceUnits: Number.POSITIVE_INFINITY,
  };
}
