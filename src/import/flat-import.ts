import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { DuckDBInstance, listValue, type DuckDBConnection } from '@duckdb/node-api';
import { findTableFiles } from '../engine/dataset.ts';
import { pathLiteral } from '../engine/literal.ts';
import { DatasetError } from '../errors.ts';
import { columnList, manifestFileName } from '../model/layout.ts';
import { csvRecordLines } from './csv-lines.ts';
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

const answerColumns = { required: ['executed_at', 'category', 'prompt', 'model', 'region'], optional: ['answer_id', 'topic', 'persona', 'tags', 'language', 'brand', 'position', 'response', 'search_triggered'] };
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
    await conn.run(`CREATE TABLE settings AS SELECT $organization AS organization`, { organization: options.organization });
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
        const sorted = `SELECT ${columnList(table).map((c) => `"${c}"`).join(', ')} FROM "out_${table}" ORDER BY ${[...tables[table].sort, ...columnList(table)].map((c) => `"${c}"`).join(', ')}`;
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

/** Refuses an `out` the import may not write, before reading any input. */
function checkOut(options: ImportOptions): void {
  const { out } = options;
  const occupied = existsSync(out) && readdirSync(out).length > 0;
  if (options.append) {
    if (options.replace) throw new DatasetError('--append adds to the dataset in --out, --replace removes it: give one of them');
    if (!occupied || !existsSync(join(out, 'organizations.parquet'))) throw new DatasetError(`${out} holds no dataset to append to: import the first organization without --append`);
    if (existsSync(join(out, manifestFileName))) throw new DatasetError(`${out} is a generated dataset (it has ${manifestFileName}, whose hashes an append would break): --append adds to folders made by aea import`);
    return;
  }
  if (occupied && !options.replace) throw new DatasetError(`${out} is not empty: pass --replace to overwrite it, or --append to add an organization to it`);
}

/**
 * The tables of the dataset already in `out` joined to this import's: rows of other organizations are
 * kept, models and regions (shared by every organization, ids made from their names) once each. The
 * organization must not be there yet.
 */
async function mergeExisting(conn: DuckDBConnection, out: string, organizationId: string, written: readonly TableName[]): Promise<void> {
  const files = (table: TableName) => findTableFiles(out, table);
  const present = await conn.runAndReadAll(`SELECT count(*) FROM read_parquet($files) WHERE id = $id`, { files: listValue(files('organizations')!), id: organizationId });
  if (Number(present.getRowsJS()[0]![0]) > 0) throw new DatasetError(`${out} already holds this organization (${organizationId}): import it again into a new folder, or with --replace`);
  for (const table of written) {
    const existing = files(table);
    if (!existing) continue;
    const columns = columnList(table).map((c) => `"${c}"`).join(', ');
    const shared = !columnList(table).includes('organization_id');
    const before = `SELECT ${columns} FROM read_parquet($files, union_by_name = true)`;
    const added = shared ? `SELECT ${columns} FROM "out_${table}" WHERE id NOT IN (SELECT id FROM (${before}))` : `SELECT ${columns} FROM "out_${table}"`;
    await conn.run(`CREATE OR REPLACE TABLE "out_${table}" AS ${before} UNION ALL ${added}`, { files: listValue(existing) });
  }
}

/**
 * Writes the tables into a fresh folder beside `out` and then moves them in, so a failure midway leaves
 * `out` as it was (and no folder where there was none).
 */
