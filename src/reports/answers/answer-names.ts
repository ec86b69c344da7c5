import { eachItemOrNull, orderedList } from '../../query/dialect.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';

/** A name an answer's field may read: its model's, region's, persona's, topic's or asset's, or its prompt's tags'. */
export type AnswerJoin = 'model' | 'region' | 'persona' | 'topic' | 'asset' | 'tags';

/** Each name's join onto the answer `f` and its prompt `p`. */
export const nameJoins: Record<Exclude<AnswerJoin, 'tags'>, Fragment> = {
  model: sql`LEFT JOIN models mo ON mo.id = f.model_id`,
  region: sql`LEFT JOIN regions rg ON rg.id = f.region_id`,
  persona: sql`LEFT JOIN personas pe ON pe.id = f.persona_id`,
  topic: sql`LEFT JOIN topics tp ON tp.id = p.topic_id`,
  asset: sql`LEFT JOIN assets pa ON pa.id = p.asset_id`,
};

// Every column of a prompt that a filter reads. Counting the answers joins only these; the tag names, which only
// the page's rows show, are grouped for the page's prompts.
export const promptKeys = ['id', 'prompt', 'topic_id', 'tag_ids', 'analysis_types', 'prompt_type', 'asset_id'] as const;

export const promptColumns = join(
  promptKeys.map((c) => sql`pr.${ident(c)}`),
  ', ',
);

/** The category's prompts with their tags' names, grouped for the page's prompts alone. */
export const promptsWithTags = (categoryId: string) => sql`
  SELECT ${promptColumns}, coalesce(tn.tag_names, []) AS tag_names
  FROM prompts pr
  LEFT JOIN (
    SELECT x.id, ${orderedList(sql`t.name`, [{ by: sql`t.name` }, { by: sql`t.id` }])} AS tag_names
    FROM (SELECT id, ${eachItemOrNull(sql`tag_ids`, true)} AS tag_id FROM prompts WHERE category_id = ${categoryId} AND id IN (SELECT prompt_id FROM page_answers)) x
    JOIN tags t ON t.id = x.tag_id AND t.category_id = ${categoryId}
    GROUP BY x.id
  ) tn ON tn.id = pr.id
  WHERE pr.category_id = ${categoryId}`;
