import { z } from 'zod';
import { valueError, ValidationError, type ValidationIssue } from '../../errors.ts';
import { laxBool, zUuid } from '../../query/schema-types.ts';
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
import { Resolver, type RefKind } from './references.ts';
import { idOrName, promptText, refList, type IdOrName } from './reference-schemas.ts';
import { maxNameLength, maxPromptsPerRequest } from '../../limits.ts';

export const maxBatch = maxPromptsPerRequest;

const entrySchema = z.strictObject({
  id: zUuid(),
  prompt: promptText().nullable().optional(),
  topic: idOrName().nullable().optional(),
  language: z.string().min(1).max(maxNameLength).nullable().optional(),
  analysis_types: z.array(z.enum(analysisTypes)).min(1).nullable().optional(),
  prompt_type: z
    .enum(['visibility', 'sentiment'])
    .nullable()
    .optional()
    .describe('deprecated: stands for analysis_types [prompt_type] when analysis_types is not given'),
  asset: idOrName().nullable().optional().describe('null removes the prompt’s asset'),
  tags: refList().nullable().optional().describe('replaces the set'),
  regions: refList().min(1).nullable().optional().describe('replaces the set'),
  platforms: refList().min(1).nullable().optional().describe('replaces the set'),
  personas: refList().nullable().optional().describe('replaces the set'),
});

export const updateSchema = z.strictObject({
  prompts: z.array(entrySchema).min(1).max(maxBatch),
  dry_run: laxBool().nullable().optional(),
});

/** `updateSchema` with the entries left for `parseListBody` to check a slice at a time. */
const updateEnvelope = updateSchema.extend({ prompts: z.array(z.unknown()).min(1).max(maxBatch) });

export type UpdateEntry = z.output<typeof entrySchema>;

const setFields = [
  ['tags', 'tag', 'tag_ids'],
  ['personas', 'persona', 'persona_ids'],
  ['platforms', 'platform', 'platform_ids'],
  ['regions', 'region', 'region_ids'],
] as const satisfies readonly (readonly [keyof UpdateEntry, RefKind, keyof PromptRow])[];

export type FieldDiff = { old: unknown; new: unknown };
export type SetDiff = { added: Named[]; removed: Named[] };
export type PromptDiff = { id: string } & Record<string, FieldDiff | SetDiff | string>;

export interface UpdateResult {
  readonly dry_run: boolean;
  readonly updated: number;
  readonly topics_created: number;
  readonly tags_created: number;
  readonly prompts: PromptDiff[];
}

const changesSomething = (e: UpdateEntry): boolean =>
  e.asset !== undefined ||
  (
    [
      'prompt',
      'topic',
      'language',
      'analysis_types',
      'prompt_type',
      'tags',
      'regions',
      'platforms',
      'personas',
    ] as const
  ).some((k) => e[k] !== undefined && e[k] !== null);

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Applies a PATCH batch to a category's prompts, entry after entry, as if each were its own edit but
 * all in one transaction: a later entry sees topics created or renamed by an earlier one. Pure: the
 * store is read before and written after. Any issue anywhere rejects the whole batch.
 */
