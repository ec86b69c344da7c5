import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { UnavailableError } from '../errors.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import { clickhouseParams, render, type Fragment } from '../query/sql.ts';
import type { ReportBackend, Snapshot } from './backend.ts';
import { keptRollups } from '../cluster/rollup-ddl.ts';
import type { RollupDef } from './rollups.ts';
import { clickhouseSettings, compactBatch, wholeStatements, type CompactJson } from './clickhouse-rows.ts';

/**
 * The oldest server the ClickHouse dialect runs on: 24.3 made the analyzer the default, which resolves
 * the reports' CTEs, window functions, `GROUP BY ALL`, `QUALIFY` and typed parameters as written (tested
 * on 26.7, chdb's). Debian's package (18.16, 2018) has none of them.
 */
export const minimumServer = { major: 24, minor: 3 } as const;

/** A server's `version()` at or above `minimumServer`. */
export function serverSupported(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > minimumServer.major || (major === minimumServer.major && minor >= minimumServer.minor);
}

/**
 * Reports on a ClickHouse server or cluster over HTTP (`@clickhouse/client`). The server holds the
 * dataset's tables under the contract's names, prompts and the other state tables included (see
 * docs/scale-out.md); a Distributed table over shards fails a query when a shard is down, and the
 * backend never sets `skip_unavailable_shards`, so an answer is whole or an error. It reads the rollups
 * `aea clickhouse schema|load` created (`src/cluster/rollup-ddl.ts`) when the database holds them.
 */
export class ClickHouseBackend implements ReportBackend {
  readonly name = 'clickhouse';
  readonly dialect = 'clickhouse';
  readonly rollups: boolean;

  private constructor(
    private readonly client: ClickHouseClient,
    readonly keptRollups: ReadonlySet<string>,
  ) {
    this.rollups = keptRollups.size > 0;
  }

  /** Connects and checks the server's version; a server too old for the dialect is refused. */
  static async open(url: string, rollupCatalog: readonly RollupDef[]): Promise<ClickHouseBackend> {
    // The engine reports every failure as an error of its own; the client would also log it to the console.
    const client = createClient({ url, log: { level: ClickHouseLogLevel.OFF } });
    try {
      await checkServer(client, url);
      const tables = await (
        await client.query({
          query: 'SELECT name FROM system.tables WHERE database = currentDatabase()',
          format: 'JSONEachRow',
        })
      ).json<{ name: string }>();
      return new ClickHouseBackend(client, keptRollups(new Set(tables.map((t) => t.name)), rollupCatalog));
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  async read(query: Fragment, signal?: AbortSignal): Promise<ColumnBatch> {
    const q = render(query, 'clickhouse');
    const result = await this.client.query({
      query: q.text,
      query_params: clickhouseParams(q.params),
      format: 'JSONCompact',
      clickhouse_settings: { ...clickhouseSettings } as never,
      abort_signal: signal,
    });
    return compactBatch((await result.json<CompactJson>()) as unknown as CompactJson);
  }

  async snapshot(signal?: AbortSignal): Promise<Snapshot> {
    return wholeStatements((query: Fragment) => this.read(query, signal));
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** Refuses a server the dialect cannot run on, naming its version and what to do; the loader checks the same. */
export async function checkServer(client: ClickHouseClient, url: string): Promise<void> {
  const version = await serverVersion(client, url);
  if (!serverSupported(version)) {
    throw new UnavailableError(
      `the ClickHouse server at ${new URL(url).host} is version ${version}; the clickhouse backend needs ${minimumServer.major}.${minimumServer.minor} or later (common table expressions, window functions, query parameters). Debian's clickhouse-server package is 18.16: install a current release from clickhouse.com, or use --backend chdb`,
    );
  }
}

/** `SELECT version()`, with no settings: an old server refuses the settings it does not know before it answers anything. */
async function serverVersion(client: ClickHouseClient, url: string): Promise<string> {
  try {
    const result = await client.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' });
    const rows = await result.json<{ v: string }>();
    return String(rows[0]?.v ?? '');
  } catch (error) {
    throw new UnavailableError(
      `cannot reach the ClickHouse server at ${new URL(url).host}: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}