async function writeTables(options: ImportOptions, write: (dir: string) => Promise<void>): Promise<void> {
  const { out } = options;
  const existed = existsSync(out);
  await mkdir(out, { recursive: true });
  const staging = await mkdtemp(join(out, '.aea-import-'));
  try {
    await write(staging);
    if (options.replace) for (const f of readdirSync(out)) if (join(out, f) !== staging) await rm(join(out, f), { recursive: true, force: true });
    for (const f of readdirSync(staging)) {
      const table = basename(f, '.parquet');
      await rm(join(out, table), { recursive: true, force: true });
      await rename(join(staging, f), join(out, f));
    }
  } catch (error) {
    if (!existed) await rm(out, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function reader(file: string): string {
  const ext = extname(file).toLowerCase();
  if (ext === '.csv' || ext === '.tsv') return `read_csv($file, header = true, all_varchar = true)`;
  if (ext === '.json' || ext === '.ndjson' || ext === '.jsonl') return `read_json_auto($file)`;
  if (ext === '.parquet') return `read_parquet($file)`;
  throw new DatasetError(`${file}: expected a .csv, .tsv, .json, .ndjson, .jsonl or .parquet file`);
}

/**
 * What a reader's refusal says, without the echo of the line it could not read (a line may be a
 * gigabyte) or the settings it lists: its first lines, each cut at 200 characters.
 */
function unreadable(file: string, error: unknown): DatasetError {
  const lines = (error as Error).message.split('\n');
  const kept = lines.slice(0, Math.max(1, lines.findIndex((l) => l.trim() === ''))).filter((l) => !l.startsWith('Original Line:'));
  const said = kept.map((l) => (l.length > 200 ? `${l.slice(0, 199)}…` : l)).join(' ');
  return new DatasetError(`${file}: cannot read it: ${said}`);
}

/** Edit distance of two short names, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/**
 * Copies a flat file into `name` as text columns numbered by record; absent optional columns are NULL. A
 * column that is none of the file's but within two edits of one (`postion`) is refused; the names of
 * other columns are returned, ignored.
 */
async function load(conn: DuckDBConnection, name: string, file: string, columns: { required: string[]; optional: string[] }): Promise<string[]> {
  if (!existsSync(file)) throw new DatasetError(`${file}: no such file`);
  const read = reader(file);
  let found: Set<string>;
  try {
    found = new Set((await conn.runAndReadAll(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${read})`, { file })).getRowsJS().map((r) => String(r[0])));
  } catch (error) {
    throw unreadable(file, error);
  }
  const known = [...columns.required, ...columns.optional];
  const absent = columns.required.filter((c) => !found.has(c));
  const unknown = [...found].filter((c) => !known.includes(c));
  const misspelt = unknown.flatMap((c) => {
    const near = known.filter((k) => !found.has(k) && distance(c.toLowerCase(), k) <= 2).sort((x, y) => distance(c.toLowerCase(), x) - distance(c.toLowerCase(), y))[0];
    return near ? [`column "${c}" is not a column of this file: did you mean "${near}"?`] : [];
  });
  if (absent.length > 0) misspelt.unshift(`missing column${absent.length > 1 ? 's' : ''} ${absent.map((c) => `"${c}"`).join(', ')}`);
  if (misspelt.length > 0) throw new DatasetError(`${file}: ${misspelt.join('; ')} (see docs/own-data.md)`);
  const select = known.map((c) => (found.has(c) ? `nullif(trim(CAST("${c}" AS VARCHAR)), '') AS "${c}"` : `NULL::VARCHAR AS "${c}"`));
  try {
    // TRICKY: one thread keeps the file's row order, which numbers mentions and citations without a position.
    await conn.run(`CREATE TABLE ${name} AS SELECT row_number() OVER () AS line, ${select.join(', ')} FROM ${read}`, { file });
  } catch (error) {
    throw unreadable(file, error);
  }
  return unknown.map((c) => `${basename(file)}: ${c}`);
}

/**
 * Where each problem is: a CSV's line (its records mapped to the lines they start on, quoted line
 * breaks and blank lines counted, as an editor shows them), a JSON or Parquet file's row from 1.
 */
async function places(file: string, records: readonly number[]): Promise<(row: number) => string> {
  if (!reader(file).startsWith('read_csv')) return (row) => `${file} row ${row}`;
  const lines = await csvRecordLines(file, records);
  return (row) => `${file} line ${lines.get(row) ?? row + 1}`;
}

interface Check {
  readonly file: string;
  readonly sql: string;
}

/** Every problem of the flat input, each with its file and line; past `issuesPerCheck` of one kind, how many more. */
async function inputIssues(conn: DuckDBConnection, options: ImportOptions): Promise<string[]> {
  const checks: Check[] = [
    { file: options.answers, sql: `SELECT line, 'has no ' || list_extract(['executed_at', 'category', 'prompt', 'model', 'region'], list_position([executed_at IS NULL, category IS NULL, prompt IS NULL, model IS NULL, region IS NULL], true)) FROM answers WHERE executed_at IS NULL OR category IS NULL OR prompt IS NULL OR model IS NULL OR region IS NULL` },
    { file: options.answers, sql: `SELECT line, 'executed_at "' || executed_at || '" is not an instant (e.g. 2026-03-02T14:05:00Z)' FROM answers WHERE executed_at IS NOT NULL AND TRY_CAST(executed_at AS TIMESTAMPTZ) IS NULL` },
    { file: options.answers, sql: `SELECT line, 'position "' || position || '" is not a whole number of 1 or more' FROM answers WHERE position IS NOT NULL AND coalesce(TRY_CAST(position AS INTEGER) < 1, true)` },
    { file: options.answers, sql: `SELECT min(line), 'answer "' || answer_id || '" has rows that disagree on its category, prompt, model, region, persona or executed_at' FROM answers WHERE answer_id IS NOT NULL GROUP BY answer_id HAVING count(DISTINCT (category, prompt, model, region, coalesce(persona, ''), executed_at)) > 1` },
  ];
  if (options.citations) {
    checks.push(
      { file: options.citations, sql: `SELECT line, 'has no ' || CASE WHEN answer_id IS NULL THEN 'answer_id' ELSE 'url' END FROM cited WHERE answer_id IS NULL OR url IS NULL` },
      { file: options.citations, sql: `SELECT line, 'url "' || url || '" is not an http(s) URL' FROM cited WHERE url IS NOT NULL AND NOT regexp_matches(url, '^https?://[^/?#]+')` },
      { file: options.citations, sql: `SELECT line, 'answer_id "' || answer_id || '" is not an answer_id of the answers file' FROM cited WHERE answer_id IS NOT NULL AND answer_id NOT IN (SELECT answer_id FROM answers WHERE answer_id IS NOT NULL)` },
      { file: options.citations, sql: `SELECT line, 'position "' || position || '" is not a whole number of 1 or more' FROM cited WHERE position IS NOT NULL AND coalesce(TRY_CAST(position AS INTEGER) < 1, true)` },
    );
  }
  const found: { file: string; rows: [number, string][]; more: number }[] = [];
  for (const { file, sql } of checks) {
    const rows = (await conn.runAndReadAll(`SELECT *, count(*) OVER () FROM (${sql}) ORDER BY 1 LIMIT ${issuesPerCheck}`)).getRowsJS();
    if (rows.length === 0) continue;
    found.push({ file, rows: rows.map((r) => [Number(r[0]), String(r[1])]), more: Number(rows[0]![2]) - rows.length });
  }
  const issues: string[] = [];
  for (const file of new Set(found.map((f) => f.file))) {
    const ofFile = found.filter((f) => f.file === file);
    const place = await places(file, ofFile.flatMap((f) => f.rows.map(([line]) => line)));
    for (const { rows, more } of ofFile) {
      for (const [line, message] of rows) issues.push(`${place(line)}: ${message}`);
      if (more > 0) issues.push(`${file}: and ${more.toLocaleString('en-US')} more like the above`);
    }
  }
  return issues;
}

async function summary(conn: DuckDBConnection): Promise<Omit<ImportResult, 'out' | 'rows' | 'ignored'>> {
  const [org] = (await conn.runAndReadAll(`SELECT id, name FROM out_organizations`)).getRowsJS();
  const categories = (await conn.runAndReadAll(`SELECT id, name FROM out_categories ORDER BY name, id`)).getRowsJS().map(([id, name]) => ({ id: String(id), name: String(name) }));
  const [window] = (await conn.runAndReadAll(`SELECT min(day)::VARCHAR, max(day)::VARCHAR FROM out_executions`)).getRowsJS();
  return { organization: { id: String(org![0]), name: String(org![1]) }, categories, window: { start_date: String(window![0]), end_date: String(window![1]) } };
}
