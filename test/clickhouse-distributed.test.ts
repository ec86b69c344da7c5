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

/**
 * Reports whose SQL ClickHouse refuses over a Distributed table ("Correlated subqueries are not
 * supported with remote tables"): the v1 tabular reports' page head, `(SELECT count(*) FROM kept)`,
 * and the prompt answers' tag names. Listed in docs/scale-out.md; the SQL is the reports' to change.
 */
const refusedOverDistributed = ['/v2/prompts/answers', '/v1/prompts/answers', '/v1/reports/citations', '/v1/reports/visibility', '/v1/reports/sentiment', '/v1/reports/query-fanouts'];

let outcomes: { path: string; outcome: string }[];

beforeAll(async () => {
  outcomes = await inClusterFolder('distributed-child.ts', config);
}, 600_000);

describe('every report path over Distributed tables (a one-shard cluster in chdb)', () => {
  it('asks every report path', () => {
    expect(new Set(outcomes.map((o) => o.path))).toEqual(new Set(reportPaths()));
  });

  it('answers as DuckDB does, page and stream, but for the reports known to be refused, which fail with an error', () => {
    const notSame = outcomes.filter((o) => o.outcome !== 'same');
    for (const o of notSame) {
      expect(refusedOverDistributed).toContain(o.path);
      expect(o.outcome).toMatch(/Correlated subqueries are not supported with remote tables/);
    }
    expect(outcomes.filter((o) => o.outcome === 'same').length).toBeGreaterThanOrEqual(outcomes.length - refusedOverDistributed.length);
  });
});
