import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../errors.ts';
import type { FilterNode } from '../../query/filter-node.ts';
import { join, sql } from '../../query/sql.ts';
import type { CalendarInterval } from '../../query/time.ts';
import type { PagedReport } from '../paged-report.ts';
import { claimFilterFields, readClaimFilter } from './claim-filter.ts';
import { categoryOwned, checkUnique, checkWindow, cursorPaging, echoFilter, filterPredicate, insightsFields, maxResults, pageLimit } from './common.ts';
import { dateKey, Grouping, promptKeys, type GroupKey } from './group-keys.ts';
import { inWindow, inWindowAt, modelNames, promptsCte, type WindowScope } from './scope.ts';

const groupDims = ['date', 'model', 'region', 'persona', 'prompt', 'topic', 'tag', 'theme', 'citation'] as const;
type FactcheckDimension = (typeof groupDims)[number];

const schema = z.strictObject({
  ...insightsFields,
  group_by: z.array(z.enum(groupDims)).max(2).optional().nullable().describe('0 to 2 dimensions, or exactly [citation]'),
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

/** A claim's theme is text on its cluster; its id is the category's theme of that name, when there is one. */
const themeKey = (categoryId: string): GroupKey => ({
  expr: sql`cc.theme`,
  lookup: (k, d) => sql`LEFT JOIN (SELECT name, min(id) AS id FROM themes WHERE category_id = ${categoryId} GROUP BY name) AS ${d} ON ${d}.name = ${k}`,
  fields: (k, d) => sql`'theme', CASE WHEN ${k} IS NULL THEN NULL ELSE json_object('id', ${d}.id, 'name', ${k}) END`,
  order: (k) => [sql`${k} NULLS LAST`],
});

/** A cited page (`ct`, the distinct pages of the claim's answer), shown with its citation category. */
const citationKey = (categoryId: string): GroupKey => ({
  expr: sql`ct.url`,
  lookup: (k, d) => sql`LEFT JOIN (SELECT url, min(citation_category) AS citation_category FROM citations WHERE category_id = ${categoryId} GROUP BY url) AS ${d} ON ${d}.url = ${k}`,
  fields: (k, d) => sql`'citation', json_object('url', ${k}, 'citation_category', ${d}.citation_category)`,
  order: (k) => [k],
});

/**
 * Fact-check scores: accurate and inaccurate claim occurrences in the answers to fact-check prompts,
 * per group. The occurrences are those the claims report lists and sections, so a group's figures equal
 * the claims report's section of the same value. Grouped by citation, an occurrence counts for every
 * page its answer cites.
 */
function compile(plan: FactcheckPlan) {
  const filterScope = { organizationId: plan.organizationId, categoryId: plan.categoryId };
  const filter = filterPredicate(plan.filter, claimFilterFields, filterScope);
  const g = new Grouping({ ...promptKeys, date: dateKey(plan.interval), theme: themeKey(plan.categoryId), citation: citationKey(plan.categoryId) }, plan.groupBy);
  const cited = g.has('citation')
    ? sql`
  JOIN (SELECT DISTINCT execution_id, url FROM citations ct WHERE ${inWindowAt('ct', plan)}) ct ON ct.execution_id = f.execution_id`
    : sql``;

  const ctes = sql`${promptsCte(plan.categoryId, 'accuracy')},
e AS (
  SELECT f.model_id FROM executions f JOIN p ON p.id = f.prompt_id WHERE ${inWindow(plan)} AND ${filter}
),
o AS (
  SELECT ${g.select()}f.accurate
  FROM claim_occurrences f JOIN p ON p.id = f.prompt_id JOIN claim_clusters cc ON cc.id = f.cluster_id${cited}
  WHERE ${inWindow(plan)} AND ${filter}
),
s AS (
  SELECT ${g.cols()}count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM o ${g.groupBy()}
)`;

  const order = g.has('citation') ? [sql`r.accurate + r.inaccurate DESC`, g.col('citation', 'r')] : g.order('r');
  const fields = [...g.fields('r'), sql`'accuracy', r.accurate / (r.accurate + r.inaccurate), 'accurate', r.accurate, 'inaccurate', r.inaccurate`];
  const rows = sql`SELECT row_number() OVER (ORDER BY ${order.length > 0 ? join(order, ', ') : sql`1`}) AS unit, 0 AS seq,
       json_object(${join(fields, ', ')})::VARCHAR AS row
FROM s r
${g.lookups('r')}`;

  const info = sql`SELECT json_object('models', ${modelNames('e')})`;
  return { ctes, rows, info };
}

function check(req: FactcheckRequest): ValidationIssue[] {
  const issues = [...checkWindow(req), ...checkUnique(req.group_by, 'group_by')];
  const groupBy = req.group_by ?? [];
  if (groupBy.includes('citation') && groupBy.length > 1) {
    issues.push(valueError(['body', 'group_by'], 'citation is grouped alone: group_by takes up to two of date, model, region, persona, prompt, topic, tag, theme, or exactly [citation]', req.group_by));
  }
  issues.push(...readClaimFilter(req.filter).issues);
  return issues;
}

export const factcheckReport: PagedReport<FactcheckRequest, FactcheckPlan> = {
  id: 'factcheck.v2',
  path: '/v2/reports/factcheck',
  streamPath: '/v2/reports/factcheck/stream',
  name: 'factcheck',
  summary: 'Fact-check scores: accuracy, accurate and inaccurate claim occurrences, per group or per cited page',
  tags: ['Reports v2'],
  schema,
  check,
  owned: categoryOwned,
  paging: cursorPaging(10),
  plan(req, ctx) {
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      groupBy: req.group_by ?? [],
      interval: req.interval ?? 'day',
      filter: readClaimFilter(req.filter).node,
    };
  },
  compile,
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
};
