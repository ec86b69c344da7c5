import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../errors.ts';
import type { FilterCatalog } from '../../query/filter-compiler.ts';
import { refField } from '../../query/filter-fields.ts';
import { zDate, laxBool } from '../../query/schema-types.ts';
import { duckdb } from '../../query/dialect.ts';
import { field, object, value, type RowShape } from '../../query/row-shape.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import type { CalendarInterval } from '../../query/time.ts';
import type { DataGuard, PagedReport } from '../paged-report.ts';
import type { ShapedReport } from '../rows-query.ts';
import { categoryOwned, checkUnique, checkWindow, cursorPaging, echoFilter, filterPredicate, insightsFields, maxResults, pageLimit, windowedByDate } from './common.ts';
import { promptFilterFields } from './dimensions.ts';
import { dateKey, Grouping, promptKeys, refKey, textKey, type GroupKey } from './group-keys.ts';
import { countGroups, countRows, matching, unitCtes, unitRows, unitTotal, type GroupUnits, type RowExtras } from './group-units.ts';
import { readLayeredFilter, type FilterRules, type LayeredFilter } from './layered-filter.ts';
import { inWindow, inWindowAt, modelNames, promptsCte, type WindowScope } from './scope.ts';

const metricNames = ['positive_sentiment', 'negative_sentiment', 'occurrence'] as const;
type Metric = (typeof metricNames)[number];
const groupDims = ['date', 'topic', 'region', 'model', 'prompt', 'persona', 'tag', 'theme', 'claim', 'run', 'competitor'] as const;

/** Grouping by these reads the assessments themselves, not the answers: occurrence counts answers without them. */
const assessmentDims: readonly string[] = ['theme', 'claim'];

/** cited_websites lists the pages most cited by the answers behind a row. */
export const maxCitedWebsites = 10;

const schema = z.strictObject({
  ...insightsFields,
  asset: z.string().min(1).describe('the brand, by name (or id)'),
  source: z.enum(['asset', 'citation']).optional().nullable().describe('default asset; citation ranks the cited pages by the sentiment of the answers citing them'),
  group_by: z.array(z.enum(groupDims)).max(2).optional().nullable(),
  metrics: z.array(z.enum(metricNames)).min(1).optional().nullable().describe('default positive_sentiment, negative_sentiment; occurrence needs a theme or claim grouping or filter'),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  comparison_start_date: zDate().optional().nullable().describe('YYYY-MM-DD, America/New_York, inclusive: adds a previous block to each row'),
  comparison_end_date: zDate().optional().nullable(),
  include_cited_websites: laxBool().optional().nullable().describe('theme or claim grouping only: adds cited_websites to each row'),
  limit: pageLimit(50, 10),
  max_results: maxResults(),
});

export type SentimentRequest = z.output<typeof schema>;

export interface SentimentPlan extends WindowScope {
  readonly asset: string;
  readonly source: 'asset' | 'citation';
  readonly groupBy: readonly string[];
  readonly interval: CalendarInterval;
  readonly metrics: readonly Metric[];
  readonly comparison: { readonly startDate: string; readonly endDate: string } | null;
  readonly citedWebsites: boolean;
  readonly filter: LayeredFilter;
}

const themesTable = { table: 'themes', name: 'name', scope: 'category' } as const;
const claimsTable = { table: 'sentiment_claims', name: 'name', scope: 'category' } as const;
const assetsTable = { table: 'assets', name: 'name', scope: 'category' } as const;

export const sentimentCatalog: FilterCatalog = {
  ...promptFilterFields,
  theme: refField(sql`f.theme_id`, themesTable, ['is', 'in']),
  claim: refField(sql`f.claim_id`, claimsTable, ['is', 'in']),
};

export const sentimentRules: FilterRules = { catalog: sentimentCatalog, rowFields: assessmentDims };

