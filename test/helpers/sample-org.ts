import type { Engine } from '../../src/library/engine.ts';
import { ident, render, sql, type Fragment } from '../../src/query/sql.ts';
import type { Model, NamedItem } from '../reference/prompt-edits.ts';

/** Reads rows straight from DuckDB (bypassing the endpoints under test). */
export async function query(engine: Engine, fragment: Fragment): Promise<Record<string, unknown>[]> {
  const q = render(fragment);
  return engine.core.pool.use(
    async (conn) =>
      (await conn.runAndReadAll(q.text, q.params as never)).getRowObjectsJS() as Record<string, unknown>[],
  );
}

/** The ids a test needs from the bundled sample: two organizations, two categories of the first. */
export async function sampleIds(engine: Engine) {
  const orgs = await engine.listOrganizations();
  const [a, b] = orgs;
  const category = a!.categories[0]!.id;
  const sibling = a!.categories[1]!.id;
  const promptOf = async (cat: string) =>
    String(
      (await query(engine, sql`SELECT id FROM dataset_prompts WHERE category_id = ${cat} ORDER BY id LIMIT 1`))[0]!.id,
    );
  return {
    org: a!.id,
    otherOrg: b!.id,
    category,
    sibling,
    foreignCategory: b!.categories[0]!.id,
    siblingPrompt: await promptOf(sibling),
    foreignPrompt: await promptOf(b!.categories[0]!.id),
    ownedAsset: a!.assets.find((x) => x.is_owned && x.category_id === category)!.id,
    foreignAsset: b!.assets.find((x) => x.is_owned)!.id,
    siblingAsset: a!.assets.find((x) => x.category_id === sibling)!.id,
  };
}

/** Puts a category's prompts, topics and tags back to the dataset's. */
export async function resetCategory(engine: Engine, category: string): Promise<void> {
  await engine.core.state.transaction(async (conn) => {
    for (const t of ['prompts', 'topics', 'tags']) {
      const q = render(sql`DELETE FROM state.${ident(t)} WHERE category_id = ${category}`);
      await conn.run(q.text, q.params as never);
      const r = render(
        sql`INSERT INTO state.${ident(t)} SELECT * FROM ${ident(`dataset_${t}`)} WHERE category_id = ${category}`,
      );
      await conn.run(r.text, r.params as never);
    }
  });
}

const named = (rows: Record<string, unknown>[]): NamedItem[] =>
  rows.map((r) => ({ id: String(r.id), name: String(r.name) }));
const strs = (v: unknown) => (v as unknown[]).map(String);

/** The reference model's starting point, read from the dataset tables. */
export async function datasetModel(engine: Engine, org: string, category: string): Promise<Model> {
  const prompts = await query(engine, sql`SELECT * FROM dataset_prompts WHERE category_id = ${category} ORDER BY id`);
  return {
    categoryId: category,
    prompts: prompts.map((p) => ({
      id: String(p.id),
      prompt: String(p.prompt),
      topic_id: String(p.topic_id),
      language: String(p.language),
      analysis_types: ['visibility', 'sentiment', 'accuracy'].filter((t) => strs(p.analysis_types).includes(t)),
      asset_id: p.asset_id === null ? null : String(p.asset_id),
      tag_ids: strs(p.tag_ids),
      region_ids: strs(p.region_ids),
      platform_ids: strs(p.platform_ids),
      persona_ids: strs(p.persona_ids),
    })),
    topics: named(
      await query(engine, sql`SELECT id, name FROM dataset_topics WHERE category_id = ${category} ORDER BY id`),
    ),
    tags: named(
      await query(engine, sql`SELECT id, name FROM dataset_tags WHERE category_id = ${category} ORDER BY id`),
    ),
    personas: named(
      await query(engine, sql`SELECT id, name FROM dataset_personas WHERE category_id = ${category} ORDER BY id`),
    ),
    assets: named(await query(engine, sql`SELECT id, name FROM assets WHERE category_id = ${category} ORDER BY id`)),
    regions: named(await query(engine, sql`SELECT id, name FROM regions ORDER BY id`)),
    platforms: named(await query(engine, sql`SELECT id, name FROM models ORDER BY id`)),
    languages: (
      await query(engine, sql`SELECT language FROM state.organization_languages WHERE organization_id = ${org}`)
    ).map((r) => String(r.language)),
  };
}
