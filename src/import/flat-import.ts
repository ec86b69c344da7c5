import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance } from '../engine/duckdb-api.ts';
import { pathLiteral } from '../engine/literal.ts';
import { DatasetError } from '../errors.ts';
import { columnList } from '../model/layout.ts';
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
}

export interface ImportResult {
  readonly out: string;
  readonly organization: { readonly id: string; readonly name: string };
  readonly categories: readonly { readonly id: string; readonly name: string }[];
  readonly window: { readonly start_date: string; readonly end_date: string };
  readonly rows: Partial<Record<TableName, number>>;
}

const answerColumns = { required: ['executed_at', 'category', 'prompt', 'model', 'region'], optional: ['answer_id', 'topic', 'persona', 'tags', 'language', 'brand', 'position', 'response', 'search_triggered'] };
const citationColumns = { required: ['answer_id', 'url'], optional: ['position', 'title', 'citation_category'] };

/**
 * Turns the flat answers (and citations) an analyst exports into a dataset folder: organizations,
 * categories, topics, tags, personas, models, regions, brands, prompts, executions, mentions and
 * citations, each written sorted by the contract's sort key. Every problem of the input is reported at
 * once, with its line.
 */
export async function importFlat(options: ImportOptions): Promise<ImportResult> {
  await prepareOut(options.out, options.replace ?? false);
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await instance.connect();
  try {
    await conn.run(`SET TimeZone = 'UTC'`);
    for (const s of setupSql) await conn.run(s);
    await conn.run(`CREATE TABLE settings AS SELECT $organization AS organization`, { organization: options.organization });
    await conn.run(`CREATE TABLE owned (brand VARCHAR)`);
    for (const brand of options.owned ?? []) await conn.run(`INSERT INTO owned VALUES ($brand)`, { brand });
    await load(conn, 'answers', options.answers, answerColumns);
    if (options.citations) await load(conn, 'cited', options.citations, citationColumns);
    const issues = await inputIssues(conn, options);
    if (issues.length > 0) throw new DatasetError(`cannot import:\n${issues.map((i) => `  ${i}`).join('\n')}`);
    await conn.run(answersSql);
    await conn.run(mentionsSql);
    if (options.citations) await conn.run(citationsSql);
    const rows: Partial<Record<TableName, number>> = {};
    for (const [table, select] of Object.entries(tablesSql(nameId('organization', options.organization))) as [TableName, string][]) {
      if (table === 'citations' && !options.citations) continue;
      await conn.run(`CREATE TABLE "out_${table}" AS ${select}`);
      const sorted = `SELECT ${columnList(table).map((c) => `"${c}"`).join(', ')} FROM "out_${table}" ORDER BY ${[...tables[table].sort, ...columnList(table)].map((c) => `"${c}"`).join(', ')}`;
      await conn.run(`COPY (${sorted}) TO ${pathLiteral(join(options.out, `${table}.parquet`))} (FORMAT parquet)`);
      rows[table] = Number((await conn.runAndReadAll(`SELECT count(*) FROM "out_${table}"`)).getRowsJS()[0]![0]);
    }
    return { out: options.out, ...(await summary(conn)), rows };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function prepareOut(out: string, replace: boolean): Promise<void> {
  if (existsSync(out) && readdirSync(out).length > 0) {
    if (!replace) throw new DatasetError(`${out} is not empty: pass --replace to overwrite it`);
    await rm(out, { recursive: true });
  }
  await mkdir(out, { recursive: true });
}

function reader(file: string): string {
  const ext = extname(file).toLowerCase();
  if (ext === '.csv' || ext === '.tsv') return `read_csv($file, header = true, all_varchar = true)`;
  if (ext === '.json' || ext === '.ndjson' || ext === '.jsonl') return `read_json_auto($file)`;
  if (ext === '.parquet') return `read_parquet($file)`;
  throw new DatasetError(`${file}: expected a .csv, .tsv, .json, .ndjson, .jsonl or .parquet file`);
}

/** Copies a flat file into `name` as text columns numbered by line; absent optional columns are NULL. */
async function load(conn: DuckDBConnection, name: string, file: string, columns: { required: string[]; optional: string[] }): Promise<void> {
  if (!existsSync(file)) throw new DatasetError(`${file}: no such file`);
  const found = new Set((await conn.runAndReadAll(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${reader(file)})`, { file })).getRowsJS().map((r) => String(r[0])));
  const absent = columns.required.filter((c) => !found.has(c));
  if (absent.length > 0) throw new DatasetError(`${file}: missing column${absent.length > 1 ? 's' : ''} ${absent.map((c) => `"${c}"`).join(', ')} (see docs/own-data.md)`);
  const select = [...columns.required, ...columns.optional].map((c) => (found.has(c) ? `nullif(trim(CAST("${c}" AS VARCHAR)), '') AS "${c}"` : `NULL::VARCHAR AS "${c}"`));
  // TRICKY: one thread keeps the file's row order, which numbers mentions and citations without a position.
  await conn.run(`CREATE TABLE ${name} AS SELECT row_number() OVER () AS line, ${select.join(', ')} FROM ${reader(file)}`, { file });
}

/** Where a problem is: CSV lines count the header as line 1; JSON and Parquet rows count from 1. */
const place = (file: string, row: number) => (reader(file).startsWith('read_csv') ? `${file} line ${row + 1}` : `${file} row ${row}`);

/** Every problem of the flat input, each with its file and line. */
async function inputIssues(conn: DuckDBConnection, options: ImportOptions): Promise<string[]> {
  const checks: [string, string][] = [
    [options.answers, `SELECT line, 'has no ' || list_extract(['executed_at', 'category', 'prompt', 'model', 'region'], list_position([executed_at IS NULL, category IS NULL, prompt IS NULL, model IS NULL, region IS NULL], true)) FROM answers WHERE executed_at IS NULL OR category IS NULL OR prompt IS NULL OR model IS NULL OR region IS NULL`],
    [options.answers, `SELECT line, 'executed_at "' || executed_at || '" is not an instant (e.g. 2026-03-02T14:05:00Z)' FROM answers WHERE executed_at IS NOT NULL AND TRY_CAST(executed_at AS TIMESTAMPTZ) IS NULL`],
    [options.answers, `SELECT line, 'position "' || position || '" is not a whole number of 1 or more' FROM answers WHERE position IS NOT NULL AND coalesce(TRY_CAST(position AS INTEGER) < 1, true)`],
    [options.answers, `SELECT min(line), 'answer "' || answer_id || '" has rows that disagree on its category, prompt, model, region, persona or executed_at' FROM answers WHERE answer_id IS NOT NULL GROUP BY answer_id HAVING count(DISTINCT (category, prompt, model, region, coalesce(persona, ''), executed_at)) > 1`],
  ];
  if (options.citations) {
    checks.push(
      [options.citations, `SELECT line, 'has no ' || CASE WHEN answer_id IS NULL THEN 'answer_id' ELSE 'url' END FROM cited WHERE answer_id IS NULL OR url IS NULL`],
      [options.citations, `SELECT line, 'url "' || url || '" is not an http(s) URL' FROM cited WHERE url IS NOT NULL AND NOT regexp_matches(url, '^https?://[^/?#]+')`],
      [options.citations, `SELECT line, 'answer_id "' || answer_id || '" is not an answer_id of the answers file' FROM cited WHERE answer_id IS NOT NULL AND answer_id NOT IN (SELECT answer_id FROM answers WHERE answer_id IS NOT NULL)`],
      [options.citations, `SELECT line, 'position "' || position || '" is not a whole number of 1 or more' FROM cited WHERE position IS NOT NULL AND coalesce(TRY_CAST(position AS INTEGER) < 1, true)`],
    );
  }
  const issues: string[] = [];
  for (const [file, sql] of checks) {
    const rows = (await conn.runAndReadAll(`${sql} ORDER BY 1 LIMIT 20`)).getRowsJS();
    for (const [line, message] of rows) issues.push(`${place(file, Number(line))}: ${String(message)}`);
  }
  return issues;
}

async function summary(conn: DuckDBConnection): Promise<Omit<ImportResult, 'out' | 'rows'>> {
  const [org] = (await conn.runAndReadAll(`SELECT id, name FROM out_organizations`)).getRowsJS();
  const categories = (await conn.runAndReadAll(`SELECT id, name FROM out_categories ORDER BY name, id`)).getRowsJS().map(([id, name]) => ({ id: String(id), name: String(name) }));
  const [window] = (await conn.runAndReadAll(`SELECT min(day)::VARCHAR, max(day)::VARCHAR FROM out_executions`)).getRowsJS();
  return { organization: { id: String(org![0]), name: String(org![1]) }, categories, window: { start_date: String(window![0]), end_date: String(window![1]) } };
}