/** A run is shown as `{id, created_at}`: it has no name. */
const runKey = (categoryId: string): GroupKey => ({
  expr: sql`f.execution_id`,
  lookup: (k, d) => sql`LEFT JOIN executions AS ${d} ON ${d}.category_id = ${categoryId} AND ${d}.id = ${k}`,
  order: (k) => [k],
  shape: (col) => [field('run', object([field('id', value(col('id'), 'text')), field('created_at', value(col('created_at'), 'instant'))]))],
  columns: (k, d, col) => [sql`${k} AS ${col('id')}`, sql`${d}.executed_at AS ${col('created_at')}`],
});

const keysOf = (interval: CalendarInterval, categoryId: string): Record<string, GroupKey> => ({
  ...promptKeys,
  date: dateKey(interval),
  theme: refKey('theme', sql`f.theme_id`, themesTable),
  claim: refKey('claim', sql`f.claim_id`, claimsTable),
  run: runKey(categoryId),
  competitor: refKey('competitor', sql`f.asset_id`, assetsTable),
  page: textKey('page', sql`ct.url`),
});

function metricsOf(req: SentimentRequest): Metric[] {
  return req.metrics ? [...new Set(req.metrics)] : ['positive_sentiment', 'negative_sentiment'];
}

type Window = Omit<WindowScope, 'organizationId'>;

