import type { FilterCatalog } from '../../../query/filter-compiler.ts';
import { field, value, type RowShape, type ScalarType } from '../../../query/row-shape.ts';
import { boolOr, everyColumn, materialized, semiJoin } from '../../../query/dialect.ts';
import { declaredMetric } from '../../../query/metric-sql.ts';
import { declaredInstant, declaredRank } from '../../../query/measure-sql.ts';
import { ident, sql } from '../../../query/sql.ts';
import type { CalendarInterval } from '../../../query/time.ts';
import type { ShapedReport } from '../../rows-query.ts';
import { analysisTypeField, typesScope, type AnalysisType } from '../../insights/analysis-types.ts';
import { citationFields } from './citation-fields.ts';
import {
  citationsDaily,
  factCitations,
  rolledCitations,
  rolledTypes,
  servedByCitationsDaily,
} from '../../insights/citations-rollup.ts';
import { answerColumns, answerOver, filterPredicate } from '../../insights/common.ts';
import { promptFilterFields } from '../../insights/dimensions.ts';
import { dateKey, Grouping, promptKeys } from '../../insights/group-keys.ts';
import { unitCtes, unitRows, unitTotal, type GroupUnits } from '../../insights/group-units.ts';
import type { FilterRules, LayeredFilter } from '../../insights/layered-filter.ts';
import { inWindow, modelNames, promptsCte, type WindowScope } from '../../insights/scope.ts';

export const metricNames = ['count', 'citation_share', 'rank', 'first_cited_at'] as const;
export type Metric = (typeof metricNames)[number];
export const groupDims = ['page', 'date', 'model', 'topic', 'region', 'persona', 'prompt'] as const;
export type CitationDimension = (typeof groupDims)[number];
export type Partition = Exclude<CitationDimension, 'page'>;

export interface CitationsPlan extends WindowScope {
  readonly entity: 'domain' | 'page';
  readonly partitions: readonly Partition[];
  readonly interval: CalendarInterval;
  readonly metrics: readonly Metric[];
  readonly scope: 'owned' | 'all';
  readonly analysisTypes: readonly AnalysisType[];
  /** The analysis types come from the report's default rather than the filter. */
  readonly defaultTypes: boolean;
  readonly filter: LayeredFilter;
}

export const citationsCatalog: FilterCatalog = {
  ...promptFilterFields,
  analysis_type: analysisTypeField,
  ...citationFields,
};

export const citationsRules: FilterRules = {
  catalog: citationsCatalog,
  rowFields: Object.keys(citationFields),
  topLevel: ['analysis_type'],
};

const citationShare = declaredMetric('citation_share', 'citation_share');
const citationsRank = declaredRank('rank (citations)', 'rank');
const firstCited = declaredInstant('first_cited_at', 'first_cited_at');

/** Row fields follow the docs' example: the rank first, then the counts. */
const rowOrder: readonly Metric[] = ['rank', 'count', 'citation_share', 'first_cited_at'];

const metricType: Record<Metric, ScalarType> = {
  rank: 'integer',
  count: 'integer',
  citation_share: 'float',
  first_cited_at: 'instant',
};

function shapeOf(plan: CitationsPlan, g: Grouping): RowShape {
  return {
    fields: [
      ...g.shape(),
      field(plan.entity, value('entity', 'text')),
      ...rowOrder.filter((m) => plan.metrics.includes(m)).map((m) => field(m, value(m, metricType[m]))),
    ],
  };
}

/**
 * Citations: domains (or pages) ranked by how often answers cite them. The answer-level part of the
 * filter scopes the citations; the citation-layer part picks which are counted. citation_share is, per
 * model, the row's citations over every citation in scope of the same partition, averaged over the
 * models with citations there, so citation-layer filters never shrink its denominator. Rows are ranked
 * within their partition; only the partitions of a page (or stream slice) are ranked.
 */
