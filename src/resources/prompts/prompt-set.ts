import type { DuckDBConnection } from '@duckdb/node-api';
import { sql } from '../../query/sql.ts';
import { execute, readRows, strings, stringOrNull, type Row } from '../rows.ts';

export const analysisTypes = ['visibility', 'sentiment', 'accuracy'] as const;
export type AnalysisType = (typeof analysisTypes)[number];

export interface Named {
  readonly id: string;
  readonly name: string;
}

export interface Topic extends Named {
  readonly status: string;
}

/** The editable columns of one prompt, as the state store holds them. */
export interface PromptRow {
  readonly id: string;
  readonly prompt: string;
  readonly topic_id: string;
  readonly language: string;
  readonly analysis_types: readonly AnalysisType[];
  readonly asset_id: string | null;
  readonly status: string;
  readonly created_at: Date;
  readonly updated_at: Date;
  readonly tag_ids: readonly string[];
  readonly region_ids: readonly string[];
  readonly platform_ids: readonly string[];
  readonly persona_ids: readonly string[];
}

/** Everything a prompt edit of one category can refer to, read in one transaction. */
export interface PromptSet {
  readonly organizationId: string;
  readonly categoryId: string;
  readonly prompts: ReadonlyMap<string, PromptRow>;
  readonly topics: ReadonlyMap<string, Topic>;
  readonly tags: ReadonlyMap<string, Named>;
  readonly personas: ReadonlyMap<string, Named>;
  readonly assets: ReadonlyMap<string, Named>;
  readonly regions: ReadonlyMap<string, Named>;
  readonly platforms: ReadonlyMap<string, Named>;
  readonly languages: ReadonlySet<string>;
}

/** Analysis types in one canonical order, so a reordered list is not a change. */
export const canonicalTypes = (types: readonly string[]): AnalysisType[] => analysisTypes.filter((t) => types.includes(t));

const byId = <T extends Named>(rows: T[]): Map<string, T> => new Map(rows.map((r) => [r.id, r]));
const named = (r: Row): Named => ({ id: String(r.id), name: String(r.name) });

export function toPromptRow(r: Row): PromptRow {
  return {
    id: String(r.id),
    prompt: String(r.prompt),
    topic_id: String(r.topic_id),
    language: String(r.language),
    analysis_types: canonicalTypes(strings(r.analysis_types)),
    asset_id: stringOrNull(r.asset_id),
    status: String(r.status),
    created_at: r.created_at as Date,
    updated_at: r.updated_at as Date,
    tag_ids: strings(r.tag_ids),
    region_ids: strings(r.region_ids),
    platform_ids: strings(r.platform_ids),
    persona_ids: strings(r.persona_ids),
  };
}

export async function loadPromptSet(conn: DuckDBConnection, organizationId: string, categoryId: string): Promise<PromptSet> {
  const prompts = await readRows(conn, sql`SELECT * FROM state.prompts WHERE category_id = ${categoryId}`);
  const topics = await readRows(conn, sql`SELECT id, name, status FROM state.topics WHERE category_id = ${categoryId}`);
  const tags = await readRows(conn, sql`SELECT id, name FROM state.tags WHERE category_id = ${categoryId}`);
  const personas = await readRows(conn, sql`SELECT id, name FROM state.personas WHERE category_id = ${categoryId}`);
  const assets = await readRows(conn, sql`SELECT id, name FROM assets WHERE category_id = ${categoryId}`);
  const regions = await readRows(conn, sql`SELECT id, name FROM regions`);
  const platforms = await readRows(conn, sql`SELECT id, name FROM models`);
  const languages = await readRows(conn, sql`SELECT language FROM state.organization_languages WHERE organization_id = ${organizationId}`);
  return {
    organizationId,
    categoryId,
    prompts: new Map(prompts.map((r) => [String(r.id), toPromptRow(r)])),
    topics: byId(topics.map((r) => ({ ...named(r), status: String(r.status) }))),
    tags: byId(tags.map(named)),
    personas: byId(personas.map(named)),
    assets: byId(assets.map(named)),
    regions: byId(regions.map(named)),
    platforms: byId(platforms.map(named)),
    languages: new Set(languages.map((r) => String(r.language))),
  };
}

/** What an edit batch writes: new and renamed topics, new tags, and whole prompt rows. */
export interface PromptWrites {
  readonly newTopics: readonly Topic[];
  readonly renamedTopics: readonly Topic[];
  readonly newTags: readonly Named[];
  readonly newPrompts: readonly PromptRow[];
  readonly changedPrompts: readonly PromptRow[];
}

const varcharList = (ids: readonly string[]) => sql`from_json(${JSON.stringify(ids)}, '["VARCHAR"]')`;

export async function writePromptSet(conn: DuckDBConnection, set: PromptSet, writes: PromptWrites): Promise<void> {
  const owner = { org: set.organizationId, cat: set.categoryId };
  for (const t of writes.newTopics) {
    await execute(conn, sql`INSERT INTO state.topics (id, organization_id, category_id, name, status) VALUES (${t.id}, ${owner.org}, ${owner.cat}, ${t.name}, ${t.status})`);
  }
  for (const t of writes.renamedTopics) await execute(conn, sql`UPDATE state.topics SET name = ${t.name} WHERE id = ${t.id}`);
  for (const t of writes.newTags) {
    await execute(conn, sql`INSERT INTO state.tags (id, organization_id, category_id, name) VALUES (${t.id}, ${owner.org}, ${owner.cat}, ${t.name})`);
  }
  for (const p of writes.newPrompts) {
    await execute(
      conn,
      sql`INSERT INTO state.prompts (id, organization_id, category_id, prompt, topic_id, language, analysis_types, prompt_type, asset_id, status, created_at, updated_at, tag_ids, region_ids, platform_ids, persona_ids)
          VALUES (${p.id}, ${owner.org}, ${owner.cat}, ${p.prompt}, ${p.topic_id}, ${p.language}, ${varcharList(p.analysis_types)}, ${p.analysis_types[0] ?? null},
                  ${p.asset_id}, ${p.status}, CAST(${p.created_at.toISOString()} AS TIMESTAMPTZ), CAST(${p.updated_at.toISOString()} AS TIMESTAMPTZ),
                  ${varcharList(p.tag_ids)}, ${varcharList(p.region_ids)}, ${varcharList(p.platform_ids)}, ${varcharList(p.persona_ids)})`,
    );
  }
  for (const p of writes.changedPrompts) {
    await execute(
      conn,
      sql`UPDATE state.prompts SET prompt = ${p.prompt}, topic_id = ${p.topic_id}, language = ${p.language}, analysis_types = ${varcharList(p.analysis_types)},
            prompt_type = ${p.analysis_types[0] ?? null}, asset_id = ${p.asset_id}, status = ${p.status}, updated_at = CAST(${p.updated_at.toISOString()} AS TIMESTAMPTZ),
            tag_ids = ${varcharList(p.tag_ids)}, region_ids = ${varcharList(p.region_ids)}, platform_ids = ${varcharList(p.platform_ids)}, persona_ids = ${varcharList(p.persona_ids)}
          WHERE id = ${p.id} AND category_id = ${owner.cat}`,
    );
  }
}
