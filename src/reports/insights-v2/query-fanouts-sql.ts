import type { FilterCatalog } from '../../query/filter-compiler.ts';
import { field, value, type ScalarType } from '../../query/row-shape.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import type { CalendarInterval } from '../../query/time.ts';
import type { ShapedReport } from '../rows-query.ts';
import { analysisTypeField, typesScope, type AnalysisType } from '../insights/analysis-types.ts';
import { answerColumns, answerOver, filterPredicate } from '../insights/common.ts';
import { promptDimensions, promptFilterFields } from '../insights/dimensions.ts';
import { fanoutSource } from '../insights/fanouts-rollup.ts';
import { dateKey, Grouping, promptKeys, textKey, type GroupKey } from '../insights/group-keys.ts';
import {
  countGroups,
  countRows,
  matching,
  unitCtes,
  unitRows,
  unitTotal,
  type GroupUnits,
} from '../insights/group-units.ts';
import type { FilterRules, LayeredFilter } from '../insights/layered-filter.ts';
import { partColumns, partFields, withParts, type RatioPart } from '../insights/ratio-parts.ts';
import { inWindow, promptsCte, type WindowScope } from '../insights/scope.ts';
import { declaredMetric } from '../../query/metric-sql.ts';
import { declaredRank } from '../../query/measure-sql.ts';

export const metricNames = ['total_fanouts', 'fanouts_per_execution', 'query_variations', 'share'] as const;
export type Metric = (typeof metricNames)[number];
export const groupDims = ['prompt', 'query', 'model', 'region', 'date'] as const;
export type FanoutDimension = (typeof groupDims)[number];

export interface FanoutsPlan extends WindowScope {
  readonly groupBy: readonly FanoutDimension[];
  readonly interval: CalendarInterval;
  readonly metrics: readonly Metric[];
  readonly analysisTypes: readonly AnalysisType[];
  readonly defaultTypes: boolean;
  readonly filter: LayeredFilter;
}

export const fanoutsCatalog: FilterCatalog = { ...promptFilterFields, analysis_type: analysisTypeField };
export const fanoutsRules: FilterRules = { catalog: fanoutsCatalog, topLevel: ['analysis_type'] };

/** The docs show a fan-out row's prompt as its text; its id follows as prompt_id. */
const promptKey: GroupKey = {
  expr: promptDimensions.prompt.column,
  lookup: (k, d) => sql`LEFT JOIN prompts AS ${d} ON ${d}.id = ${k}`,
  order: (k, d) => [sql`${d}.prompt NULLS LAST`, sql`${k} NULLS LAST`],
  sortsByLookup: true,
  shape: (col) => [field('prompt', value(col('text'), 'text')), field('prompt_id', value(col('id'), 'text'))],
  columns: (k, d, col) => [sql`${d}.prompt AS ${col('text')}`, sql`${k} AS ${col('id')}`],
  identity: 'id',
};

/** The metrics that are ratios of two counts, as src/model/metrics.ts declares them. */
const declared = {
  fanouts_per_execution: declaredMetric('fanouts_per_execution', 'fanouts_per_execution'),
  share: declaredMetric('share (fan-outs)', 'share'),
} as const;
export const ratioMetrics = Object.keys(declared) as Metric[];
const fanoutsRank = declaredRank('rank (fan-outs)', 'rank');

/** A row's fan-outs `n`, the searching executions `xe` and the fan-outs `gf` of its group without the query. */
const scoredParts = { fanouts: sql`n.fanouts`, searching: sql`xe.executions`, group_fanouts: sql`gf.group_fanouts` };
/** The same counts on a scored row `t` (components). */
const builtParts = (t: string) => ({
  fanouts: sql`${ident(t)}.fanouts`,
  searching: sql`${ident(t)}.searching`,
  group_fanouts: sql`${ident(t)}.group_fanouts`,
});

const metricColumn: Record<Metric, { readonly column: string; readonly type: ScalarType }> = {
  total_fanouts: { column: 'fanouts', type: 'integer' },
  fanouts_per_execution: { column: 'fanouts_per_execution', type: 'float' },
  query_variations: { column: 'variations', type: 'integer' },
  share: { column: 'share', type: 'float' },
};

/** The group keys a fan-outs request may take. */
const keysOf = (plan: FanoutsPlan) => ({
  ...promptKeys,
  prompt: promptKey,
  query: textKey('query', sql`f.query`),
  date: dateKey(plan.interval),
});

/**
 * Query fan-outs: the search queries engines ran behind answers, per group. fanouts_per_execution
 * divides by the runs that searched (search_triggered) in the row's group without the query
 * dimension, and share by that group's fan-outs: runs without a search produce no fan-out data.
 * Groups rank by fan-outs within their date bucket (or the whole window); a page scores only its own
 * buckets, and only the metrics it shows.
 */