export function compileCitations(plan: CitationsPlan, rollups: ReadonlySet<string>): ShapedReport {
  const filterScope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const rolled = rollups.has(citationsDaily.name) && servedByCitationsDaily(plan);
  const source = rolled ? rolledCitations : factCitations;
  const types = rolled ? rolledTypes(plan) : typesScope(plan);
  const g = new Grouping({ ...promptKeys, date: dateKey(plan.interval) }, plan.partitions);
  const entity = plan.entity === 'page' ? sql`f.url` : sql`f.root_domain`;
  const owned = plan.scope === 'owned';

  // The window's citations are read once, into one row per partition, entity, model and filter outcome: the
  // counts, the shares' denominators, the models and the ranking all read those few rows.
  const ctes = sql`${promptsCte(plan.categoryId)},
scoped_citations AS (
  SELECT ${g.select()}f.model_id, ${entity} AS entity, f.citation_category, f.executed_at, ${filterPredicate(plan.filter.row, citationsCatalog, filterScope)} AS hit${source.weight}
  FROM ${source.from}
  WHERE ${inWindow(plan)} AND ${types} AND ${filterPredicate(plan.filter.answer, citationsCatalog, filterScope)}
),
cited ${materialized} (
  SELECT ${g.cols()}entity, model_id, hit, ${source.count} AS n, min(executed_at) AS first_at, ${boolOr(sql`citation_category = 'owned'`)} AS owned
  FROM scoped_citations GROUP BY ALL
)`;

  // The scores of the partitions in `pg` (every partition when null): a page scores only its own partitions'
  // entities. The denominators are a few rows per partition, cheaper to count whole than to restrict.
  const scoring = (pg: string | null) => [
    sql`den AS (SELECT ${g.cols()}model_id, CAST(sum(n) AS BIGINT) AS total FROM cited GROUP BY ALL)`,
    sql`models_in AS (SELECT ${g.cols()}count(*) AS models FROM den ${g.groupBy()})`,
    sql`num AS (
  SELECT ${g.cols()}entity, model_id, n, first_at, owned
  FROM cited c${pg === null ? sql`` : sql` ${semiJoin} ${ident(pg)} ON ${g.equal('c', pg)}`} WHERE hit
)`,
    sql`scored AS (
  SELECT ${g.cols()}entity, CAST(sum(n) AS BIGINT) AS count, ${citationShare.sql({ citations: sql`n`, model_citations: sql`total`, models: sql`any_value(models)` })} AS citation_share,
         ${firstCited.sql({ executed_at: sql`first_at` })} AS first_cited_at, ${boolOr(sql`owned`)} AS owned
  FROM (
    SELECT ${everyColumn('num', [...g.names.map((n) => `k_${n}`), 'model_id'])}, den.total, mi.models FROM num
    JOIN den ON ${g.equal('num', 'den')} AND den.model_id = num.model_id
    JOIN models_in mi ON ${g.equal('num', 'mi')}
  )
  GROUP BY ALL
)`,
  ];
  const units: GroupUnits = {
    groups: g,
    partition: g,
    // A partition's rows are its distinct cited entities; those with an owned citation are its units under scope owned.
    counts: sql`SELECT ${g.cols()}count(DISTINCT entity) AS n_all, count(DISTINCT entity)${owned ? sql` FILTER (WHERE owned)` : sql``} AS n_kept
FROM cited WHERE hit ${g.groupBy()}`,
    rowsOf: (pg) => ({ ctes: scoring(pg), from: sql`scored` }),
    within: (x) =>
      citationsRank.order({ count: sql`${ident(x)}.count`, citation_share: sql`${ident(x)}.citation_share` }, [
        sql`${ident(x)}.entity`,
      ]),
    ...(owned ? { kept: (x: string) => sql`${ident(x)}.owned` } : {}),
  };
  const metrics = rowOrder.filter((m) => plan.metrics.includes(m));
  return {
    ctes: sql`${ctes},\n${unitCtes(units)}`,
    shape: shapeOf(plan, g),
    rows: (range) =>
      unitRows(units, range, (t) => [
        ...g.columns(t),
        sql`${ident(t)}.entity`,
        ...metrics.map((m) => sql`${ident(t)}.${ident(m)}`),
      ]),
    total: unitTotal,
    info: sql`SELECT ${modelNames('cited')} AS models`,
    // Every slice would aggregate the window's citations again to rank them, so a stream is one statement
    // (or, led by the date, one per window of days: see byDate).
    sliceUnits: Number.POSITIVE_INFINITY,
  };
}

/** The answer's columns, for fill and compare: a row is its partition's groups and its domain (or page). */
export const citationsAnswer = answerOver((plan: CitationsPlan) => {
  const columns = answerColumns(
    new Grouping({ ...promptKeys, date: dateKey(plan.interval) }, plan.partitions),
    plan.interval,
    rowOrder.filter((m) => m !== 'rank' && plan.metrics.includes(m)),
    ['count'],
  );
  return { ...columns, keys: [...columns.keys, 'entity'] };
});
