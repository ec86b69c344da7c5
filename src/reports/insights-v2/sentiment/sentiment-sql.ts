import { jsonText, orderedList, semiJoin } from '../../../query/dialect.ts';
import { field, object, value, type RowShape } from '../../../query/row-shape.ts';
import { ident, join, sql, type Fragment } from '../../../query/sql.ts';
import type { ShapedReport } from '../../rows-query.ts';
import { filterPredicate } from '../../insights/common.ts';
import { Grouping } from '../../insights/group-keys.ts';
import {
  countGroups,
  countRows,
  matching,
  unitCtes,
  unitRows,
  unitTotal,
  type GroupUnits,
  type RowExtras,
} from '../../insights/group-units.ts';
import { partColumns, partFields, type RatioPart } from '../../insights/ratio-parts.ts';
import { inWindowAt, modelNames, promptsCte, type WindowScope } from '../../insights/scope.ts';
import { sentimentDaily, sentimentDailyTable, servedBySentimentDaily } from '../../insights/sentiment-rollup.ts';
import {
  assessmentDims,
  maxCitedWebsites,
  sentimentCatalog,
  sentimentGrouping,
  sentimentKeys,
  type SentimentPlan,
} from './sentiment-plan.ts';
import { declaredMetric, type DeclaredMetric } from '../../../query/metric-sql.ts';
import { declaredRank } from '../../../query/measure-sql.ts';

export {
  assessmentDims,
  maxCitedWebsites,
  sentimentCatalog,
  sentimentGrouping,
  sentimentMetrics,
  sentimentRules,
  type SentimentMetric,
  type SentimentPlan,
} from './sentiment-plan.ts';

type Window = Omit<WindowScope, 'organizationId'>;

const declared: Readonly<Record<string, DeclaredMetric>> = {
  positive_sentiment: declaredMetric('positive_sentiment, negative_sentiment', 'positive_sentiment'),
  negative_sentiment: declaredMetric('positive_sentiment, negative_sentiment', 'negative_sentiment'),
  occurrence: declaredMetric('occurrence (sentiment)', 'occurrence'),
};
const sentimentRank = declaredRank('rank (sentiment)', 'rank');

/** A row's assessments `n`, the positive ones, its answers and its group's answers `d.answers`, over the counts `c` (or `t`). */
const countsOf = (t: string) => ({
  assessments: sql`${ident(t)}.n`,
  positive: sql`${ident(t)}.positive`,
  answers: sql`${ident(t)}.answers`,
  group_answers: sql`d.answers`,
});

/** The parts of the requested percentages over the scored row `t` (components; occurrence takes none, see sentiment.ts). */
function sentimentParts(plan: SentimentPlan, t: string): RatioPart[] {
  if (!plan.components) return [];
  const ratios = ['positive_sentiment', 'negative_sentiment'];
  return plan.metrics.filter((m) => ratios.includes(m)).map((m) => ({ ratio: m, ...declared[m]!.terms(countsOf(t)) }));
}

function shapeOf(plan: SentimentPlan, g: Grouping): RowShape {
  const metrics = (prefix: string) => plan.metrics.map((m) => field(m, value(`${prefix}${m}`, 'float')));
  return {
    fields: [
      ...g.shape(),
      field('rank', value('rank', 'integer')),
      ...metrics(''),
      ...partFields(sentimentParts(plan, 't')),
      ...(plan.comparison ? [field('previous', object(metrics('previous_'), 'previous_n'))] : []),
      ...(plan.citedWebsites ? [field('cited_websites', value('cited_websites', { list: 'text' }, 'json'))] : []),
    ],
  };
}

/**
 * Sentiment: the positive and negative assessments of one brand (or, grouped by competitor, of each
 * other brand) in the answers to sentiment prompts, per group, as percentages that sum to 100. In the
 * citation source mode the rows are the cited pages: each assessment counts for every page its answer
 * cites. Theme and claim leaves pick assessments; the other leaves pick answers, and only they scope
 * occurrence's denominator (the answers with any assessment of the brand in the row's group). Groups
 * rank within their date bucket (or the whole window); a page scores only its own date buckets, and
 * its comparison figures and cited websites only for its own groups.
 */