export function compileFanouts(plan: FanoutsPlan, rollups: ReadonlySet<string>): ShapedReport {
  const src = fanoutSource(plan, rollups);
  const filterScope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const keys = keysOf(plan);
  const g = new Grouping(keys, plan.groupBy);
  const runs = g.without('query');
  const partition = new Grouping(keys, g.has('date') ? ['date'] : []);
  const scope = sql`${inWindow(plan)} AND ${typesScope(plan)} AND ${filterPredicate(plan.filter.node, fanoutsCatalog, filterScope)}`;
  const metrics = metricNames.filter((m) => plan.metrics.includes(m));
  const has = (m: Metric) => plan.metrics.includes(m);
  const parts = (t: string): RatioPart[] =>
    plan.components
      ? metrics
          .filter((m) => m in declared)
          .map((m) => ({ ratio: m, ...declared[m as keyof typeof declared].terms(builtParts(t)) }))
      : [];

  const ctes: Fragment[] = [
    promptsCte(plan.categoryId),
    sql`scoped_fanouts AS (
  SELECT ${g.select()}f.query AS q${src.fanoutColumns} FROM ${src.fanouts} WHERE ${scope}
)`,
    sql`runs ${src.runsAs} (
  SELECT ${runs.select()}${src.runColumns} FROM ${src.runs} WHERE ${scope}
)`,
  ];
  // TRICKY: distinct queries as a count of (group, query) groups: a grouped count(DISTINCT) keeps a set per group.
  const scored = (pg: string | null) => sql`
  SELECT ${g.cols('n')}n.fanouts${has('query_variations') ? sql`, n.variations` : sql``}${has('fanouts_per_execution') ? sql`, ${declared.fanouts_per_execution.sql(scoredParts)} AS fanouts_per_execution${plan.components ? sql`, coalesce(xe.executions, 0) AS searching` : sql``}` : sql``}${has('share') ? sql`, ${declared.share.sql(scoredParts)} AS share${plan.components ? sql`, gf.group_fanouts` : sql``}` : sql``}
  FROM (${
    has('query_variations')
      ? sql`SELECT ${g.cols()}CAST(sum(qf) AS BIGINT) AS fanouts, count(q) AS variations FROM (SELECT ${g.cols()}q, ${src.count} AS qf FROM ${matching('scoped_fanouts', partition, pg)} ${g.groupBy(sql`q`)}) ${g.groupBy()}`
      : sql`SELECT ${g.cols()}${src.count} AS fanouts FROM ${matching('scoped_fanouts', partition, pg)} ${g.groupBy()}`
  }) n${
    has('share')
      ? sql`
  LEFT JOIN (SELECT ${runs.cols()}${src.count} AS group_fanouts FROM ${matching('scoped_fanouts', partition, pg)} ${runs.groupBy()}) gf ON ${runs.equal('n', 'gf')}`
      : sql``
  }${
    has('fanouts_per_execution')
      ? sql`
  LEFT JOIN (SELECT ${runs.cols()}${src.searching} AS executions FROM ${matching('runs', partition, pg)} WHERE ${src.searched} ${runs.groupBy()}) xe ON ${runs.equal('n', 'xe')}`
      : sql``
  }`;
  // The date is a key of the runs' groups too, so restricting every source to a page's buckets is exact.
  if (partition.empty) ctes.push(sql`scored AS (${scored(null)})`);
  const units: GroupUnits = {
    groups: g,
    partition,
    // A group is a row when it has a fan-out; with date buckets, a page scores only its own buckets.
    counts: partition.empty ? countRows(sql`scored`, partition) : countGroups('scoped_fanouts', g, partition),
    rowsOf: (pg) =>
      pg === null ? { ctes: [], from: sql`scored` } : { ctes: [sql`scored AS (${scored(pg)})`], from: sql`scored` },
    within: (x) => fanoutsRank.order({ total_fanouts: sql`${ident(x)}.fanouts` }, g.order(x)),
    withinLookups: (x) => g.orderLookups(x),
  };
  return {
    ctes: sql`${join(ctes, ',\n')},\n${unitCtes(units)}`,
    shape: {
      fields: [
        ...g.shape(),
        field('rank', value('rank', 'integer')),
        ...metrics.map((m) => field(m, value(metricColumn[m].column, metricColumn[m].type))),
        ...partFields(parts('t')),
      ],
    },
    rows: (range) =>
      unitRows(units, range, (t) => [
        ...g.columns(t),
        sql`${ident(t)}.rank`,
        ...metrics.map((m) => sql`${ident(t)}.${ident(metricColumn[m].column)}`),
        ...partColumns(parts(t)),
      ]),
    total: unitTotal,
    info: sql`SELECT ${src.models} AS models, r.runs, r.searched FROM (SELECT ${src.totals} FROM runs) r`,
    // Groups rank by their fan-outs over the whole window, so every slice would count them all again: a stream
    // is one statement (or, with date buckets, one per window of days: see byDate).
    sliceUnits: Number.POSITIVE_INFINITY,
  };
}

/** The answer's columns, for fill and compare (and the parts components adds). */
export const fanoutsAnswer = answerOver((plan: FanoutsPlan) => ({
  ...withParts(
    answerColumns(
      new Grouping(keysOf(plan), plan.groupBy),
      plan.interval,
      metricNames.filter((m) => plan.metrics.includes(m)),
      ['total_fanouts', 'query_variations'],
    ),
    plan.components ? metricNames.filter((m) => plan.metrics.includes(m) && ratioMetrics.includes(m)) : [],
  ),
  about: ['prompt'],
}));
