import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance } from '../engine/duckdb-api.ts';
import { pathLiteral } from '../engine/literal.ts';
import { DatasetError } from '../errors.ts';
import { columnList } from '../model/layout.ts';
import { checkOut, mergeExisting, writeTables } from './dataset-out.ts';
import { load, places } from './flat-input.ts';
import { tables, type TableName } from '../model/tables.ts';
import { answersSql, citationsSql, mentionsSql, nameId, setupSql, tablesSql } from './flat-sql.ts';

export interface ImportOptions {
  /** One row per answer and mentioned brand: CSV with a header, a JSON array, NDJSON or Parquet. */
  readonly answers: string;
  /** One row per cited URL of an answer, in the same formats. */
  readonly citations?: string;
  /** The organization the data belongs to; its id is made from this name. */
  readonly organization: string;
  /** Brands that are the organization's own; they are tracked in every category. */
  readonly owned?: readonly string[];
  readonly out: string;
  /** Remove `out` first when it holds files. */
  readonly replace?: boolean;
  /** Add this organization to the dataset already in `out` (made by an import before), keeping its other organizations. */
  readonly append?: boolean;
}

export interface ImportResult {
  readonly out: string;
  readonly organization: { readonly id: string; readonly name: string };
  readonly categories: readonly { readonly id: string; readonly name: string }[];
  readonly window: { readonly start_date: string; readonly end_date: string };
  readonly rows: Partial<Record<TableName, number>>;
  /** Columns of the input files that are no column of theirs, ignored (a near miss of one is refused instead). */
  readonly ignored: readonly string[];
}

const answerColumns = {
  required: ['executed_at', 'category', 'prompt', 'model', 'region'],
  optional: ['answer_id', 'topic', 'persona', 'tags', 'language', 'brand', 'position', 'response', 'search_triggered'],
};
const citationColumns = { required: ['answer_id', 'url'], optional: ['position', 'title', 'citation_category'] };

/** At most this many problems of one kind are listed; the rest are counted (`and N more`). */
export const issuesPerCheck = 20;

/**
 * Turns the flat answers (and citations) an analyst exports into a dataset folder: organizations,
 * categories, topics, tags, personas, models, regions, brands, prompts, executions, mentions and
 * citations, each written sorted by the contract's sort key. Every problem of the input is reported at
 * once, with its line. Nothing is written until the input has no problem; a failure while writing
 * removes a folder the import created.
 */
