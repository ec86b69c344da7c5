import { z } from 'zod';
import { compileFilter } from '../../query/filter-compiler.ts';
import { flatFiltersSchema, flatToNode, idField, nameField, readFlatFilters, type FlatCatalog, type FlatFilter } from '../../query/flat-filters.ts';
import { etZone, type InstantWindow } from '../../query/instants.ts';
import { laxBool, zUuid } from '../../query/schema-types.ts';
import { render, sql } from '../../query/sql.ts';
import { parseWith } from '../../query/validation.ts';
import type { CallContext, Endpoint, EndpointInput, EndpointResult } from '../endpoint.ts';
import { authorize, pagedSql } from '../paged-report.ts';
import { answerFilterFields, pick } from '../tabular-v1/insights-common.ts';
import { pageWindow, throwIfAny } from '../tabular/tabular-report.ts';
import { Issues, paginationSchema, readPagination, readWindow, zInstantText, type Pagination } from '../tabular/tabular-request.ts';
import { answerList, answerRows, isoInstant, type AnswerField } from './answer-rows.ts';

/** The include keys of the official client, alphabetical as it lists them; prompt_type and themes are deprecated. */
const includeKeys = [
  'analysis_types',
  'asset',
  'asset_id',
  'citations',
  'created_at',
  'mentions',
  'model',
  'model_id',
  'persona',
  'prompt',
  'prompt_id',
  'prompt_type',
  'region',
  'response',
  'run_id',
  'search_queries',
  'search_triggered',
  'sentiment_themes',
  'tags',
  'themes',
  'topic',
  'topic_id',
] as const;
type IncludeKey = (typeof includeKeys)[number];
const offByDefault: readonly IncludeKey[] = ['prompt_type', 'themes'];

const flag = () => laxBool().optional().nullable();
const includeShape = Object.fromEntries(includeKeys.map((k) => [k, flag()])) as unknown as { [K in IncludeKey]: ReturnType<typeof flag> };

const schema = z.strictObject({
  category_id: zUuid(),
  start_date: zInstantText(),
  end_date: zInstantText().describe('exclusive; a date alone is the start of that day in America/New_York'),
  filters: flatFiltersSchema().optional().nullable(),
  include: z
    .strictObject(includeShape)
    .optional()
    .nullable()
    .describe('true adds a field, false drops it; every field but the deprecated prompt_type and themes is on by default'),
  pagination: paginationSchema().optional().nullable(),
});

type AnswersV1Request = z.output<typeof schema>;

const assetsTable = { table: 'assets', name: 'name', scope: 'category' } as const;

const catalog: FlatCatalog = {
  ...pick(answerFilterFields, ['region_id', 'region_name', 'model_id', 'tag_id', 'analysis_type', 'prompt', 'persona_id', 'topic_id']),
  asset_id: idField(sql`p.asset_id`),
  asset_name: nameField(sql`p.asset_id`, assetsTable),
};

const fields: Record<IncludeKey, AnswerField> = {
  analysis_types: { name: 'analysis_types', value: sql`p.analysis_types` },
  asset: { name: 'asset', value: sql`pa.name` },
  asset_id: { name: 'asset_id', value: sql`p.asset_id` },
  citations: { name: 'citations', value: answerList('citations') },
  created_at: { name: 'created_at', value: isoInstant(sql`f.executed_at`) },
  mentions: { name: 'mentions', value: answerList('mentions') },
  model: { name: 'model', value: sql`mo.name` },
  model_id: { name: 'model_id', value: sql`f.model_id` },
  persona: { name: 'persona', value: sql`pe.name` },
  prompt: { name: 'prompt', value: sql`p.prompt` },
  prompt_id: { name: 'prompt_id', value: sql`f.prompt_id` },
  prompt_type: { name: 'prompt_type', value: sql`p.prompt_type` },
  region: { name: 'region', value: sql`rg.name` },
  response: { name: 'response', value: sql`f.response` },
  run_id: { name: 'run_id', value: sql`CAST(f.id AS VARCHAR)` },
  search_queries: { name: 'search_queries', value: answerList('queries') },
  search_triggered: { name: 'search_triggered', value: sql`f.search_triggered` },
  sentiment_themes: { name: 'sentiment_themes', value: answerList('themes') },
  tags: { name: 'tags', value: sql`p.tag_names` },
  themes: { name: 'themes', value: answerList('themes', 'names') },
  topic: { name: 'topic', value: sql`tp.name` },
  topic_id: { name: 'topic_id', value: sql`p.topic_id` },
};

export interface AnswersV1Plan {
  readonly organizationId: string;
  readonly categoryId: string;
  readonly window: InstantWindow;
  readonly filters: readonly FlatFilter[];
  readonly include: readonly IncludeKey[];
  readonly pagination: Pagination;
}

export function planAnswersV1(req: AnswersV1Request, ctx: { organizationId: string; now: Date }): AnswersV1Plan {
  const issues = new Issues();
  const { window } = readWindow(req.start_date, req.end_date, etZone, ctx.now, issues);
  const { filters, issues: filterIssues } = readFlatFilters(req.filters, catalog, []);
  issues.add(...filterIssues);
  throwIfAny(issues);
  const flags: Partial<Record<IncludeKey, boolean | null>> = req.include ?? {};
  return {
    organizationId: ctx.organizationId,
    categoryId: req.category_id,
    window,
    filters,
    include: includeKeys.filter((k) => flags[k] ?? !offByDefault.includes(k)),
    pagination: readPagination(req.pagination, 'page'),
  };
}

export function compileAnswersV1(plan: AnswersV1Plan) {
  const node = flatToNode(plan.filters);
  const filter = node ? compileFilter(node, catalog, { organizationId: plan.organizationId, categoryId: plan.categoryId }) : sql`TRUE`;
  const where = sql`f.category_id = ${plan.categoryId} AND f.executed_at >= CAST(${plan.window.start} AS TIMESTAMPTZ) AND f.executed_at < CAST(${plan.window.end} AS TIMESTAMPTZ) AND ${filter}`;
  return answerRows(plan.categoryId, where, plan.include.map((k) => fields[k]));
}

/**
 * POST /v1/prompts/answers as the official client calls it: v1 flat filters, an include map of
 * booleans, offset pagination and `{info: {total_rows}, data}`. The window is `[start_date, end_date)`.
 */
export const promptAnswersV1Endpoint: Endpoint = {
  method: 'POST',
  path: '/v1/prompts/answers',
  name: 'promptAnswersV1',
  group: 'reports',
  summary: 'Prompt answers (v1): the raw answers (one row per run), newest first, with offset pagination',
  tags: ['Reports v1'],
  stream: false,
  schemas: { body: schema },
  async handle(input: EndpointInput, ctx: CallContext): Promise<EndpointResult> {
    const plan = planAnswersV1(parseWith(schema, input.body), ctx);
    authorize(ctx, [{ kind: 'category', id: plan.categoryId }]);
    const query = render(pagedSql(compileAnswersV1(plan), pageWindow(plan.pagination)));
    const result = await ctx.core.pool.read(query.text, query.params as never, ctx.signal);
    const payloads = result.getColumnsJS()[2] as string[];
    const head = JSON.parse(payloads[0]!) as { total: number };
    return { kind: 'json', status: 200, json: `{"info":{"total_rows":${head.total}},"data":[${payloads.slice(1).join(',')}]}` };
  },
};
