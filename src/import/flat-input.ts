import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DatasetError } from '../errors.ts';
import { csvRecordLines } from './csv-lines.ts';

/** The DuckDB reader of a flat file, by its extension; every value of a CSV is read as text. */
export function reader(file: string): string {
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
  const kept = lines
    .slice(
      0,
      Math.max(
        1,
        lines.findIndex((l) => l.trim() === ''),
      ),
    )
    .filter((l) => !l.startsWith('Original Line:'));
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
export async function load(
  conn: DuckDBConnection,
  name: string,
  file: string,
  columns: { required: string[]; optional: string[] },
): Promise<string[]> {
  if (!existsSync(file)) throw new DatasetError(`${file}: no such file`);
  const read = reader(file);
  let found: Set<string>;
  try {
    found = new Set(
      (await conn.runAndReadAll(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${read})`, { file }))
        .getRowsJS()
        .map((r) => String(r[0])),
    );
  } catch (error) {
    throw unreadable(file, error);
  }
  const known = [...columns.required, ...columns.optional];
  const absent = columns.required.filter((c) => !found.has(c));
  const unknown = [...found].filter((c) => !known.includes(c));
  const misspelt = unknown.flatMap((c) => {
    const near = known
      .filter((k) => !found.has(k) && distance(c.toLowerCase(), k) <= 2)
      .sort((x, y) => distance(c.toLowerCase(), x) - distance(c.toLowerCase(), y))[0];
    return near ? [`column "${c}" is not a column of this file: did you mean "${near}"?`] : [];
  });
  if (absent.length > 0)
    misspelt.unshift(`missing column${absent.length > 1 ? 's' : ''} ${absent.map((c) => `"${c}"`).join(', ')}`);
  if (misspelt.length > 0) throw new DatasetError(`${file}: ${misspelt.join('; ')} (see docs/own-data.md)`);
  const select = known.map((c) =>
    found.has(c) ? `nullif(trim(CAST("${c}" AS VARCHAR)), '') AS "${c}"` : `NULL::VARCHAR AS "${c}"`,
  );
  try {
    // TRICKY: one thread keeps the file's row order, which numbers mentions and citations without a position.
    await conn.run(`CREATE TABLE ${name} AS SELECT row_number() OVER () AS line, ${select.join(', ')} FROM ${read}`, {
      file,
    });
  } catch (error) {
    throw unreadable(file, error);
  }
  return unknown.map((c) => `${basename(file)}: ${c}`);
}

/**
 * Where each problem is: a CSV's line (its records mapped to the lines they start on, quoted line
 * breaks and blank lines counted, as an editor shows them), a JSON or Parquet file's row from 1.
 */
export async function places(file: string, records: readonly number[]): Promise<(row: number) => string> {
  if (!reader(file).startsWith('read_csv')) return (row) => `${file} row ${row}`;
  const lines = await csvRecordLines(file, records);
  return (row) => `${file} line ${lines.get(row) ?? row + 1}`;
}
