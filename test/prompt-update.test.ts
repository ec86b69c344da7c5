import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { ValidationError } from '../src/errors.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { datasetModel, resetCategory, sampleIds } from './helpers/sample-org.ts';
import { tempDir } from './helpers/tmp.ts';
import { applyBatch, type Entry, type Model, type NamedItem } from './reference/prompt-edits.ts';

const now = new Date('2026-11-15T12:00:00.000Z');
let engine: Engine;
let ids: Awaited<ReturnType<typeof sampleIds>>;
let m0: Model;

beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, clock: () => now, threads: 1, connections: 2 });
  ids = await sampleIds(engine);
  m0 = await datasetModel(engine, ids.org, ids.category);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org);
const patch = (body: unknown) => org().resources.updatePrompts({ params: { category_id: ids.category }, body });

/** The category as the listing endpoints show it, in the reference model's shape. */
async function observe() {
  const params = { category_id: ids.category };
  const prompts = (await org().resources.prompts({ params, query: { status: 'active,disabled', limit: '1000' } }))
    .data as Record<string, any>[];
  const topics = (await org().resources.categoryTopics({ params })) as unknown as NamedItem[];
  const tags = (await org().resources.categoryTags({ params })) as unknown as NamedItem[];
  const ids_ = (xs: { id: string }[]) => xs.map((x) => x.id);
  return {
    prompts: prompts
      .map((p) => ({
        id: p.id,
        prompt: p.prompt,
        topic_id: p.topic.id,
        language: p.language,
        analysis_types: p.analysis_types,
        asset_id: p.asset?.id ?? null,
        tag_ids: ids_(p.tags),
        region_ids: ids_(p.regions),
        platform_ids: ids_(p.platforms),
        persona_ids: ids_(p.personas),
      }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    topics: topics.map((t) => ({ id: t.id, name: t.name })).sort((a, b) => a.id.localeCompare(b.id)),
    tags: tags.map((t) => ({ id: t.id, name: t.name })).sort((a, b) => a.id.localeCompare(b.id)),
  };
}

const project = (m: Model) => ({
  prompts: [...m.prompts].sort((a, b) => a.id.localeCompare(b.id)),
  topics: m.topics.map((t) => ({ id: t.id, name: t.name })).sort((a, b) => a.id.localeCompare(b.id)),
  tags: m.tags.map((t) => ({ id: t.id, name: t.name })).sort((a, b) => a.id.localeCompare(b.id)),
});

const unknownId = '0f0f0f0f-0000-4000-8000-000000000000';
const cases = (name: string) => fc.constantFrom(name, name.toUpperCase(), name.toLowerCase());

/** References to a vocabulary: ids, names in any case, {id, name}; now and then one that cannot resolve. */
function refs(items: () => NamedItem[], extra: fc.Arbitrary<unknown>[] = []) {
  // Unresolvable references are rare enough that most batches apply and every kind of rejection still occurs.
  const item = fc.constantFrom(...items());
  const good = [
    item.map((x) => x.id),
    item.map((x) => ({ id: x.id })),
    item.chain((x) => cases(x.name)).map((name) => ({ name })),
    item.map((x) => x.name),
    item.chain((x) => cases(x.name).map((name) => ({ id: x.id, name }))),
  ].map((arbitrary) => ({ arbitrary, weight: 6 }));
  const wrong = {
    arbitrary: fc.oneof(
      fc.constant(unknownId),
      fc.constant({ id: unknownId, name: 'Whatever' }),
      fc.constant('Atlantis'),
      item.map((x) => ({ id: x.id, name: `${x.name} (other)` })),
    ),
    weight: 1,
  };
  return fc.oneof(...good, wrong, ...extra.map((arbitrary) => ({ arbitrary, weight: 3 })));
}

function entryArbitrary(): fc.Arbitrary<Entry> {
  // null-rule: prompt-update-null-unchanged (null fields and `asset: null` against the reference model)
  const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 8 });
  const topic = refs(
    () => m0.topics,
    [
      fc.constantFrom('Brand new topic', 'brand NEW topic', 'Another topic'),
      fc
        .constantFrom(...m0.topics)
        .chain((t) =>
          fc
            .constantFrom('Renamed topic', t.name.toUpperCase(), m0.topics[0]!.name)
            .map((name) => ({ id: t.id, name })),
        ),
    ],
  );
  const tag = refs(() => m0.tags, [fc.constantFrom('fresh tag', 'FRESH TAG', 'second tag')]);
  const persona = refs(() => m0.personas);
  const region = refs(() => m0.regions);
  const platform = refs(() => m0.platforms);
  const asset = fc.oneof(
    fc.constant(null),
    refs(() => m0.assets, [fc.constant(ids.siblingAsset)]),
  );
  const id = fc.oneof(
    { arbitrary: fc.constantFrom(...m0.prompts.map((p) => p.id)), weight: 25 },
    { arbitrary: fc.constantFrom(ids.siblingPrompt, ids.foreignPrompt, unknownId), weight: 1 },
  );
  return fc.record(
    {
      id,
      prompt: nullable(fc.constantFrom('Which tent is lightest?', 'Best tent for rain?')),
      topic: nullable(topic),
      language: fc.oneof(
        { arbitrary: fc.constantFrom('en-US', 'fr-FR'), weight: 15 },
        { arbitrary: fc.constant('xx-XX'), weight: 1 },
      ),
      analysis_types: fc.subarray(['sentiment', 'visibility', 'accuracy', 'visibility'], { minLength: 1 }),
      prompt_type: fc.constantFrom('visibility', 'sentiment'),
      asset,
      tags: nullable(fc.array(tag, { maxLength: 3 })),
      regions: fc.array(region, { minLength: 1, maxLength: 2 }),
      platforms: fc.array(platform, { minLength: 1, maxLength: 3 }),
      personas: fc.array(persona, { maxLength: 2 }),
    },
    { requiredKeys: ['id'] },
  ) as fc.Arbitrary<Entry>;
}

