import { beforeAll, describe, expect, it } from 'vitest';
import { inClusterFolder } from './helpers/chdb-cluster.ts';
import { reportPaths } from './helpers/every-report.ts';

/**
 * The reports over several shards: chdb reads `remote_servers` from a config.xml in its working
 * directory, so a child process there has ClickHouse's own kind of localhost test clusters, two and
 * four shards that are each chdb itself in a database of its own. The sample is split over them by
 * organization, and by organization and category (so one tenant spans shards), and every report
 * path is asked of each layout and of DuckDB. `AEA_SHARD_CASES` sets the requests per report path
 * (2 here; 0 asks every case of the every-report and filter lists).
 */
const shard = (db: string) => `<shard><replica><host>127.0.0.1</host><port>9000</port><default_database>${db}</default_database></replica></shard>`;
const config = `<clickhouse>
  <tcp_port>9000</tcp_port>
  <remote_servers>
    <two>${shard('s2_0')}${shard('s2_1')}</two>
    <four>${shard('s4_0')}${shard('s4_1')}${shard('s4_2')}${shard('s4_3')}</four>
  </remote_servers>
</clickhouse>
`;

type Layout = { mentionsPerShard: number[]; outcomes: { path: string; outcome: string }[] };
let layouts: Record<string, Layout>;

beforeAll(async () => {
  layouts = await inClusterFolder('shards-child.ts', config, [process.env.AEA_SHARD_CASES ?? '2']);
}, 900_000);

describe('every report path over 2 and 4 shards (localhost clusters in chdb), sharded by organization and by organization and category', () => {
  it('lays out four layouts, each with rows on more than one shard', () => {
    expect(Object.keys(layouts).sort()).toEqual(['four_category', 'four_org', 'two_category', 'two_org']);
    for (const layout of Object.values(layouts)) expect(layout.mentionsPerShard.filter((n) => n > 0).length).toBeGreaterThan(1);
  });

  it.each(['two_org', 'two_category', 'four_org', 'four_category'])('%s: every report path answers as DuckDB does, page and stream', (name) => {
    const layout = layouts[name]!;
    expect(new Set(layout.outcomes.map((o) => o.path))).toEqual(new Set(reportPaths()));
    expect(layout.outcomes.filter((o) => o.outcome !== 'same')).toEqual([]);
  });
});
