import { distinctSorted, jsonText, inlined, materialized, orderedList, semiJoin, struct } from '../../query/dialect.ts';
import { field, value, type RowShape, type ValueType, type Wire } from '../../query/row-shape.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import type { ShapedReport, UnitRange } from '../rows-query.ts';
import { modelNames } from '../insights/scope.ts';
import { nameJoins, promptColumns, promptKeys, promptsWithTags, type AnswerJoin } from './answer-names.ts';

export type { AnswerJoin } from './answer-names.ts';

/**
 * Raw prompt answers (v1 and v2): one row per execution, newest first. An execution is aliased `f`,
 * its current prompt `p` (with `tag_names`), its model `mo`, region `rg`, persona `pe`, topic `tp` and
 * the prompt's asset `pa`, each joined only when a field reads it (`joins`); `where` reads only `p`'s `promptKeys`. Per-answer lists and the prompts' tag
 * names are grouped over the answers a page or stream slice sends (`numbered`) and joined on, so they are
 * never built for the whole window.
 */

export type AnswerList = 'mentions' | 'citations' | 'queries' | 'themes';

export interface AnswerField {
  readonly name: string;
  /** SQL over `f`, `p` and the dimension aliases. */
  readonly value: Fragment;
  readonly type: ValueType;
  /** Lists cross as JSON text: one read per answer instead of one per element. */
  readonly wire?: Wire;
  /** The per-answer list the value reads, joined for the page's answers. */
  readonly list?: ListRef;
  /** The names the value reads beside the answer and its prompt: only those are joined. */
  readonly joins?: readonly AnswerJoin[];
}

/** A text field read from a joined name. */
export const joinedName = (name: string, value: Fragment, joined: AnswerJoin): AnswerField => ({
  name,
  value,
  type: 'text',
  joins: [joined],
});

/** One of an answer's lists, in one of its forms. */
export interface ListRef {
  readonly list: AnswerList;
  readonly column: 'v' | 'names';
}

const listAlias = (ref: ListRef) => ident(`l_${ref.list}_${ref.column}`);

/** A list-valued field of an answer: SQL over the row, or one of its per-answer lists (`[]` when it has none). */
export const listField = (name: string, value: Fragment | ListRef, type: ValueType = { list: 'text' }): AnswerField =>
  'list' in value
    ? { name, value: sql`coalesce(${listAlias(value)}.v, [])`, type, wire: 'json', list: value }
    : { name, value, type, wire: 'json' };

/** One of an answer's lists, for `listField`. */
export const answerList = (list: AnswerList, column: 'v' | 'names' = 'v'): ListRef => ({ list, column });

// TRICKY: the facts of the page's answers, by day and id: the day is implied by the id but lets DuckDB prune
// the fact files' row groups to the page's days. A join, not a subquery per answer: ClickHouse runs no
// correlated subquery over a Distributed table.
const ofPage = (table: string, columns: readonly string[], categoryId: string) =>
  sql`(SELECT ${join(
    columns.map((c) => sql`x.${ident(c)} AS ${ident(c)}`),
    ', ',
  )} FROM ${ident(table)} x ${semiJoin} numbered o ON o.day = x.day AND o.id = x.execution_id WHERE x.category_id = ${categoryId})`;

const lists: Record<AnswerList, (column: 'v' | 'names', categoryId: string) => Fragment> = {
  mentions: (
    _,
    c,
  ) => sql`SELECT m.execution_id AS id, ${orderedList(sql`a.name`, [{ by: sql`m.position` }, { by: sql`a.name` }])} AS v
    FROM ${ofPage('mentions', ['execution_id', 'position', 'asset_id'], c)} m JOIN assets a ON a.id = m.asset_id GROUP BY m.execution_id`,
  citations: (_, c) =>
    sql`SELECT q.execution_id AS id, ${orderedList(sql`q.url`, [{ by: sql`q.position` }])} AS v FROM ${ofPage('citations', ['execution_id', 'position', 'url'], c)} q GROUP BY q.execution_id`,
  queries: (_, c) =>
    sql`SELECT q.execution_id AS id, ${orderedList(sql`q.query`, [{ by: sql`q.position` }])} AS v FROM ${ofPage('fanouts', ['execution_id', 'position', 'query'], c)} q GROUP BY q.execution_id`,
  themes: (column, c) =>
    sql`SELECT s.execution_id AS id, ${
      column === 'names'
        ? distinctSorted(sql`t.name`)
        : distinctSorted(
            struct([
              ['name', sql`t.name`],
              ['type', sql`s.sentiment_type`],
            ]),
          )
    } AS v
    FROM ${ofPage('sentiments', ['execution_id', 'theme_id', 'sentiment_type'], c)} s JOIN themes t ON t.id = s.theme_id GROUP BY s.execution_id`,
};