const batchArbitrary = () =>
  fc.record({ entries: fc.array(entryArbitrary(), { minLength: 1, maxLength: 4 }), dryRun: fc.boolean() });
const sortLocs = (locs: readonly (readonly (string | number)[])[]) => locs.map((l) => JSON.stringify(l)).sort();

describe('PATCH /v1/org/categories/{id}/prompts against a reference model', () => {
  it('applies random edit batches exactly as the model does, or rejects them whole with the entries named', async () => {
    let applied = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(batchArbitrary(), { minLength: 1, maxLength: 3 }), async (batches) => {
        await resetCategory(engine, ids.category);
        let model = m0;
        for (const { entries, dryRun } of batches) {
          const expected = applyBatch(model, entries);
          try {
            const result = await patch({ prompts: entries, dry_run: dryRun });
            expect(expected.locs).toBeUndefined();
            expect(result).toEqual({ dry_run: dryRun, ...expected.result });
            if (!dryRun) model = expected.model!;
            applied++;
          } catch (error) {
            if (!(error instanceof ValidationError)) throw error;
            expect(expected.locs, JSON.stringify(error.detail)).toBeDefined();
            expect(sortLocs(error.detail.map((d) => d.loc))).toEqual(sortLocs(expected.locs!));
            expect(error.detail.every((d) => d.type === 'value_error' && d.msg.length > 12)).toBe(true);
            rejected++;
          }
          expect(await observe()).toEqual(project(model));
        }
      }),
      { numRuns: 25 },
    );
    expect(applied).toBeGreaterThan(5);
    expect(rejected).toBeGreaterThan(5);
  });

  it('stamps updated_at on changed prompts only and reports an unchanged entry as {id}', async () => {
    await resetCategory(engine, ids.category);
    const [p, q] = m0.prompts;
    const result = await patch({
      prompts: [
        { id: p!.id, prompt: 'A new text' },
        { id: q!.id, language: q!.language },
      ],
    });
    expect(result).toEqual({
      dry_run: false,
      updated: 1,
      topics_created: 0,
      tags_created: 0,
      prompts: [{ id: p!.id, prompt: { old: p!.prompt, new: 'A new text' } }, { id: q!.id }],
    });
    const listed = (
      await org().resources.prompts({
        params: { category_id: ids.category },
        query: { status: ['active', 'disabled'] },
      })
    ).data as Record<string, string>[];
    expect(listed.find((x) => x.id === p!.id)!.updated_at).toBe(now.toISOString());
    expect(listed.find((x) => x.id === q!.id)!.updated_at).not.toBe(now.toISOString());
  });

  it('previews a batch with dry_run exactly as it would apply it', async () => {
    await resetCategory(engine, ids.category);
    const batch = fc.sample(batchArbitrary(), { numRuns: 20, seed: 11 }).map((b) => b.entries);
    for (const entries of batch) {
      const dry = await patch({ prompts: entries, dry_run: true }).catch((e: unknown) => e);
      const real = await patch({ prompts: entries }).catch((e: unknown) => e);
      if (dry instanceof ValidationError) expect((real as ValidationError).detail).toEqual(dry.detail);
      else expect(real).toEqual({ ...(dry as object), dry_run: false });
    }
  });
});

describe('dry runs on a state file', () => {
  it('leave the store byte-identical, whatever they preview or reject', async () => {
    const dir = await tempDir();
    const file = join(dir, 'state.duckdb');
    const first = await openEngine({ data: sampleDir, state: file, threads: 1, connections: 2 });
    await first.close();
    const digest = () => createHash('sha256').update(readFileSync(file)).digest('hex');
    const before = digest();
    const reopened = await openEngine({ data: sampleDir, state: file, threads: 1, connections: 2 });
    let previews = 0;
    try {
      for (const { entries } of fc.sample(batchArbitrary(), { numRuns: 25, seed: 5 })) {
        const r = await reopened
          .org(ids.org)
          .resources.updatePrompts({ params: { category_id: ids.category }, body: { prompts: entries, dry_run: true } })
          .catch((e: unknown) => e);
        if (!(r instanceof ValidationError)) previews++;
      }
      await reopened.org(ids.org).resources.updatePromptStatus({
        params: { category_id: ids.category },
        body: { prompt_ids: [m0.prompts[0]!.id], status: 'deleted', dry_run: true },
      });
      await reopened.org(ids.org).resources.createPrompts({
        params: { category_id: ids.category },
        body: {
          dry_run: true,
          prompts: [
            { prompt: 'New?', language: 'en-US', topic: 'Brand new', platforms: ['ChatGPT'], regions: ['Canada'] },
          ],
        },
      });
    } finally {
      await reopened.close();
    }
    expect(previews).toBeGreaterThan(3);
    expect(existsSync(`${file}.wal`)).toBe(false);
    expect(digest()).toBe(before);
  });
});
