import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../../errors.ts';
import type { FilterNode } from '../../../query/filter-node.ts';
import { field, value } from '../../../query/row-shape.ts';
import { ident, join, sql, type Fragment } from '../../../query/sql.ts';
import type { CalendarInterval } from '../../../query/time.ts';
import { v2Report, refuseIssues } from '../../v2-report.ts';
import type { ShapedReport } from '../../rows-query.ts';
import { claimFilterFields, readClaimFilter } from './claim-filter.ts';
import { partColumns, partFields, ratioComponents, withParts, type RatioPart } from '../../insights/ratio-parts.ts';
import { factcheckKeys } from './factcheck-keys.ts';
import { factcheckAnswers } from '../../insights/factcheck-rollup.ts';
import { answersTable, readsModelAlone } from '../../insights/answers-rollup.ts';
import {
  answerColumns,
  answerOver,
  checkUnique,
  checkWindow,
  cursorPaging,
  echoFilter,
  filterPredicate,
  insightsFields,
  maxResults,
  pageLimit,
  windowedByDate,
} from '../../insights/common.ts';
import { Grouping } from '../../insights/group-keys.ts';
import {
  countGroups,
  countRows,
  matching,
  unitCtes,
  unitRows,
  unitTotal,
  type GroupUnits,
} from '../../insights/group-units.ts';
import { inWindow, inWindowAt, modelNames, promptsCte, type WindowScope } from '../../insights/scope.ts';
import { declaredMetric } from '../../../query/metric-sql.ts';

const accuracyOfClaims = declaredMetric('accuracy, accurate, inaccurate', 'accuracy');
const accuracyByCitation = declaredMetric('accuracy, accurate, inaccurate by citation', 'accuracy');

const groupDims = ['date', 'model', 'region', 'persona', 'prompt', 'topic', 'tag', 'theme', 'citation'] as const;
type FactcheckDimension = (typeof groupDims)[number];

const schema = z.strictObject({
  ...insightsFields,
  group_by: z
    .array(z.enum(groupDims))
    .max(2)
    .optional()
    .nullable()
    .describe('0 to 2 dimensions, or exactly [citation]'),
  interval: z.enum(['day', 'week', 'month']).optional().nullable(),
  limit: pageLimit(50, 10),
  max_results: maxResults(),
});

export type FactcheckRequest = z.output<typeof schema>;

export interface FactcheckPlan extends WindowScope {
  readonly groupBy: readonly FactcheckDimension[];
  readonly interval: CalendarInterval;
  readonly filter: FilterNode | null;
}

/**
 * Fact-check scores: accurate and inaccurate claim occurrences in the answers to fact-check prompts,
 * per group. The occurrences are those the claims report lists and sections, so a group's figures equal
 * the claims report's section of the same value. Grouped by citation, an occurrence counts for every
 * page its answer cites, and pages come most cited first. Groups led by the date bucket are counted
 * per bucket, and a page scores only its own buckets; otherwise a top-N picks the page's groups.
 */

