import { z } from 'zod';
import { compileFilter } from '../../query/filter-compiler.ts';
import {
  flatFiltersSchema,
  flatToNode,
  idField,
  nameField,
  readFlatFilters,
  type FlatCatalog,
  type FlatFilter,
} from '../../query/flat-filters.ts';
import { etZone, type InstantWindow } from '../../query/instants.ts';
import { laxBool, zUuid } from '../../query/schema-types.ts';
import { instant } from '../../query/dialect.ts';
import { sql, type Fragment } from '../../query/sql.ts';
import { ownsCategory } from '../core/authorize.ts';
import { offsetFraming } from '../core/offset-framing.ts';
import { defineReport } from '../core/report.ts';
import { answerFilterFields, pick } from '../tabular-v1/insights-common.ts';
import { throwIfAny } from '../tabular/tabular-report.ts';
import {
  Issues,
  paginationSchema,
  readPagination,
  readWindow,
  zInstantText,
  type Pagination,
} from '../tabular/tabular-request.ts';
import { answerList, answerRows, joinedName, listField, themeListType, type AnswerField } from './answer-rows.ts';

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
const includeShape = Object.fromEntries(includeKeys.map((k) => [k, flag()])) as unknown as {
  [K in IncludeKey]: ReturnType<typeof flag>;
};

const schema = z.strictObject({
  category_id: zUuid(),
  start_date: zInstantText(),
  end_date: zInstantText().describe('exclusive; a date alone is the start of that day in America/New_York'),
  filters: flatFiltersSchema().optional().nullable(),
  include: z
    .strictObject(includeShape)
    .optional()
    .nullable()
    .describe(
      'true adds a field, false drops it; every field but the deprecated prompt_type and themes is on by default',
    ),
  pagination: paginationSchema().optional().nullable(),
});

type AnswersV1Request = z.output<typeof schema>;

/** The body a caller writes (before defaults): the library's type for `reports.promptAnswersV1`. */
export type PromptAnswersV1Body = z.input<typeof schema>;

const assetsTable = { table: 'assets', name: 'name', scope: 'category' } as const;

const catalog: FlatCatalog = {
  ...pick(answerFilterFields, [
    'region_id',
    'region_name',
    'model_id',
    'tag_id',
    'analysis_type',
    'prompt',
    'persona_id',
    'topic_id',
  ]),
  asset_id: idField(sql`p.asset_id`),
  asset_name: nameField(sql`p.asset_id`, assetsTable),
};

const text = (name: string, value: Fragment): AnswerField => ({ name, value, type: 'text' });

const fields: Record<IncludeKey, AnswerField> = {
  analysis_types: listField('analysis_types', sql`p.analysis_types`),
  asset: joinedName('asset', sql`pa.name`, 'asset'),
  asset_id: text('asset_id', sql`p.asset_id`),
  citations: listField('citations', answerList('citations')),
  created_at: { name: 'created_at', value: sql`f.executed_at`, type: 'instant' },
  mentions: listField('mentions', answerList('mentions')),
  model: joinedName('model', sql`mo.name`, 'model'),
  model_id: text('model_id', sql`f.model_id`),
  persona: joinedName('persona', sql`pe.name`, 'persona'),
  prompt: text('prompt', sql`p.prompt`),
  prompt_id: text('prompt_id', sql`f.prompt_id`),
  prompt_type: text('prompt_type', sql`p.prompt_type`),
  region: joinedName('region', sql`rg.name`, 'region'),
  response: text('response', sql`f.response`),
  run_id: text('run_id', sql`CAST(f.id AS VARCHAR)`),
  search_queries: listField('search_queries', answerList('queries')),
  search_triggered: { name: 'search_triggered', value: sql`f.search_triggered`, type: 'boolean' },
  sentiment_themes: listField('sentiment_themes', answerList('themes'), themeListType),
  tags: { ...listField('tags', sql`p.tag_names`), joins: ['tags'] },
  themes: listField('themes', answerList('themes', 'names')),
  topic: joinedName('topic', sql`tp.name`, 'topic'),
  topic_id: text('topic_id', sql`p.topic_id`),
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
  const filter = node
    ? compileFilter(node, catalog, { organizationId: plan.organizationId, categoryId: plan.categoryId })
    : sql`TRUE`;
  const where = sql`f.category_id = ${plan.categoryId} AND f.executed_at >= ${instant(sql`${plan.window.start}`)} AND f.executed_at < ${instant(sql`${plan.window.end}`)} AND ${filter}`;
  return answerRows(
    plan.categoryId,
    where,
    plan.include.map((k) => fields[k]),
  );
}

/**
 * POST /v1/prompts/answers as the official client calls it: v1 flat filters, an include map of
 * booleans, offset pagination and `{info: {total_rows}, data}`. The window is `[start_date, end_date)`.
 */
export const promptAnswersV1Report = defineReport<AnswersV1Request, AnswersV1Plan, PromptAnswersV1Body>({
  id: 'prompt-answers.v1',
  path: '/v1/prompts/answers',
  streamPath: null,
  name: 'promptAnswersV1',
  summary: 'Prompt answers (v1): the raw answers (one row per run), newest first, with offset pagination',
  tags: ['Reports v1'],
  schema,
  read: (req, ctx) => planAnswersV1(req, ctx),
  authorize: ownsCategory,
  rewrites: {},
  compile: (plan) => compileAnswersV1(plan),
  framing: offsetFraming<AnswersV1Request, AnswersV1Plan>({
    pagination: (plan) => plan.pagination,
    info: (_plan, total) => ({ total_rows: total }),
    summary: (_plan, total) => ({ total_rows: total }),
    normalized: (plan) => plan,
  }),
});
