import { ident, join, key, sql, type Fragment } from '../../query/sql.ts';
import type { CompiledReport } from '../paged-report.ts';

/**
 * Raw prompt answers (v1 and v2): one row per execution, newest first. An execution is aliased `f`,
 * its current prompt `p` (with `tag_names`), its model `mo`, region `rg`, persona `pe`, topic `tp` and
 * the prompt's asset `pa`. Per-answer lists are subqueries over `f`, so they are built for the rows a
 * page or stream sends and never for the whole window.
 */

export type AnswerList = 'mentions' | 'citations' | 'queries' | 'themes';

export interface AnswerField {
  readonly name: string;
  /** SQL over `f`, `p` and the dimension aliases. */
  readonly value: Fragment;
}

// TRICKY: `day = f.day` is implied by the execution id but lets DuckDB prune the fact files' row groups to
// the page's days before joining on the id.
const ofAnswer = (alias: string) => sql`${ident(alias)}.category_id = f.category_id AND ${ident(alias)}.day = f.day AND ${ident(alias)}.execution_id = f.id`;

const lists: Record<AnswerList, (column: 'v' | 'names') => Fragment> = {
  mentions: () => sql`(SELECT list(a.name ORDER BY m.position, a.name) FROM mentions m JOIN assets a ON a.id = m.asset_id WHERE ${ofAnswer('m')})`,
  citations: () => sql`(SELECT list(x.url ORDER BY x.position) FROM citations x WHERE ${ofAnswer('x')})`,
  queries: () => sql`(SELECT list(q.query ORDER BY q.position) FROM fanouts q WHERE ${ofAnswer('q')})`,
  themes: (column) =>
    column === 'names'
      ? sql`(SELECT list(DISTINCT t.name ORDER BY t.name) FROM sentiments s JOIN themes t ON t.id = s.theme_id WHERE ${ofAnswer('s')})`
      : sql`(SELECT list(json_object('name', d.name, 'type', d.sentiment_type) ORDER BY d.name, d.sentiment_type)
   FROM (SELECT DISTINCT t.name, s.sentiment_type FROM sentiments s JOIN themes t ON t.id = s.theme_id WHERE ${ofAnswer('s')}) d)`,
};

/** The JSON list of an answer, `[]` when it has none. */
export const answerList = (name: AnswerList, column: 'v' | 'names' = 'v'): Fragment => sql`coalesce(${lists[name](column)}, [])`;

/**
 * The report's SQL for the executions of the category that `where` (over `f` and `p`) keeps. The answers
 * are numbered first, from their id and time alone, so a page or a capped stream builds only its rows.
 */
export function answerRows(categoryId: string, where: Fragment, fields: readonly AnswerField[]): CompiledReport {
  const ctes = sql`p AS (
  SELECT pr.id, pr.prompt, pr.topic_id, pr.tag_ids, pr.analysis_types, pr.prompt_type, pr.asset_id,
         (SELECT coalesce(list(t.name ORDER BY t.name, t.id), []) FROM tags t WHERE t.category_id = ${categoryId} AND list_contains(pr.tag_ids, t.id)) AS tag_names
  FROM prompts pr WHERE pr.category_id = ${categoryId}
),
e AS MATERIALIZED (SELECT f.* FROM executions f JOIN p ON p.id = f.prompt_id WHERE ${where}),
numbered AS (SELECT id, row_number() OVER (ORDER BY executed_at DESC, id) AS unit FROM e)`;
  const rows = sql`SELECT o.unit, 0 AS seq,
       json_object(${join(fields.map((f) => sql`${key(f.name)}, ${f.value}`), ', ')})::VARCHAR AS row
FROM numbered o
JOIN e f ON f.id = o.id
JOIN p ON p.id = f.prompt_id
LEFT JOIN models mo ON mo.id = f.model_id
LEFT JOIN regions rg ON rg.id = f.region_id
LEFT JOIN personas pe ON pe.id = f.persona_id
LEFT JOIN topics tp ON tp.id = p.topic_id
LEFT JOIN assets pa ON pa.id = p.asset_id`;
  const info = sql`SELECT json_object('models', coalesce((SELECT list(DISTINCT mo.name ORDER BY mo.name) FROM e JOIN models mo ON mo.id = e.model_id), []))`;
  return { ctes, rows, info, total: sql`SELECT count(*) FROM e` };
}

/** An instant as ISO 8601 in UTC, to the second. */
export const isoInstant = (column: Fragment): Fragment => sql`strftime(timezone('UTC', ${column}), '%Y-%m-%dT%H:%M:%SZ')`;
