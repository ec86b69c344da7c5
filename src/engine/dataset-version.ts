import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { DuckDBPool } from './duckdb-pool.ts';
import type { FileHashes } from './content-hashes.ts';
import { manifestFileName } from '../model/layout.ts';
import { stateTables, type StateStore } from '../state/store.ts';

/** Where a registered table's rows come from: Parquet files, or an Arrow table read through its view (in the contract's types). */
export type TableSource =
  | { readonly table: string; readonly files: readonly string[] }
  | { readonly table: string; readonly relation: string };

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

// TRICKY: a sum of row hashes does not depend on the order rows are stored in (unlike a hash of the
// bytes), and unlike a XOR two equal rows do not cancel out.
const contentSql = (relation: string) =>
  `SELECT count(*)::VARCHAR || ':' || coalesce(sum(hash(t)::HUGEINT), 0)::VARCHAR FROM ${relation} t`;

/**
 * The identity of what reports read: the dataset's content and the state store's. Files are known by
 * the SHA-256 their manifest records (a generated or imported dataset), else by path, size and
 * modification time; Arrow tables by a hash of their rows in the contract's types (so the same values
 * built another way, dictionary strings or wider integers, are the same version), computed once. The state store's tables
 * (prompts, topics, tags, knowledge bases…) are hashed by content again after each commit that could
 * change an answer, so an edit changes the version and the same content after a restart does not.
 */
export class DatasetVersion {
  private fixed: Promise<string> | undefined;
  private state: { generation: number; hash: Promise<string> } | undefined;

  constructor(
    private readonly pool: DuckDBPool,
    private readonly dataDir: string | undefined,
    private readonly sources: readonly TableSource[],
    private readonly store: StateStore,
  ) {}

  /** The current version: a short hash. */
  async current(): Promise<string> {
    this.fixed ??= this.tablesHash();
    const generation = this.store.generation;
    if (this.state?.generation !== generation) this.state = { generation, hash: this.stateHash() };
    const [tables, state] = await Promise.all([this.fixed, this.state.hash]);
    return sha(`${tables}|${state}`).slice(0, 32);
  }

  /**
   * Each file-backed table's files with their identities (as in the version), or null when a table is
   * an Arrow table: durable rollups are keyed by files.
   */
  fileIdentities(): Map<string, { readonly path: string; readonly id: string }[]> | null {
    const manifest = this.manifestHashes();
    const out = new Map<string, { path: string; id: string }[]>();
    for (const source of this.sources) {
      if ('relation' in source) return null;
      out.set(
        source.table,
        source.files.map((path) => ({ path, id: this.fileIdentity(path, manifest) })),
      );
    }
    return out;
  }

  private async tablesHash(): Promise<string> {
    const manifest = this.manifestHashes();
    const parts: string[] = [];
    for (const source of this.sources) {
      if ('relation' in source) parts.push(`${source.table}=${await this.scalar(contentSql(`"${source.relation}"`))}`);
      else parts.push(`${source.table}=${source.files.map((f) => this.fileIdentity(f, manifest)).join(',')}`);
    }
    return sha(parts.join('\n'));
  }

  private fileIdentity(file: string, manifest: FileHashes | undefined): string {
    const name = this.dataDir ? relative(this.dataDir, file).split(sep).join('/') : file;
    const recorded = manifest?.[name];
    if (recorded) return `${name}#${recorded}`;
    const stat = statSync(file);
    return `${file}#${stat.size}@${stat.mtimeMs}`;
  }

  private manifestHashes(): FileHashes | undefined {
    if (!this.dataDir) return undefined;
    const file = join(this.dataDir, manifestFileName);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { files?: FileHashes }).files : undefined;
  }

  /** Every state table's content in one statement (one round trip, not one a table). */
  private async stateHash(): Promise<string> {
    const query = `SELECT ${stateTables.map((table) => `(${contentSql(`state."${table}"`)})`).join(', ')}`;
    const row = await this.pool.use(async (conn) => (await conn.runAndReadAll(query)).getRowsJS()[0]!, 'light');
    return sha(stateTables.map((table, i) => `${table}=${String(row[i])}`).join('\n'));
  }

  private async scalar(query: string, lane?: 'light'): Promise<string> {
    return this.pool.use(async (conn) => String((await conn.runAndReadAll(query)).getRowsJS()[0]![0]), lane);
  }
}