function compile(plan: FactcheckPlan, rollups: ReadonlySet<string>): ShapedReport {
  const filterScope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const filter = filterPredicate(plan.filter, claimFilterFields, filterScope);
  const keys = factcheckKeys(plan.interval, plan.categoryId);
  const g = new Grouping(keys, plan.groupBy);
  const partition = new Grouping(keys, plan.groupBy[0] === 'date' ? ['date'] : []);
  const cited = g.has('citation')
    ? sql`
  JOIN (SELECT DISTINCT execution_id, url FROM citations ct WHERE ${inWindowAt('ct', plan)}) ct ON ct.execution_id = f.execution_id`
    : sql``;

  const ctes: Fragment[] = [
    promptsCte(plan.categoryId, 'accuracy'),
    rollups.has(factcheckAnswers.name) && readsModelAlone(plan.filter)
      ? sql`scoped_answers AS (SELECT f.model_id FROM ${answersTable(factcheckAnswers)} WHERE ${inWindow(plan)} AND ${filter})`
      : sql`scoped_answers AS (
  SELECT f.model_id FROM executions f JOIN scope_prompts p ON p.id = f.prompt_id WHERE ${inWindow(plan)} AND ${filter}
)`,
    sql`scoped_occurrences AS (
  SELECT ${g.select()}f.accurate
  FROM claim_occurrences f JOIN scope_prompts p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id${cited}
  WHERE ${inWindow(plan)} AND ${filter}
)`,
  ];
  const scores = (from: Fragment) =>
    sql`SELECT ${g.cols()}count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM ${from} ${g.groupBy()}`;
  if (partition.empty) ctes.push(sql`accuracy_scores AS (${scores(ident('scoped_occurrences'))})`);
  const units: GroupUnits = {
    groups: g,
    partition,
    counts: partition.empty
      ? countRows(sql`accuracy_scores`, partition)
      : countGroups('scoped_occurrences', g, partition),
    rowsOf: (pg) =>
      pg === null
        ? { ctes: [], from: sql`accuracy_scores` }
        : {
            ctes: [sql`accuracy_scores AS (${scores(matching('scoped_occurrences', partition, pg))})`],
            from: sql`accuracy_scores`,
          },
    within: (x) =>
      g.has('citation') ? [sql`${ident(x)}.accurate + ${ident(x)}.inaccurate DESC`, g.col('citation', x)] : g.order(x),
    withinLookups: (x) => g.orderLookups(x),
  };
  const accuracy = g.has('citation') ? accuracyByCitation : accuracyOfClaims;
  const counts = (t: string) => ({ accurate: sql`${ident(t)}.accurate`, inaccurate: sql`${ident(t)}.inaccurate` });
  const parts = (t: string): RatioPart[] =>
    plan.components ? [{ ratio: 'accuracy', ...accuracy.terms(counts(t)) }] : [];
  return {
    ctes: sql`${join(ctes, ',\n')},\n${unitCtes(units)}`,
    shape: {
      fields: [
        ...g.shape(),
        field('accuracy', value('accuracy', 'float')),
        field('accurate', value('accurate', 'integer')),
        field('inaccurate', value('inaccurate', 'integer')),
        ...partFields(parts('t')),
      ],
    },
    rows: (range) =>
      unitRows(units, range, (t) => [
        ...g.columns(t),
        sql`${accuracy.sql(counts(t))} AS accuracy`,
        sql`${ident(t)}.accurate`,
        sql`${ident(t)}.inaccurate`,
        ...partColumns(parts(t)),
      ]),
    total: unitTotal,
    info: sql`SELECT ${modelNames('scoped_answers')} AS models`,
    // Pages of citations come most cited first over the whole window and other groups in key order, both
    // known only once every occurrence is counted: a stream is one statement (led by the date, one per window).
    sliceUnits: Number.POSITIVE_INFINITY,
  };
}

function check(req: FactcheckRequest, parsedFilter: ReturnType<typeof readClaimFilter>): ValidationIssue[] {
  const issues = [...checkWindow(req), ...checkUnique(req.group_by, 'group_by')];
  const groupBy = req.group_by ?? [];
  if (groupBy.includes('citation') && groupBy.length > 1) {
    issues.push(
      valueError(
        ['body', 'group_by'],
        'citation is grouped alone: group_by takes up to two of date, model, region, persona, prompt, topic, tag, theme, or exactly [citation]',
        req.group_by,
      ),
    );
  }
  issues.push(...parsedFilter.issues);
  return issues;
}

export const factcheckReport = v2Report<FactcheckRequest, FactcheckPlan, z.input<typeof schema>>({
  id: 'factcheck.v2',
  path: '/v2/reports/factcheck',
  streamPath: '/v2/reports/factcheck/stream',
  name: 'factcheck',
  summary: 'Fact-check scores: accuracy, accurate and inaccurate claim occurrences, per group or per cited page',
  tags: ['Reports v2'],
  schema,
  rollups: (plan) => (readsModelAlone(plan.filter) ? [{ def: factcheckAnswers, scopeId: plan.categoryId }] : []),
  paging: cursorPaging(10),
  read(req, ctx) {
    const parsedFilter = readClaimFilter(req.filter);
    refuseIssues(check(req, parsedFilter));
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      groupBy: req.group_by ?? [],
      interval: req.interval ?? 'day',
      filter: parsedFilter.node,
    };
  },
  compile,
  answer: answerOver((plan) =>
    withParts(
      answerColumns(
        new Grouping(factcheckKeys(plan.interval, plan.categoryId), plan.groupBy),
        plan.interval,
        ['accuracy', 'accurate', 'inaccurate'],
        ['accurate', 'inaccurate'],
      ),
      plan.components ? ['accuracy'] : [],
    ),
  ),
  components: ratioComponents<FactcheckPlan>(),
  byDate: windowedByDate((plan) => (plan.groupBy[0] === 'date' ? plan.interval : null)),
  info(plan, page) {
    return {
      total_results: page.total,
      count: page.count,
      next_cursor: page.nextCursor,
      models: page.sqlInfo.models ?? [],
      group_by: plan.groupBy,
      start_date: plan.startDate,
      end_date: plan.endDate,
      filter: echoFilter(plan.filter),
    };
  },
});
