import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance } from '../engine/duckdb-api.ts';
import { tableNames, type TableName } from '../model/tables.ts';
import { manifestFileName, partitionedBy } from '../model/layout.ts';
import { agentTemplates } from './agent-templates.ts';
import { dimsSql, orgResourcesSql, promptsSql, setupSql, windowDays, windowStart } from './dims-sql.ts';
import * as facts from './facts-sql.ts';
import * as knowledge from './knowledge-sql.ts';
import * as traffic from './traffic-sql.ts';
import { generationJobs, slicesOf } from './jobs.ts';
import { copyTable, type Params } from './table-writer.ts';
import { silentProgress, type Progress } from './progress.ts';
import { vocabTables } from './vocab-tables.ts';
import { hashDataset } from '../engine/content-hashes.ts';
import { tableFiles } from '../engine/dataset.ts';
import * as vocab from './vocab.ts';

export interface GenerateOptions {
  readonly out: string;
  readonly scale: number;
  readonly seed: number;
  readonly progress?: Progress;
  readonly threads?: number;
  /** DuckDB's memory limit; sorts beyond it spill to `out`/.tmp, so the process stays bounded at any scale. */
  readonly memoryLimit?: string;
  /**
   * Jobs each category (and each traffic domain) is cut into, by days; `slicesOf(scale)` (src/generate/jobs.ts) unless given. It moves the
   * parts' boundaries, never a row: the tests cut a small dataset finely and compare its rows with one job's.
   */
  readonly slices?: number;
  /** Recorded in dataset.json; the bundled sample uses it to notice a stale copy. */
  readonly fingerprint?: string;
}

export interface GenerateResult {
  readonly out: string;
  readonly seed: number;
  readonly scale: number;
  readonly rows: Record<TableName, number>;
  readonly seconds: number;
}

const singleFileTables: TableName[] = tableNames.filter((t) => !partitionedBy[t]);

/** Rows of every table per execution drawn: 16.30 at scale 1 and 16.28 at scale 10 (bench/GENERATE.md). */
const rowsPerExecution = 16.3;
/** Executions per unit of scale, for the estimate shown before they are drawn. */
const executionsPerScale = 1.13e6;
/** The default DuckDB memory limit: with Node's own heap the process stays well under 8 GB. */
export const defaultMemoryLimit = '4GB';

/**
 * Writes a complete dataset to `out`. The same seed and scale give identical rows in identical order:
 * every random choice is a hash of the seed and the row's coordinates, and every file is written sorted
 * by the contract's sort key followed by every other column (fact and traffic parts drawn in that order, or sorted on
 * an equivalent integer key).
 */
