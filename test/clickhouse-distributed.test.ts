import { beforeAll, describe, expect, it } from 'vitest';
import { inClusterFolder } from './helpers/chdb-cluster.ts';
import { reportPaths } from './helpers/every-report.ts';

/**
 * The reports over Distributed tables, as `aea clickhouse load --cluster` lays a dataset out: chdb
 * reads `remote_servers` from a config.xml in its working directory, so a child process there has a
 * one-shard cluster (itself) to put Distributed tables on. One shard cannot show rows merged across
 * shards; it shows which report SQL ClickHouse runs through a Distributed table at all.
 */
const config = `<clickhouse>
  <tcp_port>9000</tcp_port>
  <remote_servers><one><shard><replica><host>127.0.0.1</host><port>9000</port></replica></shard></one></remote_servers>
</clickhouse>
`;

let outcomes: { path: string; outcome: string }[];

beforeAll(async () => {
  outcomes = await inClusterFolder('distributed-child.ts', config);
}, 600_000);

describe('every report path over Distributed tables (a one-shard cluster in chdb)', () => {
  it('asks every report path', () => {
    expect(new Set(outcomes.map((o) => o.path))).toEqual(new Set(reportPaths()));
  });

  it('answers every path as DuckDB does, page and stream', () => {
    expect(outcomes.filter((o) => o.outcome !== 'same')).toEqual([]);
  });
});