export async function importFlat(options: ImportOptions): Promise<ImportResult> {
  checkOut(options);
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await instance.connect();
  try {
    await conn.run(`SET TimeZone = 'UTC'`);
    for (const s of setupSql) await conn.run(s);
    await conn.run(`CREATE TABLE settings AS SELECT $organization AS organization`, {
      organization: options.organization,
    });
    await conn.run(`CREATE TABLE owned (brand VARCHAR)`);
    for (const brand of options.owned ?? []) await conn.run(`INSERT INTO owned VALUES ($brand)`, { brand });
    const ignored = [...(await load(conn, 'answers', options.answers, answerColumns))];
    if (options.citations) ignored.push(...(await load(conn, 'cited', options.citations, citationColumns)));
    const issues = await inputIssues(conn, options);
    if (issues.length > 0) throw new DatasetError(`cannot import:\n${issues.map((i) => `  ${i}`).join('\n')}`);
    await conn.run(answersSql);
    await conn.run(mentionsSql);
    if (options.citations) await conn.run(citationsSql);
    const organizationId = nameId('organization', options.organization);
    const written: TableName[] = [];
    for (const [table, select] of Object.entries(tablesSql(organizationId)) as [TableName, string][]) {
      if (table === 'citations' && !options.citations) continue;
      await conn.run(`CREATE TABLE "out_${table}" AS ${select}`);
      written.push(table);
    }
    const result = { out: options.out, ...(await summary(conn)), ignored };
    if (options.append) await mergeExisting(conn, options.out, organizationId, written);
    const rows: Partial<Record<TableName, number>> = {};
    await writeTables(options, async (dir) => {
      for (const table of written) {
        const sorted = `SELECT ${columnList(table)
          .map((c) => `"${c}"`)
          .join(
            ', ',
          )} FROM "out_${table}" ORDER BY ${[...tables[table].sort, ...columnList(table)].map((c) => `"${c}"`).join(', ')}`;
        await conn.run(`COPY (${sorted}) TO ${pathLiteral(join(dir, `${table}.parquet`))} (FORMAT parquet)`);
        rows[table] = Number((await conn.runAndReadAll(`SELECT count(*) FROM "out_${table}"`)).getRowsJS()[0]![0]);
      }
    });
    return { ...result, rows };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

interface Check {
  readonly file: string;
  readonly sql: string;
}

/** Every problem of the flat input, each with its file and line; past `issuesPerCheck` of one kind, how many more. */
async function inputIssues(conn: DuckDBConnection, options: ImportOptions): Promise<string[]> {
  const checks: Check[] = [
    {
      file: options.answers,
      sql: `SELECT line, 'has no ' || list_extract(['executed_at', 'category', 'prompt', 'model', 'region'], list_position([executed_at IS NULL, category IS NULL, prompt IS NULL, model IS NULL, region IS NULL], true)) FROM answers WHERE executed_at IS NULL OR category IS NULL OR prompt IS NULL OR model IS NULL OR region IS NULL`,
    },
    {
      file: options.answers,
      sql: `SELECT line, 'executed_at "' || executed_at || '" is not an instant (e.g. 2026-03-02T14:05:00Z)' FROM answers WHERE executed_at IS NOT NULL AND TRY_CAST(executed_at AS TIMESTAMPTZ) IS NULL`,
    },
    {
      file: options.answers,
      sql: `SELECT line, 'position "' || position || '" is not a whole number of 1 or more' FROM answers WHERE position IS NOT NULL AND coalesce(TRY_CAST(position AS INTEGER) < 1, true)`,
    },
    {
      file: options.answers,
      sql: `SELECT min(line), 'answer "' || answer_id || '" has rows that disagree on its category, prompt, model, region, persona or executed_at' FROM answers WHERE answer_id IS NOT NULL GROUP BY answer_id HAVING count(DISTINCT (category, prompt, model, region, coalesce(persona, ''), executed_at)) > 1`,
    },
  ];
  if (options.citations) {
    checks.push(
      {
        file: options.citations,
        sql: `SELECT line, 'has no ' || CASE WHEN answer_id IS NULL THEN 'answer_id' ELSE 'url' END FROM cited WHERE answer_id IS NULL OR url IS NULL`,
      },
      {
        file: options.citations,
        sql: `SELECT line, 'url "' || url || '" is not an http(s) URL' FROM cited WHERE url IS NOT NULL AND NOT regexp_matches(url, '^https?://[^/?#]+')`,
      },
      {
        file: options.citations,
        sql: `SELECT line, 'answer_id "' || answer_id || '" is not an answer_id of the answers file' FROM cited WHERE answer_id IS NOT NULL AND answer_id NOT IN (SELECT answer_id FROM answers WHERE answer_id IS NOT NULL)`,
      },
      {
        file: options.citations,
        sql: `SELECT line, 'position "' || position || '" is not a whole number of 1 or more' FROM cited WHERE position IS NOT NULL AND coalesce(TRY_CAST(position AS INTEGER) < 1, true)`,
      },
    );
  }
  const found: { file: string; rows: [number, string][]; more: number }[] = [];
  for (const { file, sql } of checks) {
    const rows = (
      await conn.runAndReadAll(`SELECT *, count(*) OVER () FROM (${sql}) ORDER BY 1 LIMIT ${issuesPerCheck}`)
    ).getRowsJS();
    if (rows.length === 0) continue;
    found.push({ file, rows: rows.map((r) => [Number(r[0]), String(r[1])]), more: Number(rows[0]![2]) - rows.length });
  }
  const issues: string[] = [];
  for (const file of new Set(found.map((f) => f.file))) {
    const ofFile = found.filter((f) => f.file === file);
    const place = await places(
      file,
      ofFile.flatMap((f) => f.rows.map(([line]) => line)),
    );
    for (const { rows, more } of ofFile) {
      for (const [line, message] of rows) issues.push(`${place(line)}: ${message}`);
      if (more > 0) issues.push(`${file}: and ${more.toLocaleString('en-US')} more like the above`);
    }
  }
  return issues;
}

async function summary(conn: DuckDBConnection): Promise<Omit<ImportResult, 'out' | 'rows' | 'ignored'>> {
  const [org] = (await conn.runAndReadAll(`SELECT id, name FROM out_organizations`)).getRowsJS();
  const categories = (await conn.runAndReadAll(`SELECT id, name FROM out_categories ORDER BY name, id`))
    .getRowsJS()
    .map(([id, name]) => ({ id: String(id), name: String(name) }));
  const [window] = (
    await conn.runAndReadAll(`SELECT min(day)::VARCHAR, max(day)::VARCHAR FROM out_executions`)
  ).getRowsJS();
  return {
    organization: { id: String(org![0]), name: String(org![1]) },
    categories,
    window: { start_date: String(window![0]), end_date: String(window![1]) },
  };
}
