import type { DuckDBConnection } from '@duckdb/node-api';
import { sql } from '../../query/sql.ts';
import { execute, readRows, readRowsInChunks, strings, stringOrNull, type Row } from '../../engine/rows.ts';

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
export const canonicalTypes = (types: readonly string[]): AnalysisType[] =>
  analysisTypes.filter((t) => types.includes(t));

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

/**
 * The vocabulary of a category and those of its prompts an edit touches (`promptIds`): a category's
 * prompts, topics and tags grow with its edits, so they come in chunks, in table order.
 */
export async function loadPromptSet(
  conn: DuckDBConnection,
  organizationId: string,
  categoryId: string,
  promptIds: readonly string[],
): Promise<PromptSet> {
  const prompts =
    promptIds.length === 0
      ? []
      : await readRowsInChunks(
          conn,
          sql`SELECT * FROM state.prompts WHERE category_id = ${categoryId} AND id IN (SELECT unnest(from_json(${JSON.stringify(promptIds)}, '["VARCHAR"]'))) ORDER BY rowid`,
        );
  const topics = await readRowsInChunks(
    conn,
    sql`SELECT id, name, status FROM state.topics WHERE category_id = ${categoryId} ORDER BY rowid`,
  );
  const tags = await readRowsInChunks(
    conn,
    sql`SELECT id, name FROM state.tags WHERE category_id = ${categoryId} ORDER BY rowid`,
  );
  const personas = await readRows(conn, sql`SELECT id, name FROM state.personas WHERE category_id = ${categoryId}`);
  const assets = await readRows(conn, sql`SELECT id, name FROM assets WHERE category_id = ${categoryId}`);
  const regions = await readRows(conn, sql`SELECT id, name FROM regions`);
  const platforms = await readRows(conn, sql`SELECT id, name FROM models`);
  const languages = await readRows(
    conn,
    sql`SELECT language FROM state.organization_languages WHERE organization_id = ${organizationId}`,
  );
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

/** Rows travel as one JSON parameter and are unpacked in SQL: one statement per batch, whatever its size. */
const rowsJson = (rows: readonly object[], structure: Record<string, unknown>) =>
  sql`(SELECT unnest(r) FROM (SELECT unnest(from_json(${JSON.stringify(rows)}, ${JSON.stringify([structure])})) AS r))`;

const promptStructure = {
  id: 'VARCHAR',
  prompt: 'VARCHAR',
  topic_id: 'VARCHAR',
  language: 'VARCHAR',
  analysis_types: ['VARCHAR'],
  asset_id: 'VARCHAR',
  status: 'VARCHAR',
  created_at: 'VARCHAR',
  updated_at: 'VARCHAR',
  tag_ids: ['VARCHAR'],
  region_ids: ['VARCHAR'],
  platform_ids: ['VARCHAR'],
  persona_ids: ['VARCHAR'],
};

const promptJson = (p: PromptRow) => ({
  ...p,
  created_at: p.created_at.toISOString(),
  updated_at: p.updated_at.toISOString(),
});

export async function writePromptSet(conn: DuckDBConnection, set: PromptSet, writes: PromptWrites): Promise<void> {
  const owner = { org: set.organizationId, cat: set.categoryId };
  if (writes.newTopics.length > 0) {
    await execute(
      conn,
      sql`INSERT INTO state.topics (id, organization_id, category_id, name, status) SELECT id, ${owner.org}, ${owner.cat}, name, status FROM ${rowsJson(writes.newTopics, { id: 'VARCHAR', name: 'VARCHAR', status: 'VARCHAR' })}`,
    );
  }
  if (writes.renamedTopics.length > 0) {
    await execute(
      conn,
      sql`UPDATE state.topics t SET name = r.name FROM ${rowsJson(writes.renamedTopics, { id: 'VARCHAR', name: 'VARCHAR' })} r WHERE t.id = r.id`,
    );
  }
  if (writes.newTags.length > 0) {
    await execute(
      conn,
      sql`INSERT INTO state.tags (id, organization_id, category_id, name) SELECT id, ${owner.org}, ${owner.cat}, name FROM ${rowsJson(writes.newTags, { id: 'VARCHAR', name: 'VARCHAR' })}`,
    );
  }
  if (writes.newPrompts.length > 0) {
    await execute(
      conn,
      sql`INSERT INTO state.prompts (id, organization_id, category_id, prompt, topic_id, language, analysis_types, prompt_type, asset_id, status, created_at, updated_at, tag_ids, region_ids, platform_ids, persona_ids)
          SELECT id, ${owner.org}, ${owner.cat}, prompt, topic_id, language, analysis_types, analysis_types[1], asset_id, status, CAST(created_at AS TIMESTAMPTZ), CAST(updated_at AS TIMESTAMPTZ),
                 tag_ids, region_ids, platform_ids, persona_ids
          FROM ${rowsJson(writes.newPrompts.map(promptJson), promptStructure)}`,
    );
  }
  if (writes.changedPrompts.length > 0) {
    await execute(
      conn,
      sql`UPDATE state.prompts p SET prompt = c.prompt, topic_id = c.topic_id, language = c.language, analysis_types = c.analysis_types, prompt_type = c.analysis_types[1],
            asset_id = c.asset_id, status = c.status, updated_at = CAST(c.updated_at AS TIMESTAMPTZ),
            tag_ids = c.tag_ids, region_ids = c.region_ids, platform_ids = c.platform_ids, persona_ids = c.persona_ids
          FROM ${rowsJson(writes.changedPrompts.map(promptJson), promptStructure)} c
          WHERE p.id = c.id AND p.category_id = ${owner.cat}`,
    );
  }
}