export function compileSentiment(plan: SentimentPlan, rollups: ReadonlySet<string>): ShapedReport {
  const filterScope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const g = sentimentGrouping(plan);
  const answers = g.without(...assessmentDims);
  const partition = new Grouping(sentimentKeys(plan.interval, plan.categoryId), g.has('date') ? ['date'] : []);
  const brands = g.has('competitor')
    ? sql`f.asset_id IN (SELECT id FROM assets WHERE category_id = ${plan.categoryId}) AND f.asset_id NOT IN (SELECT id FROM target)`
    : sql`f.asset_id IN (SELECT id FROM target)`;
  const rolled = rollups.has(sentimentDaily.name) && servedBySentimentDaily(plan);
  const assessments = (w: Window) =>
    rolled
      ? sql`
  SELECT ${g.select()}f.model_id, f.n AS w, f.positive AS w_positive, TRUE AS hit
  FROM ${sentimentDailyTable}
  WHERE ${inWindowAt('f', w)} AND ${brands} AND ${filterPredicate(plan.filter.answer, sentimentCatalog, filterScope)}`
      : sql`
  SELECT ${g.select()}f.execution_id, f.model_id, f.sentiment_type, ${filterPredicate(plan.filter.row, sentimentCatalog, filterScope)} AS hit
  FROM sentiments f JOIN scope_prompts p ON p.id = f.prompt_id${
    plan.source === 'citation'
      ? sql`
  JOIN (SELECT DISTINCT execution_id, url FROM citations ct WHERE ${inWindowAt('ct', w)}) ct ON ct.execution_id = f.execution_id`
      : sql``
  }
  WHERE ${inWindowAt('f', w)} AND ${brands} AND ${filterPredicate(plan.filter.answer, sentimentCatalog, filterScope)}`;
  // Answer keys scope both the counts and occurrence's denominator, so restricting assessments by them is exact.
  const occurrence = plan.metrics.includes('occurrence');
  // negative_sentiment is 100 − positive_sentiment (not its own ratio), so the two add up to exactly 100.
  // Every group has its answer keys' denominator row, so without occurrence the join is left out.
  const scored = (from: Fragment) => sql`
  SELECT c.*, ${declared.positive_sentiment!.sql(countsOf('c'))} AS positive_sentiment, ${declared.negative_sentiment!.sql(countsOf('c'))} AS negative_sentiment${
    occurrence
      ? sql`,
         ${declared.occurrence!.sql(countsOf('c'))} AS occurrence`
      : sql``
  }
  FROM (
    SELECT ${g.cols()}${rolled ? sql`CAST(sum(w) AS BIGINT) AS n, CAST(sum(w_positive) AS BIGINT) AS positive` : sql`count(*) AS n, count(*) FILTER (WHERE sentiment_type = 'positive') AS positive`}${occurrence ? sql`, count(DISTINCT execution_id) AS answers` : sql``}
    FROM ${from} WHERE hit ${g.groupBy()}
  ) c${
    occurrence
      ? sql`
  JOIN (SELECT ${answers.cols()}count(DISTINCT execution_id) AS answers FROM ${from} ${answers.groupBy()}) d ON ${answers.equal('c', 'd')}`
      : sql``
  }`;

  const ctes: Fragment[] = [
    promptsCte(plan.categoryId, 'sentiment'),
    sql`target AS (SELECT id, name FROM assets WHERE category_id = ${plan.categoryId} AND (name = ${plan.asset} OR id = ${plan.asset}))`,
    sql`scoped_assessments AS (${assessments(plan)})`,
  ];
  if (plan.comparison)
    ctes.push(sql`compared_assessments AS (${assessments({ categoryId: plan.categoryId, ...plan.comparison })})`);
  // Without date buckets every group is ranked against all others, so they are scored once for the count and
  // the rows; with them, a group is a row when it has an assessment the filter keeps, and a page scores only
  // its own buckets.
  if (partition.empty) ctes.push(sql`cur AS (${scored(ident('scoped_assessments'))})`);
  const units: GroupUnits = {
    groups: g,
    partition,
    counts: partition.empty
      ? countRows(sql`cur`, partition)
      : countGroups('scoped_assessments', g, partition, sql`hit`),
    rowsOf: (pg) =>
      pg === null
        ? { ctes: [], from: sql`cur` }
        : { ctes: [sql`cur AS (${scored(matching('scoped_assessments', partition, pg))})`], from: sql`cur` },
    within: (x) => sentimentRank.order({ assessments: sql`${ident(x)}.n` }, g.order(x)),
    withinLookups: (x) => g.orderLookups(x),
  };
  const extras: RowExtras = {
    ctes: (t) => [
      ...(plan.comparison ? [sql`prev AS (${scored(matching('compared_assessments', answers, t))})`] : []),
      ...(plan.citedWebsites
        ? [
            sql`sites AS (
  SELECT ${g.cols()}${orderedList(sql`url`, [{ by: sql`answers`, desc: true }, { by: sql`url` }])} AS cited_websites
  FROM (
    SELECT *, row_number() OVER (${g.partition()}ORDER BY answers DESC, url) AS place
    FROM (
      SELECT ${g.cols('h')}ct.url, count(DISTINCT h.execution_id) AS answers
      FROM (SELECT DISTINCT ${g.cols('x')}x.execution_id FROM scoped_assessments x ${semiJoin} ${ident(t)} ON ${g.equal('x', t)} WHERE x.hit) h
      JOIN citations ct ON ct.execution_id = h.execution_id AND ${inWindowAt('ct', plan)}
      GROUP BY ALL
    )
  )
  WHERE place <= ${maxCitedWebsites}
  GROUP BY ALL
)`,
          ]
        : []),
    ],
    joins: (t) =>
      join(
        [
          ...(plan.comparison ? [sql`LEFT JOIN prev pr ON ${g.equal('pr', t)}`] : []),
          ...(plan.citedWebsites ? [sql`LEFT JOIN sites w ON ${g.equal('w', t)}`] : []),
        ],
        '\n',
      ),
  };
  const metrics = (alias: string, prefix: string) =>
    plan.metrics.map((m) => sql`${ident(alias)}.${ident(m)} AS ${ident(`${prefix}${m}`)}`);
  const columns = (t: string) => [
    ...g.columns(t),
    sql`${ident(t)}.rank`,
    ...metrics(t, ''),
    ...partColumns(sentimentParts(plan, t)),
    ...(plan.comparison ? [sql`pr.n AS previous_n`, ...metrics('pr', 'previous_')] : []),
    ...(plan.citedWebsites ? [sql`${jsonText(sql`coalesce(w.cited_websites, [])`)} AS cited_websites`] : []),
  ];
  return {
    ctes: sql`${join(ctes, ',\n')},\n${unitCtes(units)}`,
    shape: shapeOf(plan, g),
    rows: (range) => unitRows(units, range, columns, extras),
    total: unitTotal,
    info: sql`SELECT (SELECT name FROM target) AS asset, ${modelNames('scoped_assessments')} AS models`,
    // Groups rank by their counts over the whole window, so every slice would count them all again: a stream
    // is one statement (or, with date buckets, one per window of days: see byDate).
    sliceUnits: Number.POSITIVE_INFINITY,
  };
}