export async function generateDataset(options: GenerateOptions): Promise<GenerateResult> {
  assertOptions(options);
  const started = performance.now();
  const progress = options.progress ?? silentProgress;
  const categoryCount = vocab.orgs.reduce((n, o) => n + o.categories.length, 0);
  progress.start(options.scale * executionsPerScale * rowsPerExecution);

  await rm(options.out, { recursive: true, force: true });
  await mkdir(options.out, { recursive: true });
  const tmp = join(options.out, '.tmp');
  const db = await DuckDBInstance.create(':memory:', {
    threads: String(options.threads ?? 2),
    temp_directory: tmp,
    preserve_insertion_order: 'true',
    memory_limit: options.memoryLimit ?? defaultMemoryLimit,
  });
  const conn = await db.connect();
  const rows = Object.fromEntries(tableNames.map((t) => [t, 0])) as Record<TableName, number>;
  try {
    const exec = async (sql: string, params: Params = {}) => {
      await conn.run(sql, params);
    };
    await prepare(conn, options);
    progress.advance(0, 'vocabulary');
    for (const sql of dimsSql) await exec(sql);
    progress.advance(0, 'dimensions');
    for (const sql of promptsSql) await exec(sql);
    progress.advance(0, 'prompts');
    for (const sql of [
      ...orgResourcesSql,
      ...traffic.pickTablesSql,
      facts.domainPoolSql,
      facts.channelPoolSql,
      facts.videoPoolSql,
    ])
      await exec(sql);
    for (const sql of [
      facts.productsSql,
      facts.productMerchantsSql,
      facts.claimClustersSql,
      ...knowledge.knowledgeBaseSql,
    ])
      await exec(sql);
    await exec(facts.pageUrlsTableSql);
    progress.advance(0, 'pools');
    await exec(facts.executionShareSql);
    const drawn = await conn.runAndReadAll(facts.executionCountSql);
    progress.estimate(Number(drawn.getRows()[0]?.[0] ?? 0) * rowsPerExecution);

    const written = (table: TableName, n: number, label: string) => {
      rows[table] += n;
      progress.advance(n, label);
    };
    const slices = options.slices ?? slicesOf(options.scale);
    const domains = (await conn.runAndReadAll(`SELECT org_idx, dom_i FROM domains ORDER BY org_idx, dom_i`)).getRows();
    const jobs = generationJobs({
      out: options.out,
      slices,
      categories: categoryCount,
      domains: domains.map(([org, dom]) => ({ org: Number(org), dom: Number(dom) })),
      written,
    });
    // Jobs are independent: two connections (temp tables and variables are per connection) take the next job in
    // turn, so both cores stay busy through the small statements a job also runs.
    let next = 0;
    const worker = async () => {
      const c = await db.connect();
      try {
        await setVariables(c, options);
        await c.run(facts.executionShareSql);
        for (let job = next++; job < jobs.length; job = next++) await jobs[job]!(c);
      } finally {
        c.closeSync();
      }
    };
    // Both settle before the database closes, even when one fails.
    const outcomes = await Promise.allSettled([worker(), worker()]);
    for (const o of outcomes) if (o.status === 'rejected') throw o.reason;

    const sources: Partial<Record<TableName, { sql: string; params?: Params }>> = {
      page_analyses: { sql: facts.pageAnalysesSql },
      content_items: { sql: traffic.contentItemsSql },
      agents: { sql: traffic.agentsSql },
      agent_versions: { sql: traffic.agentVersionsSql, params: agentTemplates },
    };
    for (const table of singleFileTables) {
      const source = sources[table] ?? { sql: `SELECT * FROM ${table}` };
      written(
        table,
        await copyTable(conn, table, source.sql, source.params ?? {}, join(options.out, `${table}.parquet`)),
        table,
      );
    }
  } finally {
    conn.closeSync();
    db.closeSync();
    await rm(tmp, { recursive: true, force: true });
    progress.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  // The hashes let `verify: 'full'` refuse a file whose damaged bytes still decode.
  const files = await hashDataset(
    options.out,
    tableNames.flatMap((t) => tableFiles(options.out, t)),
  );
  const manifest = {
    generator: 'answer-engine-analytics',
    fingerprint: options.fingerprint ?? null,
    seed: options.seed,
    scale: options.scale,
    window: { start: windowStart, days: windowDays },
    rows,
    files,
  };
  await writeFile(join(options.out, manifestFileName), JSON.stringify(manifest, null, 2) + '\n');
  return { out: options.out, seed: options.seed, scale: options.scale, rows, seconds };
}

function assertOptions(options: GenerateOptions): void {
  if (!Number.isSafeInteger(options.seed)) throw new RangeError(`seed must be an integer, got ${options.seed}`);
  if (!(options.scale > 0 && options.scale <= 100))
    throw new RangeError(`scale must be in (0, 100], got ${options.scale}`);
  const slices = options.slices;
  if (slices !== undefined && !(Number.isSafeInteger(slices) && slices >= 1 && slices <= windowDays))
    throw new RangeError(`slices must be an integer in [1, ${windowDays}] (the window's days), got ${slices}`);
}

async function prepare(conn: DuckDBConnection, options: GenerateOptions): Promise<void> {
  await setScalars(conn, options);
  for (const sql of setupSql) await conn.run(sql);
  for (const t of vocabTables()) {
    const columns = Object.keys(t.structure).join(', ');
    await conn.run(
      `CREATE TABLE ${t.name} AS SELECT ${columns} FROM (SELECT unnest(json_transform($rows::JSON, $structure), recursive := true))`,
      {
        rows: JSON.stringify(t.rows),
        structure: JSON.stringify([t.structure]),
      },
    );
  }
  await setLists(conn);
}

/** Each connection has its own settings and variables: every connection the generator uses sets these. */
async function setVariables(conn: DuckDBConnection, options: GenerateOptions): Promise<void> {
  await setScalars(conn, options);
  await setLists(conn);
}

async function setScalars(conn: DuckDBConnection, options: GenerateOptions): Promise<void> {
  await conn.run(`SET TimeZone = 'UTC'`);
  await conn.run(`SET VARIABLE seed = $seed::BIGINT`, { seed: options.seed });
  await conn.run(`SET VARIABLE scale = $scale::DOUBLE`, { scale: options.scale });
  await conn.run(`SET VARIABLE window_start = $start`, { start: windowStart });
  await conn.run(`SET VARIABLE window_days = $days::INT`, { days: windowDays });
}

async function setLists(conn: DuckDBConnection): Promise<void> {
  const kinds = [
    ...new Set(
      vocabTables()
        .find((t) => t.name === 'g_list')!
        .rows.map((r) => String(r.kind)),
    ),
  ];
  for (const kind of kinds) {
    await conn.run(`SET VARIABLE l_${kind} = (SELECT list(name ORDER BY i) FROM g_list WHERE kind = $kind)`, { kind });
  }
}
