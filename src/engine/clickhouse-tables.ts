import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ColumnDef, ColumnType } from '../model/column.ts';
import { tables, type TableName } from '../model/tables.ts';
import { stateTables } from '../state/store.ts';

/**
 * What the embedded ClickHouse reads, as the engine opened it: each dataset table's files (read in
 * place), or null for a table only DuckDB holds (an Arrow table, a table the dataset leaves out),
 * which is copied. The state store's tables are always copied, at the state's current generation.
 */
export interface TableCopies {
  readonly files: ReadonlyMap<TableName, readonly string[] | null>;
  /** Writes a DuckDB relation (a table or view of the engine) to a Parquet file. */
  copy(relation: string, file: string): Promise<void>;
  /** Grows when a transaction changes the state store (see `StateStore.generation`). */
  generation(): number;
}

/** A Parquet file's (or glob's) columns and their ClickHouse types. */
export type Describe = (source: string) => Promise<ReadonlyMap<string, string>>;

/** The state store's views the reports read besides its tables (src/state/derived-views.ts). */
export const derivedStateViews = ['kb_sections', 'claim_evidence'] as const;

/** The contract's column types in ClickHouse (UUIDs as their text, as the reports compare them). */
export const clickhouseType: Record<ColumnType, string> = {
  VARCHAR: 'String',
  BOOLEAN: 'Bool',
  INTEGER: 'Int32',
  BIGINT: 'Int64',
  DOUBLE: 'Float64',
  DATE: 'Date32',
  TIMESTAMPTZ: "DateTime64(6, 'UTC')",
  UUID: 'String',
  'VARCHAR[]': 'Array(Nullable(String))',
};

const bare = (type: string) => type.replace(/^Nullable\((.*)\)$/, '$1');

/** A string literal of ClickHouse (backslash escapes). Only paths of the engine's configuration come here. */
export function clickhouseLiteral(text: string): string {
  if (text.includes('\0')) throw new RangeError('a path cannot contain NUL');
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** One glob naming exactly these files, or undefined (then the table is copied). */
function globOf(files: readonly string[]): string | undefined {
  if (files.some((f) => /[*?{}[\]]/.test(f))) return undefined;
  if (files.length === 1) return files[0];
  const dir = dirname(files[0]!);
  if (files.some((f) => dirname(f) !== dir)) return undefined;
  const all = readdirSync(dir).filter((f) => f.endsWith('.parquet'));
  return all.length === files.length && files.every((f) => all.includes(basename(f)))
    ? join(dir, '*.parquet')
    : undefined;
}

/**
 * The contract's columns over a Parquet source: each as it is when its type is the contract's, cast
 * when a file stores it wider (as DuckDB's views do), and UUIDs as their text, as the reports compare them
 * (read as their 16 bytes, see `parquetSource`).
 */
function projection(table: TableName, found: ReadonlyMap<string, string>): string {
  return Object.entries(tables[table].columns as Record<string, ColumnDef>)
    .map(([name, c]) => {
      const want = clickhouseType[c.type];
      const have = bare(found.get(name) ?? want);
      if (have === 'UUID') return `UUIDNumToString("${name}") AS "${name}"`;
      if (have === want) return `"${name}"`;
      return `CAST("${name}" AS ${want.startsWith('Array') ? want : `Nullable(${want})`}) AS "${name}"`;
    })
    .join(', ');
}

const quotedName = (name: string) => `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;

/**
 * `file(…, Parquet)` over a source, with its columns as found except UUIDs, read as the 16 bytes Parquet
 * stores (`FixedString(16)`).
 * TRICKY: Parquet orders a UUID's statistics by its bytes, as the format defines; ClickHouse compares its
 * UUID type in another order (the second half first) and checks and prunes row groups with it, so any
 * filter on a UUID column refused a file whose min and max are ordered differently in its order ("Statistics
 * have min_value > max_value"), and a filter on the UUID itself skipped row groups that hold the value.
 * FixedString compares bytes as the statistics do: row-group pruning stays on, and right, on every column.
 */
function parquetSource(source: string, found: ReadonlyMap<string, string>): string {
  if (![...found.values()].some((t) => bare(t) === 'UUID')) return `file(${clickhouseLiteral(source)}, Parquet)`;
  const structure = [...found]
    .map(
      ([name, type]) => `${quotedName(name)} ${bare(type) === 'UUID' ? type.replace('UUID', 'FixedString(16)') : type}`,
    )
    .join(', ');
  return `file(${clickhouseLiteral(source)}, Parquet, ${clickhouseLiteral(structure)})`;
}

/**
 * The statements that (re)create the views the reports read, in the current database: the dataset's
 * tables (`state` false), or the state store's tables and derived views, copied to `dir` under `tag`.
 */
export async function clickhouseTables(
  copies: TableCopies,
  describe: Describe,
  dir: string,
  tag: string,
  state = false,
): Promise<string[]> {
  const out: string[] = [];
  const view = async (name: string, source: string, table?: TableName) => {
    if (!table)
      return void out.push(
        `CREATE OR REPLACE VIEW "${name}" AS SELECT * FROM file(${clickhouseLiteral(source)}, Parquet)`,
      );
    const found = await describe(source);
    out.push(
      `CREATE OR REPLACE VIEW "${name}" AS SELECT ${projection(table, found)} FROM ${parquetSource(source, found)}`,
    );
  };
  const copied = async (relation: string) => {
    const file = join(dir, `${tag}-${relation}.parquet`);
    await copies.copy(relation, file);
    return file;
  };
  if (state) {
    for (const t of stateTables) await view(t, await copied(t), t);
    for (const v of derivedStateViews) await view(v, await copied(v));
    return out;
  }
  for (const [table, files] of copies.files) {
    if ((stateTables as readonly string[]).includes(table)) continue;
    const glob = files ? globOf(files) : undefined;
    await view(table, glob ?? (await copied(table)), table);
  }
  out.push(`CREATE OR REPLACE VIEW request_log AS
    SELECT organization_id, domain_id, domain, ts, host, path FROM bot_events
    UNION ALL SELECT organization_id, domain_id, domain, ts, host, path FROM referral_visits`);
  return out;
}
