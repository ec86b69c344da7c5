import { ident, join, key, sql, type Fragment } from '../../query/sql.ts';
import type { CompiledReport } from '../paged-report.ts';

/**
 * Raw prompt answers (v1 and v2): one row per execution, newest first. An execution is aliased `f`,
 * its current prompt `p` (with `tag_names`), its model `mo`, region `rg`, persona `pe`, topic `tp` and
 * the prompt's asset `pa`. Per-answer lists are aggregated once, only when a requested field needs them.
 */

export type AnswerList = 'mentions' | 'citations' | 'queries' | 'themes';

export interface AnswerField {
  readonly name: string;
  readonly value: Fragment;
  readonly needs?: AnswerList;
}

/** The lists of an answer, each keyed by execution_id and restricted to the answers in scope (`e`). */
function listCte(name: AnswerList, categoryId: string): Fragment {
  const inScope = sql`category_id = ${categoryId} AND execution_id IN (SELECT id FROM e)`;
  switch (name) {
    case 'mentions':
      return sql`l_mentions AS (
  SELECT m.execution_id, list(a.name ORDER BY m.position, a.name) AS v
  FROM mentions m JOIN assets a ON a.id = m.asset_id WHERE m.${inScope} GROUP BY m.execution_id
)`;
    case 'citations':
      return sql`l_citations AS (SELECT execution_id, list(url ORDER BY position) AS v FROM citations WHERE ${inScope} GROUP BY execution_id)`;
    case 'queries':
      return sql`l_queries AS (SELECT execution_id, list(query ORDER BY position) AS v FROM fanouts WHERE ${inScope} GROUP BY execution_id)`;
    case 'themes':
      return sql`l_themes AS (
  SELECT execution_id, list(DISTINCT name ORDER BY name) AS names,
         list(json_object('name', name, 'type', sentiment_type) ORDER BY name, sentiment_type) AS v
  FROM (SELECT DISTINCT s.execution_id, t.name, s.sentiment_type FROM sentiments s JOIN themes t ON t.id = s.theme_id WHERE s.${inScope})
  GROUP BY execution_id
)`;
  }
}

/** The JSON list of an answer, `[]` when it has none. */
export const answerList = (name: AnswerList, column: 'v' | 'names' = 'v'): Fragment => sql`coalesce(${ident(`l_${name}`)}.${ident(column)}, [])`;

/** The report's SQL for the executions of the category that `where` (over `f` and `p`) keeps. */
export function answerRows(categoryId: string, where: Fragment, fields: readonly AnswerField[]): CompiledReport {
  const lists = [...new Set(fields.flatMap((f) => (f.needs ? [f.needs] : [])))];
  const ctes = [
    sql`p AS (
  SELECT pr.id, pr.prompt, pr.topic_id, pr.tag_ids, pr.analysis_types, pr.prompt_type, pr.asset_id,
         (SELECT coalesce(list(t.name ORDER BY t.name, t.id), []) FROM tags t WHERE t.category_id = ${categoryId} AND list_contains(pr.tag_ids, t.id)) AS tag_names
  FROM prompts pr WHERE pr.category_id = ${categoryId}
)`,
    sql`e AS (SELECT f.* FROM executions f JOIN p ON p.id = f.prompt_id WHERE ${where})`,
    ...lists.map((l) => listCte(l, categoryId)),
  ];
  const listJoins = lists.map((l) => sql`LEFT JOIN ${ident(`l_${l}`)} ON ${ident(`l_${l}`)}.execution_id = f.id`);
  const rows = sql`SELECT row_number() OVER (ORDER BY f.executed_at DESC, f.id) AS unit, 0 AS seq,
       json_object(${join(fields.map((f) => sql`${key(f.name)}, ${f.value}`), ', ')})::VARCHAR AS row
FROM e f
JOIN p ON p.id = f.prompt_id
LEFT JOIN models mo ON mo.id = f.model_id
LEFT JOIN regions rg ON rg.id = f.region_id
LEFT JOIN personas pe ON pe.id = f.persona_id
LEFT JOIN topics tp ON tp.id = p.topic_id
LEFT JOIN assets pa ON pa.id = p.asset_id
${join(listJoins, '\n')}`;
  const info = sql`SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM e JOIN models mo ON mo.id = e.model_id), []))`;
  return { ctes: join(ctes, ',\n'), rows, info };
}

/** An instant as ISO 8601 in UTC, to the second. */
export const isoInstant = (column: Fragment): Fragment => sql`strftime(timezone('UTC', ${column}), '%Y-%m-%dT%H:%M:%SZ')`;
