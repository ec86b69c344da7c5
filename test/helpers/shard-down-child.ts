/**
 * Run by test/clickhouse-shard-down.test.ts with its working directory holding a config.xml, which chdb
 * reads at start: a cluster `down` of a local shard (this process) and a shard nobody listens on.
 * Arguments: the chdb directory `aea clickhouse load` wrote (database aea), and the dataset folder.
 * Prints one JSON object: what ClickHouse answers with `skip_unavailable_shards = 1` set on the
 * session, and what reports through the engine answer.
 */
import { acquireChdb } from '../../src/engine/chdb-session.ts';
import { clickhouseSettings } from '../../src/engine/clickhouse-rows.ts';
import { openEngine } from '../../src/open-engine.ts';

const [path, data] = process.argv.slice(2) as [string, string];
const session = acquireChdb(path);
const one = async (sql: string) => Object.values((await session.run(sql)).columns).map((c) => c[0]);

// Database `down`: every table a view of the loaded one, but mentions a Distributed table over the cluster.
// The local shard holds the rows cityHash64(organization_id) routes to it (shard 1, weight 1 of 3); the other shard is down.
await session.run('CREATE DATABASE down');
for (const name of (await session.run(`SELECT name FROM system.tables WHERE database = 'aea'`)).columns.name!) {
  if (name === 'mentions') continue;
  await session.run(`CREATE VIEW down.${String(name)} AS SELECT * FROM aea.${String(name)}`);
}
await session.run('CREATE TABLE down.mentions_local AS aea.mentions');
await session.run('INSERT INTO down.mentions_local SELECT * FROM aea.mentions WHERE cityHash64(organization_id) % 3 = 0');
await session.run('CREATE TABLE down.mentions AS aea.mentions ENGINE = Distributed(down, down, mentions_local, cityHash64(organization_id))');
const [onDown] = await one('SELECT any(organization_id) FROM aea.mentions WHERE cityHash64(organization_id) % 3 != 0');
const [onLive] = await one('SELECT any(organization_id) FROM aea.mentions WHERE cityHash64(organization_id) % 3 = 0');

// A server profile's setting, as the session's default.
await session.run('SET skip_unavailable_shards = 1');
const [all] = await one('SELECT count() FROM aea.mentions');
const [partial] = await one('SELECT count() FROM down.mentions');
const [ofDown] = await one(`SELECT count() FROM down.mentions WHERE organization_id = '${String(onDown)}'`);
// What the clickhouse backend sends with every statement over HTTP: its settings, which beat the session's.
const withSettings = Object.entries(clickhouseSettings).map(([k, v]) => `${k} = ${typeof v === 'string' ? `'${v}'` : v}`).join(', ');
const perQuery = await one(`SELECT count() FROM down.mentions SETTINGS ${withSettings}`).then(
  (v) => ({ answered: v[0] }),
  (e: Error) => ({ error: e.message.replace(/\s+/g, ' ').slice(0, 600) }),
);

const engine = await openEngine({ data, backend: 'clickhouse', clickhouseUrl: `chdb:${path}?database=down` });
const reports: Record<string, unknown> = {};
for (const org of [onDown, onLive] as string[]) {
  const category = (await engine.core.pool.use((c) => c.runAndReadAll(`SELECT min(id) FROM categories WHERE organization_id = '${org}'`))).getRowsJS()[0]![0];
  const body = { category_id: String(category), start_date: '2026-01-01', end_date: '2026-06-30', group_by: ['model'], limit: 50 } as const;
  reports[org === onDown ? 'down' : 'live'] = await engine
    .org(org)
    .reports.visibility(body)
    .then(
      (answer) => ({ answered: answer }),
      (e: Error) => ({ error: e.message.replace(/\s+/g, ' ').slice(0, 600) }),
    );
}
await engine.close();
session.release();
process.stdout.write(JSON.stringify({ all, partial, ofDown, perQuery, reports }) + '\n');
