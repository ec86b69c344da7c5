import { distinctSorted, eachItemOrNull, jsonText, materialized, orderedList, struct } from '../../query/dialect.ts';
import { field, value, type RowShape, type ValueType, type Wire } from '../../query/row-shape.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import type { ShapedReport, UnitRange } from '../rows-query.ts';

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
  readonly type: ValueType;
  /** Lists cross as JSON text: one read per answer instead of one per element. */
  readonly wire?: Wire;
}

/** A list-valued field of an answer. */
export const listField = (name: string, value: Fragment, type: ValueType = { list: 'text' }): AnswerField => ({ name, value, type, wire: 'json' });

// TRICKY: `day = f.day` is implied by the execution id but lets DuckDB prune the fact files' row groups to
// the page's days before joining on the id.
const ofAnswer = (alias: string) => sql`${ident(alias)}.category_id = f.category_id AND ${ident(alias)}.day = f.day AND ${ident(alias)}.execution_id = f.id`;

const lists: Record<AnswerList, (column: 'v' | 'names') => Fragment> = {
  mentions: () => sql`(SELECT ${orderedList(sql`a.name`, [{ by: sql`m.position` }, { by: sql`a.name` }])} FROM mentions m JOIN assets a ON a.id = m.asset_id WHERE ${ofAnswer('m')})`,
  citations: () => sql`(SELECT ${orderedList(sql`x.url`, [{ by: sql`x.position` }])} FROM citations x WHERE ${ofAnswer('x')})`,
  queries: () => sql`(SELECT ${orderedList(sql`q.query`, [{ by: sql`q.position` }])} FROM fanouts q WHERE ${ofAnswer('q')})`,
  themes: (column) =>
    column === 'names'
      ? sql`(SELECT ${distinctSorted(sql`t.name`)} FROM sentiments s JOIN themes t ON t.id = s.theme_id WHERE ${ofAnswer('s')})`
      : sql`(SELECT ${distinctSorted(struct([['name', sql`t.name`], ['type', sql`s.sentiment_type`]]))} FROM sentiments s JOIN themes t ON t.id = s.theme_id WHERE ${ofAnswer('s')})`,
};

/** The list of an answer, `[]` when it has none. */
export const answerList = (name: AnswerList, column: 'v' | 'names' = 'v'): Fragment => sql`coalesce(${lists[name](column)}, [])`;

export const themeListType: ValueType = { list: { struct: [{ name: 'name', type: 'text' }, { name: 'type', type: 'text' }] } };

/**
 * The report's SQL for the executions of the category that `where` (over `f` and `p`) keeps. The answers
 * are numbered first, from their id and time alone (never their text), so a page or a stream slice
 * reads and builds only its own answers.
 */
export function answerRows(categoryId: string, where: Fragment, fields: readonly AnswerField[]): ShapedReport {
  const ctes = sql`p AS (
  SELECT pr.id, pr.prompt, pr.topic_id, pr.tag_ids, pr.analysis_types, pr.prompt_type, pr.asset_id, coalesce(tn.tag_names, []) AS tag_names
  FROM prompts pr
  LEFT JOIN (
    SELECT x.id, ${orderedList(sql`t.name`, [{ by: sql`t.name` }, { by: sql`t.id` }])} AS tag_names
    FROM (SELECT id, ${eachItemOrNull(sql`tag_ids`, true)} AS tag_id FROM prompts WHERE category_id = ${categoryId}) x
    JOIN tags t ON t.id = x.tag_id AND t.category_id = ${categoryId}
    GROUP BY x.id
  ) tn ON tn.id = pr.id
  WHERE pr.category_id = ${categoryId}
),
e ${materialized} (SELECT f.id, f.day, f.executed_at, f.model_id FROM executions f JOIN p ON p.id = f.prompt_id WHERE ${where})`;
  const shape: RowShape = { fields: fields.map((f) => field(f.name, value(f.name, f.type, f.wire))) };
  const rows = (range: UnitRange) => sql`WITH numbered AS (
  SELECT id, day, ${range.after} + row_number() OVER (ORDER BY executed_at DESC, id) AS unit
  FROM (SELECT * FROM e ORDER BY executed_at DESC, id${range.upTo === null ? sql`` : sql` LIMIT ${range.upTo - range.after}`} OFFSET ${range.after})
)
SELECT o.unit, 0 AS seq, ${join(fields.map((f) => sql`${f.wire === 'json' ? jsonText(f.value) : f.value} AS ${ident(f.name)}`), ', ')}
FROM numbered o
JOIN executions f ON f.category_id = ${categoryId} AND f.day = o.day AND f.id = o.id
JOIN p ON p.id = f.prompt_id
LEFT JOIN models mo ON mo.id = f.model_id
LEFT JOIN regions rg ON rg.id = f.region_id
LEFT JOIN personas pe ON pe.id = f.persona_id
LEFT JOIN topics tp ON tp.id = p.topic_id
LEFT JOIN assets pa ON pa.id = p.asset_id`;
  return {
    ctes,
    shape,
    rows,
    total: sql`SELECT count(*) FROM e`,
    info: sql`SELECT coalesce((SELECT ${distinctSorted(sql`mo.name`)} FROM e JOIN models mo ON mo.id = e.model_id), []) AS models`,
    sliceUnits: 2048,
  };
}