export async function planUpdate(
  set: PromptSet,
  entries: readonly UpdateEntry[],
  now: Date,
): Promise<{
  issues: ValidationIssue[];
  result: Omit<UpdateResult, 'dry_run'>;
  writes: Parameters<typeof writePromptSet>[2];
}> {
  const issues: ValidationIssue[] = [];
  const refs = await Resolver.of(set);
  const seen = new Set<string>();
  const changed = new Map<string, PromptRow>();
  const diffs: PromptDiff[] = [];
  for (const [i, entry] of entries.entries()) {
    await loopTurn();
    const loc = ['body', 'prompts', i];
    const before = set.prompts.get(entry.id);
    if (!before) {
      issues.push(valueError([...loc, 'id'], `no prompt with id ${entry.id} in this category`, entry.id));
      continue;
    }
    if (seen.has(entry.id)) {
      issues.push(valueError([...loc, 'id'], `prompt ${entry.id} appears more than once in this batch`, entry.id));
      continue;
    }
    seen.add(entry.id);
    if (!changesSomething(entry)) {
      issues.push(valueError(loc, `prompt ${entry.id}: give at least one field to change besides id`, entry));
      continue;
    }
    const topicBefore = refs.named('topic', before.topic_id);
    const assetBefore = before.asset_id === null ? null : refs.named('asset', before.asset_id);
    const count = issues.length;
    const next: { -readonly [K in keyof PromptRow]: PromptRow[K] } = { ...before };
    if (entry.prompt != null) next.prompt = entry.prompt;
    if (entry.language != null) {
      if (set.languages.has(entry.language)) next.language = entry.language;
      else
        issues.push(
          valueError(
            [...loc, 'language'],
            `language '${entry.language}' is not enabled for this organization; enabled: ${[...set.languages].sort().join(', ')}`,
            entry.language,
          ),
        );
    }
    const types = entry.analysis_types ?? (entry.prompt_type != null ? [entry.prompt_type] : null);
    if (types) next.analysis_types = canonicalTypes(types);
    let topic: Named | undefined = topicBefore;
    if (entry.topic != null) {
      topic = refs.resolve('topic', entry.topic, [...loc, 'topic'], issues);
      if (topic) next.topic_id = topic.id;
    }
    let asset: Named | null | undefined = assetBefore;
    if (entry.asset === null) next.asset_id = asset = null;
    else if (entry.asset !== undefined) {
      asset = refs.resolve('asset', entry.asset, [...loc, 'asset'], issues);
      if (asset) next.asset_id = asset.id;
    }
    for (const [field, kind, column] of setFields) {
      const given = entry[field] as IdOrName[] | null | undefined;
      if (given == null) continue;
      const items = refs.resolveAll(kind, given, [...loc, field], issues);
      if (items) next[column] = items.map((x) => x.id) as never;
    }
    if (issues.length > count) continue;

    const diff: PromptDiff = { id: entry.id };
    if (next.prompt !== before.prompt) diff.prompt = { old: before.prompt, new: next.prompt };
    if (next.language !== before.language) diff.language = { old: before.language, new: next.language };
    if (!sameList(next.analysis_types, before.analysis_types))
      diff.analysis_types = { old: before.analysis_types, new: next.analysis_types };
    if (topic && (topic.id !== topicBefore.id || topic.name !== topicBefore.name))
      diff.topic = { old: topicBefore, new: topic };
    if ((asset?.id ?? null) !== (assetBefore?.id ?? null)) diff.asset = { old: assetBefore, new: asset ?? null };
    for (const [field, kind, column] of setFields) {
      const old = before[column] as readonly string[];
      const after = next[column] as readonly string[];
      const oldSet = new Set(old);
      const afterSet = new Set(after);
      if (old.length === after.length && old.every((x) => afterSet.has(x))) {
        next[column] = old as never;
        continue;
      }
      diff[field] = {
        added: after.filter((id) => !oldSet.has(id)).map((id) => refs.named(kind, id)),
        removed: old.filter((id) => !afterSet.has(id)).map((id) => refs.named(kind, id)),
      };
    }
    diffs.push(diff);
    if (Object.keys(diff).length > 1) changed.set(entry.id, { ...next, updated_at: now });
  }
  return {
    issues,
    result: {
      updated: changed.size,
      topics_created: refs.newTopics.size,
      tags_created: refs.newTags.size,
      prompts: diffs,
    },
    writes: {
      newTopics: [...refs.newTopics.values()],
      renamedTopics: [...refs.renamedTopics.values()],
      newTags: [...refs.newTags.values()],
      newPrompts: [],
      changedPrompts: [...changed.values()],
    },
  };
}

export const updatePrompts: Endpoint = {
  method: 'PATCH',
  path: '/v1/org/categories/{category_id}/prompts',
  name: 'updatePrompts',
  group: 'resources',
  summary: 'Update prompts: only the fields given change; tags, regions, platforms and personas replace the whole set',
  tags: ['Organization'],
  stream: false,
  weight: 'heavy',
  schemas: { params: categoryPath, body: updateSchema },
  async handle(input: EndpointInput, ctx: CallContext) {
    const categoryId = categoryOf(input, ctx);
    const body = await parseListBody<z.output<typeof updateSchema>>(updateEnvelope, 'prompts', entrySchema, input.body);
    const dryRun = body.dry_run ?? false;
    const result = await ctx.core.state.transaction(
      async (conn) => {
        const set = await loadPromptSet(
          conn,
          ctx.organizationId,
          categoryId,
          body.prompts.map((p) => p.id),
        );
        const plan = await planUpdate(set, body.prompts, ctx.now);
        if (plan.issues.length > 0) throw new ValidationError(plan.issues);
        if (!dryRun) await writePromptSet(conn, set, plan.writes);
        return plan.result;
      },
      { promptsOf: dryRun ? undefined : categoryId },
    );
    return jsonResult({ dry_run: dryRun, ...result } satisfies UpdateResult);
  },
};