export const themeListType: ValueType = {
  list: {
    struct: [
      { name: 'name', type: 'text' },
      { name: 'type', type: 'text' },
    ],
  },
};

// TRICKY: an answer's day is the ET day of its instant, so the newest `upTo` answers lie on the latest days that
// hold that many between them: the top-N sorts only those days' answers, counted per day first (all days when
// the window holds fewer).
const latestDaysHolding = (upTo: number) =>
  sql`SELECT coalesce(max(day) FILTER (WHERE seen >= ${upTo}), min(day)) FROM (SELECT day, sum(n) OVER (ORDER BY day DESC) AS seen FROM (SELECT day, sum(n) AS n FROM answer_days GROUP BY day))`;

/**
 * The report's SQL for the executions of the category that `where` (over `f` and `p`) keeps. The window's
 * answers are counted once per day and model (`answer_days`): the total, the models and the days a page
 * needs come from those counts, so the answers themselves are read again only over the page's days. They
 * are numbered from their id and time alone (never their text), so a page or a stream slice reads and
 * builds only its own answers. `counted`, when given, is those counts (`day`, `model_id`, `n`) from a rollup.
 */
export function answerRows(
  categoryId: string,
  where: Fragment,
  fields: readonly AnswerField[],
  counted: Fragment | null = null,
): ShapedReport {
  const ctes = sql`scoped_answers ${inlined} (SELECT f.id, f.day, f.executed_at, f.model_id FROM executions f JOIN (SELECT ${join(
    promptKeys.map((c) => ident(c)),
    ', ',
  )} FROM prompts WHERE category_id = ${categoryId}) p ON p.id = f.prompt_id WHERE ${where}),
answer_days ${materialized} (${counted ?? sql`SELECT day, model_id, count(*) AS n FROM scoped_answers GROUP BY day, model_id`})`;
  const shape: RowShape = { fields: fields.map((f) => field(f.name, value(f.name, f.type, f.wire))) };
  const refs = [
    ...new Map(fields.flatMap((f) => (f.list ? [[`${f.list.list}_${f.list.column}`, f.list] as const] : []))).values(),
  ];
  const joins = new Set(fields.flatMap((f) => f.joins ?? []));
  const names = Object.entries(nameJoins).flatMap(([name, joined]) =>
    joins.has(name as AnswerJoin) ? [sql`\n${joined}`] : [],
  );
  const listJoins = refs.map(
    (ref) => sql`
LEFT JOIN (
    ${lists[ref.list](ref.column, categoryId)}
) ${listAlias(ref)} ON ${listAlias(ref)}.id = f.id`,
  );
  // TRICKY: the page's answers are read once (kept), and their prompts' tag names are grouped for those prompts
  // alone: for every prompt of a scale-100 category it cost a tenth of a 30-day page (352 → 327 ms, interleaved).
  const rows = (range: UnitRange) => sql`WITH numbered AS (
  SELECT id, day, ${range.after} + row_number() OVER (ORDER BY executed_at DESC, id) AS unit
  FROM (SELECT * FROM scoped_answers${range.upTo === null ? sql`` : sql` WHERE day >= (${latestDaysHolding(range.upTo)})`} ORDER BY executed_at DESC, id${range.upTo === null ? sql`` : sql` LIMIT ${range.upTo - range.after}`} OFFSET ${range.after})
),
page_answers ${materialized} (
  SELECT o.unit, f.* FROM numbered o JOIN executions f ON f.category_id = ${categoryId} AND f.day = o.day AND f.id = o.id
),
page_prompts AS (${
    joins.has('tags')
      ? promptsWithTags(categoryId)
      : sql`
  SELECT ${promptColumns} FROM prompts pr WHERE pr.category_id = ${categoryId}`
  }
)
SELECT f.unit, 0 AS seq, ${join(
    fields.map((f) => sql`${f.wire === 'json' ? jsonText(f.value) : f.value} AS ${ident(f.name)}`),
    ', ',
  )}
FROM page_answers f
JOIN page_prompts p ON p.id = f.prompt_id${join(names, '')}${join(listJoins, '')}`;
  return {
    ctes,
    shape,
    rows,
    total: sql`SELECT CAST(coalesce(sum(n), 0) AS BIGINT) FROM answer_days`,
    info: sql`SELECT ${modelNames('answer_days')} AS models`,
    sliceUnits: 2048,
  };
}
