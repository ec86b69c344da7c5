import { backendNames, type BackendName } from '../engine/backend.ts';
import { UsageError } from './args.ts';

export const backendParse = {
  backend: { type: 'string' },
  'clickhouse-url': { type: 'string' },
} as const;

export const backendUsage = `  --backend B          where report SQL runs: duckdb (default), chdb (embedded ClickHouse over the same
                       files; needs \`npm i chdb\`) or clickhouse (a server at --clickhouse-url, 24.3 or later)
  --clickhouse-url U   the ClickHouse server's HTTP URL, e.g. http://user:password@host:8123/database, or
                       chdb:PATH[?database=DB]: the tables \`aea clickhouse load\` wrote to a chdb directory`;

/** `--backend` and `--clickhouse-url` as engine options. */
export function backendOf(values: Record<string, unknown>): { backend?: BackendName; clickhouseUrl?: string } {
  const backend = values.backend;
  const url = typeof values['clickhouse-url'] === 'string' ? values['clickhouse-url'] : undefined;
  if (backend === undefined) {
    if (url) throw new UsageError('--clickhouse-url goes with --backend clickhouse');
    return {};
  }
  if (typeof backend !== 'string' || !(backendNames as readonly string[]).includes(backend))
    throw new UsageError(`--backend must be one of ${backendNames.join(', ')}, got ${String(backend)}`);
  if (backend === 'clickhouse' && !url) throw new UsageError('--backend clickhouse needs --clickhouse-url URL');
  if (backend !== 'clickhouse' && url) throw new UsageError('--clickhouse-url goes with --backend clickhouse');
  return { backend: backend as BackendName, ...(url ? { clickhouseUrl: url } : {}) };
}
