import { z } from 'zod';
import type { ValidationIssue } from '../../errors.ts';
import type { FilterCatalog, FilterField } from '../../query/filter-compiler.ts';
import type { FilterNode } from '../../query/filter-node.ts';
import { listTransform, lowerText, struct } from '../../query/dialect.ts';
import { join, list, sql, type Fragment, type SqlValue } from '../../query/sql.ts';
import { v2Report, refuseIssues } from '../v2-report.ts';
import { analysisTypeField } from '../insights/analysis-types.ts';
import {
  checkUnique,
  checkWindow,
  cursorPaging,
  echoFilter,
  filterPredicate,
  insightsFields,
  maxResults,
  pageLimit,
} from '../insights/common.ts';
import { promptFilterFields } from '../insights/dimensions.ts';
import { readLayeredFilter, type FilterRules } from '../insights/layered-filter.ts';
import { inWindow, type WindowScope } from '../insights/scope.ts';
import { answersDaily, answersTable, readsModelAlone } from '../insights/answers-rollup.ts';
import { answerList, answerRows, joinedName, listField, type AnswerField } from './answer-rows.ts';

/** The row fields in the order the public docs list them (info.include). */
const fieldNames = [
  'run_id',
  'date',
  'model',
  'topic',
  'topic_id',
  'persona',
  'region',
  'tags',
  'prompt',
  'prompt_id',
  'response',
  'mentions',
  'citations',
  'search_queries',
  'analysis_types',
] as const;
type FieldName = (typeof fieldNames)[number];

const schema = z.strictObject({
  ...insightsFields,
  include: z.array(z.enum(fieldNames)).min(1).optional().nullable().describe('the row fields to return; omit for all'),
  limit: pageLimit(50, 10),
  max_results: maxResults(),
});

export type AnswersRequest = z.output<typeof schema>;

export interface AnswersPlan extends WindowScope {
  readonly include: readonly FieldName[];
  readonly filter: FilterNode | null;
}

/** `domain` and `page` select answers by an exact cited URL: the page's URL, or its host (ignoring case). */
const citedBy = (match: (values: readonly SqlValue[]) => Fragment): FilterField => ({
  ops: ['is', 'in'],
  valueType: 'string',
  match: (_op, values, scope) =>
    sql`f.id IN (SELECT execution_id FROM citations WHERE category_id = ${scope.categoryId ?? null} AND ${match(values)})`,
});

export const answersCatalog: FilterCatalog = {
  ...promptFilterFields,
  analysis_type: analysisTypeField,
  domain: citedBy(
    (values) =>
      sql`${lowerText(sql`hostname`)} IN (${join(
        values.map((v) => lowerText(sql`${v}`)),
        ', ',
      )})`,
  ),
  page: citedBy((values) => sql`url IN (${list(values)})`),
};

export const answersRules: FilterRules = { catalog: answersCatalog, topLevel: ['domain', 'page'] };

const text = (name: string, value: Fragment): AnswerField => ({ name, value, type: 'text' });

const fields: Record<FieldName, AnswerField> = {
  run_id: text('run_id', sql`CAST(f.id AS VARCHAR)`),
  date: { name: 'date', value: sql`f.executed_at`, type: 'instant' },
  model: {
    name: 'model',
    value: struct([
      ['id', sql`f.model_id`],
      ['name', sql`mo.name`],
    ]),
    joins: ['model'],
    type: {
      struct: [
        { name: 'id', type: 'text' },
        { name: 'name', type: 'text' },
      ],
    },
  },
  topic: joinedName('topic', sql`tp.name`, 'topic'),
  topic_id: text('topic_id', sql`p.topic_id`),
  persona: joinedName('persona', sql`pe.name`, 'persona'),
  region: joinedName('region', sql`rg.name`, 'region'),
  tags: { ...listField('tags', sql`p.tag_names`), joins: ['tags'] },
  prompt: text('prompt', sql`p.prompt`),
  prompt_id: text('prompt_id', sql`f.prompt_id`),
  response: text('response', sql`f.response`),
  mentions: listField('mentions', answerList('mentions')),
  citations: listField('citations', answerList('citations')),
  search_queries: listField('search_queries', answerList('queries')),
  // The v2 vocabulary names the stored `accuracy` type `factcheck`.
  analysis_types: listField(
    'analysis_types',
    listTransform(sql`p.analysis_types`, 't', sql`CASE WHEN t = 'accuracy' THEN 'factcheck' ELSE t END`),
  ),
};

function check(req: AnswersRequest, parsedFilter: ReturnType<typeof readLayeredFilter>): ValidationIssue[] {
  return [...checkWindow(req), ...checkUnique(req.include, 'include'), ...parsedFilter.issues];
}

export const promptAnswersReport = v2Report<AnswersRequest, AnswersPlan, z.input<typeof schema>>({
  id: 'prompt-answers.v2',
  path: '/v2/prompts/answers',
  streamPath: '/v2/prompts/answers/stream',
  name: 'promptAnswers',
  summary: 'Prompt answers: the raw answers (one row per run), newest first',
  tags: ['Reports v2'],
  schema,
  paging: cursorPaging(10),
  read(req, ctx) {
    const parsedFilter = readLayeredFilter(req.filter, answersRules);
    refuseIssues(check(req, parsedFilter));
    return {
      organizationId: ctx.organizationId,
      categoryId: req.category_id,
      startDate: req.start_date,
      endDate: req.end_date,
      include: fieldNames.filter((f) => !req.include || req.include.includes(f)),
      filter: parsedFilter.filter.node,
    };
  },
  byDate: {
    order: () => 'newest first',
    window: (plan) => ({ startDate: plan.startDate, endDate: plan.endDate }),
    within: (plan, start, end) => ({ ...plan, startDate: start, endDate: end }),
  },
  rollups: (plan) => (readsModelAlone(plan.filter) ? [{ def: answersDaily, scopeId: plan.categoryId }] : []),
  compile(plan, rollups) {
    const filter = filterPredicate(plan.filter, answersCatalog, {
      organizationId: plan.organizationId,
      categoryId: plan.categoryId,
    });
    const where = sql`${inWindow(plan)} AND ${filter}`;
    const counted =
      rollups.has(answersDaily.name) && readsModelAlone(plan.filter)
        ? sql`SELECT f.day, f.model_id, CAST(sum(f.answers) AS BIGINT) AS n FROM ${answersTable(answersDaily)} WHERE ${where} GROUP BY f.day, f.model_id`
        : null;
    return answerRows(
      plan.categoryId,
      where,
      plan.include.map((f) => fields[f]),
      counted,
    );
  },
  info(plan, page) {
    return {
      total_results: page.total,
      count: page.count,
      next_cursor: page.nextCursor,
      models: page.sqlInfo.models ?? [],
      include: plan.include,
      start_date: plan.startDate,
      end_date: plan.endDate,
      filter: echoFilter(plan.filter),
    };
  },
});