function shapeOf(plan: SentimentPlan, g: Grouping): RowShape {
  const metrics = (prefix: string) => plan.metrics.map((m) => field(m, value(`${prefix}${m}`, 'float')));
  return {
    fields: [
      ...g.shape(),
      field('rank', value('rank', 'integer')),
      ...metrics(''),
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
function compile(plan: SentimentPlan): ShapedReport {
  const filterScope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const g = new Grouping(keysOf(plan.interval, plan.categoryId), plan.source === 'citation' ? ['page'] : plan.groupBy);
  const answers = g.without(...assessmentDims);
  const partition = new Grouping(keysOf(plan.interval, plan.categoryId), g.has('date') ? ['date'] : []);
  const brands = g.has('competitor')
    ? sql`f.asset_id IN (SELECT id FROM assets WHERE category_id = ${plan.categoryId}) AND f.asset_id NOT IN (SELECT id FROM target)`
    : sql`f.asset_id IN (SELECT id FROM target)`;
  const assessments = (w: Window) => sql`
  SELECT ${g.select()}f.execution_id, f.model_id, f.sentiment_type, ${filterPredicate(plan.filter.row, sentimentCatalog, filterScope)} AS hit
  FROM sentiments f JOIN p ON p.id = f.prompt_id${plan.source === 'citation' ? sql`
  JOIN (SELECT DISTINCT execution_id, url FROM citations ct WHERE ${inWindowAt('ct', w)}) ct ON ct.execution_id = f.execution_id` : sql``}
  WHERE ${inWindowAt('f', w)} AND ${brands} AND ${filterPredicate(plan.filter.answer, sentimentCatalog, filterScope)}`;
  // Answer keys scope both the counts and occurrence's denominator, so restricting assessments by them is exact.
  const occurrence = plan.metrics.includes('occurrence');
  // negative_sentiment is 100 − positive_sentiment (not its own ratio), so the two add up to exactly 100.
  // Every group has its answer keys' denominator row, so without occurrence the join is left out.
  const scored = (from: Fragment) => sql`
  SELECT c.*, 100 * c.positive / c.n AS positive_sentiment, 100 - 100 * c.positive / c.n AS negative_sentiment${occurrence ? sql`,
         100 * c.answers / d.answers AS occurrence` : sql``}
  FROM (
    SELECT ${g.cols()}count(*) AS n, count(*) FILTER (WHERE sentiment_type = 'positive') AS positive${occurrence ? sql`, count(DISTINCT execution_id) AS answers` : sql``}
    FROM ${from} WHERE hit ${g.groupBy()}
  ) c${occurrence ? sql`
  JOIN (SELECT ${answers.cols()}count(DISTINCT execution_id) AS answers FROM ${from} ${answers.groupBy()}) d ON ${answers.equal('c', 'd')}` : sql``}`;

  const ctes: Fragment[] = [
    promptsCte(plan.categoryId, 'sentiment'),
    sql`target AS (SELECT id, name FROM assets WHERE category_id = ${plan.categoryId} AND (name = ${plan.asset} OR id = ${plan.asset}))`,
    sql`s AS (${assessments(plan)})`,
  ];
  if (plan.comparison) ctes.push(sql`s_prev AS (${assessments({ categoryId: plan.categoryId, ...plan.comparison })})`);
  // Without date buckets every group is ranked against all others, so they are scored once for the count and
  // the rows; with them, a group is a row when it has an assessment the filter keeps, and a page scores only
  // its own buckets.
  if (partition.empty) ctes.push(sql`cur AS (${scored(ident('s'))})`);
  const units: GroupUnits = {
    groups: g,
    partition,
    counts: partition.empty
      ? countRows(sql`cur`, partition)
      : countGroups('s', g, partition, sql`hit`),
    rowsOf: (pg) => (pg === null ? { ctes: [], from: sql`cur` } : { ctes: [sql`cur AS (${scored(matching('s', partition, pg))})`], from: sql`cur` }),
    within: (x) => [sql`${ident(x)}.n DESC`, ...g.order(x)],
    withinLookups: (x) => g.orderLookups(x),
  };
  const extras: RowExtras = {
    ctes: (t) => [
      ...(plan.comparison ? [sql`prev AS (${scored(matching('s_prev', answers, t))})`] : []),
      ...(plan.citedWebsites
        ? [
            sql`sites AS (
  SELECT ${g.cols()}list(url ORDER BY answers DESC, url) AS cited_websites
  FROM (
    SELECT *, row_number() OVER (${g.partition()}ORDER BY answers DESC, url) AS place
    FROM (
      SELECT ${g.cols('h')}ct.url, count(DISTINCT h.execution_id) AS answers
      FROM (SELECT DISTINCT ${g.cols('x')}x.execution_id FROM s x SEMI JOIN ${ident(t)} ON ${g.equal('x', t)} WHERE x.hit) h
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
        [...(plan.comparison ? [sql`LEFT JOIN prev pr ON ${g.equal('pr', t)}`] : []), ...(plan.citedWebsites ? [sql`LEFT JOIN sites w ON ${g.equal('w', t)}`] : [])],
        '\n',
      ),
  };
  const metrics = (alias: string, prefix: string) => plan.metrics.map((m) => sql`${ident(alias)}.${ident(m)} AS ${ident(`${prefix}${m}`)}`);
  const columns = (t: string) => [
    ...g.columns(t),
    sql`${ident(t)}.rank`,
    ...metrics(t, ''),
    ...(plan.comparison ? [sql`pr.n AS previous_n`, ...metrics('pr', 'previous_')] : []),
    ...(plan.citedWebsites ? [sql`${duckdb.jsonText(sql`coalesce(w.cited_websites, [])`)} AS cited_websites`] : []),
  ];
  return {
    ctes: sql`${join(ctes, ',\n')},\n${unitCtes(units)}`,
    shape: shapeOf(plan, g),
    rows: (range) => unitRows(units, range, columns, extras),
    total: unitTotal,
    info: sql`SELECT (SELECT name FROM target) AS asset, ${modelNames('s')} AS models`,
    // Groups rank by their counts over the whole window, so every slice would count them all again: a stream
    // is one statement (or, with date buckets, one per window of days: see byDate).
    sliceUnits: Number.POSITIVE_INFINITY,
  };
}

function check(req: SentimentRequest): ValidationIssue[] {
  const issues = [...checkWindow(req), ...checkUnique(req.group_by, 'group_by'), ...checkUnique(req.metrics, 'metrics')];
  const groupBy = req.group_by ?? [];
  const filter = readLayeredFilter(req.filter, sentimentRules);
  issues.push(...filter.issues);
  const citation = req.source === 'citation';
  if (citation && groupBy.length > 0) issues.push(valueError(['body', 'group_by'], 'the citation source mode ranks cited pages; group_by is not available with it', req.group_by));
  const byAssessment = groupBy.some((d) => assessmentDims.includes(d));
  (req.metrics ?? []).forEach((m, i) => {
    if (m === 'occurrence' && !byAssessment && !filter.filter.row && filter.issues.length === 0) {
      issues.push(valueError(['body', 'metrics', i], 'occurrence needs theme or claim in group_by, or a theme or claim filter', m));
    }
  });
  if (req.include_cited_websites && !byAssessment) {
    issues.push(valueError(['body', 'include_cited_websites'], 'cited_websites is available with theme or claim in group_by only', req.include_cited_websites));
  }
  const start = req.comparison_start_date ?? null;
  const end = req.comparison_end_date ?? null;
  if ((start === null) !== (end === null)) {
    const missing = start === null ? 'comparison_start_date' : 'comparison_end_date';
    issues.push(valueError(['body', missing], 'comparison_start_date and comparison_end_date go together', null));
  } else if (start !== null && end !== null) {
    const window = checkWindow({ start_date: start, end_date: end });
    issues.push(...window.map((i) => ({ ...i, loc: ['body', 'comparison_end_date'] })));
    if (groupBy.includes('date')) issues.push(valueError(['body', 'comparison_start_date'], 'a comparison period cannot be combined with group_by date: its buckets have no counterpart', start));
  }
  return issues;
}

function guards(plan: SentimentPlan): DataGuard[] {
  return [
    {
      query: sql`SELECT count(*) FROM assets WHERE category_id = ${plan.categoryId} AND (name = ${plan.asset} OR id = ${plan.asset})`,
      refuse: (value) => (Number(value) > 0 ? null : valueError(['body', 'asset'], `no brand named '${plan.asset}' is tracked in this category`, plan.asset)),
    },
  ];
}

export const sentimentReport: PagedReport<SentimentRequest, SentimentPlan> = {
  id: 'sentiment.v2',
  path: '/v2/reports/sentiment',
  streamPath: '/v2/reports/sentiment/stream',
  name: 'sentiment',
  summary: 'Sentiment: the positive and negative share of a brand’s assessments in answers, per group, or per cited page',
  tags: ['Reports v2'],
  schema,
  check,
  owned: categoryOwned,
  paging: cursorPaging(10),
  plan(req, ctx) {
    const start = req.comparison_start_date ?? null;
    const end = req.comparison_end_date ?? null;
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      asset: req.asset,
      source: req.source ?? 'asset',
      groupBy: req.group_by ?? [],
      interval: req.interval ?? 'day',
      metrics: metricsOf(req),
      comparison: start !== null && end !== null ? { startDate: start, endDate: end } : null,
      citedWebsites: req.include_cited_websites ?? false,
      filter: readLayeredFilter(req.filter, sentimentRules).filter,
    };
  },
  compile,
  guards,
  byDate: windowedByDate((plan) => (plan.source === 'asset' && plan.groupBy.includes('date') ? plan.interval : null)),
  info(plan, page) {
    return {
      total_results: page.total,
      count: page.count,
      next_cursor: page.nextCursor,
      asset: page.sqlInfo.asset ?? plan.asset,
      source: plan.source,
      models: page.sqlInfo.models ?? [],
      metrics: plan.metrics,
      group_by: plan.groupBy,
      start_date: plan.startDate,
      end_date: plan.endDate,
      comparison_start_date: plan.comparison?.startDate ?? null,
      comparison_end_date: plan.comparison?.endDate ?? null,
      filter: echoFilter(plan.filter.node),
    };
  },
};
