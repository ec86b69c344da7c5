import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { valueError, ValidationError, type ValidationIssue } from '../../errors.ts';
import { laxBool } from '../../query/schema-types.ts';
import { parseListBody } from '../../query/validation.ts';
import { loopTurn } from '../../query/loop-turns.ts';
import { jsonResult, type CallContext, type Endpoint, type EndpointInput } from '../../reports/endpoint.ts';
import { categoryOf, categoryPath } from '../params.ts';
import {
  analysisTypes,
  canonicalTypes,
  loadPromptSet,
  writePromptSet,
  type Named,
  type PromptRow,
  type PromptSet,
} from './prompt-set.ts';
import { Resolver } from './references.ts';
import { idOrName, promptText, refList } from './reference-schemas.ts';
import { maxNameLength } from '../../limits.ts';
import { maxBatch } from './update.ts';

const entrySchema = z.strictObject({
  prompt: promptText(),
  language: z.string().min(1).max(maxNameLength).describe('e.g. en-US; one the organization has enabled'),
  topic: idOrName().describe('an unknown name creates the topic'),
  platforms: refList().min(1),
  regions: refList().min(1),
  analysis_types: z.array(z.enum(analysisTypes)).min(1).nullable().optional().describe('default ["visibility"]'),
  prompt_type: z
    .enum(['visibility', 'sentiment'])
    .nullable()
    .optional()
    .describe('deprecated: stands for analysis_types [prompt_type]'),
  asset: idOrName().nullable().optional(),
  personas: refList().nullable().optional().describe('omit to run without a persona'),
  tags: refList().nullable().optional().describe('unknown names create tags'),
});

const createSchema = z.strictObject({
  prompts: z.array(entrySchema).min(1).max(maxBatch),
  dry_run: laxBool().nullable().optional(),
});

/** `createSchema` with the entries left for `parseListBody` to check a slice at a time. */
const createEnvelope = createSchema.extend({ prompts: z.array(z.unknown()).min(1).max(maxBatch) });

type CreateEntry = z.output<typeof entrySchema>;

interface CreatedPrompt {
  id: string;
  language: string;
  prompt: string;
  topic: Named;
  analysis_types: string[];
  asset: Named | null;
  personas: Named[];
  platforms: Named[];
  regions: Named[];
  tags: Named[];
}

/** New prompts, checked entry after entry against the category (a later entry sees topics an earlier one created). */
export async function planCreate(
  set: PromptSet,
  entries: readonly CreateEntry[],
  now: Date,
  newId: () => string = randomUUID,
) {
  const issues: ValidationIssue[] = [];
  const refs = await Resolver.of(set);
  const rows: PromptRow[] = [];
  const created: CreatedPrompt[] = [];
  for (const [i, e] of entries.entries()) {
    await loopTurn();
    const loc = ['body', 'prompts', i];
    const count = issues.length;
    if (!set.languages.has(e.language)) {
      issues.push(
        valueError(
          [...loc, 'language'],
          `language '${e.language}' is not enabled for this organization; enabled: ${[...set.languages].sort().join(', ')}`,
          e.language,
        ),
      );
    }
    const topic = refs.resolve('topic', e.topic, [...loc, 'topic'], issues);
    const asset = e.asset ? refs.resolve('asset', e.asset, [...loc, 'asset'], issues) : null;
    const platforms = refs.resolveAll('platform', e.platforms, [...loc, 'platforms'], issues);
    const regions = refs.resolveAll('region', e.regions, [...loc, 'regions'], issues);
    const personas = refs.resolveAll('persona', e.personas ?? [], [...loc, 'personas'], issues);
    const tags = refs.resolveAll('tag', e.tags ?? [], [...loc, 'tags'], issues);
    if (issues.length > count || !topic || asset === undefined || !platforms || !regions || !personas || !tags)
      continue;
    const types = canonicalTypes(e.analysis_types ?? (e.prompt_type ? [e.prompt_type] : ['visibility']));
    const id = newId();
    rows.push({
      id,
      prompt: e.prompt,
      topic_id: topic.id,
      language: e.language,
      analysis_types: types,
      asset_id: asset?.id ?? null,
      status: 'active',
      created_at: now,
      updated_at: now,
      tag_ids: tags.map((x) => x.id),
      region_ids: regions.map((x) => x.id),
      platform_ids: platforms.map((x) => x.id),
      persona_ids: personas.map((x) => x.id),
    });
    created.push({
      id,
      language: e.language,
      prompt: e.prompt,
      topic,
      analysis_types: types,
      asset,
      personas,
      platforms,
      regions,
      tags,
    });
  }
  return {
    issues,
    result: {
      created: rows.length,
      topics_created: refs.newTopics.size,
      tags_created: refs.newTags.size,
      prompts: created,
    },
    writes: {
      newTopics: [...refs.newTopics.values()],
      renamedTopics: [...refs.renamedTopics.values()],
      newTags: [...refs.newTags.values()],
      newPrompts: rows,
      changedPrompts: [],
    },
  };
}

export const createPrompts: Endpoint = {
  method: 'POST',
  path: '/v1/org/categories/{category_id}/prompts',
  name: 'createPrompts',
  group: 'resources',
  summary: 'Create prompts in a category; unknown topic and tag names are created',
  tags: ['Organization'],
  stream: false,
  weight: 'heavy',
  schemas: { params: categoryPath, body: createSchema },
  async handle(input: EndpointInput, ctx: CallContext) {
    const categoryId = categoryOf(input, ctx);
    const body = await parseListBody<z.output<typeof createSchema>>(createEnvelope, 'prompts', entrySchema, input.body);
    const dryRun = body.dry_run ?? false;
    const result = await ctx.core.state.transaction(
      async (conn) => {
        const set = await loadPromptSet(conn, ctx.organizationId, categoryId, []);
        const plan = await planCreate(set, body.prompts, ctx.now);
        if (plan.issues.length > 0) throw new ValidationError(plan.issues);
        if (!dryRun) await writePromptSet(conn, set, plan.writes);
        return plan.result;
      },
      { promptsOf: dryRun ? undefined : categoryId },
    );
    return jsonResult({ dry_run: dryRun, ...result });
  },
};
