/**
 * Run by test/clickhouse-shard-down.test.ts with its working directory holding a config.xml, which chdb
 * reads at start: a cluster `down` of a local shard (this process) and a shard nobody listens on.
 * Arguments: the chdb directory `aea clickhouse load` wrote (database aea), and the dataset folder.
 * Prints one JSON object: what ClickHouse answers with `skip_unavailable_shards = 1` set on the
 * session, what reports through the engine answer, and what `aea query` and the REST service answer when
 * a shard is down and when a table is missing.
 */
import { join } from 'node:path';
import { acquireChdb } from '../../src/engine/chdb-session.ts';
import { clickhouseSettings } from '../../src/engine/clickhouse-rows.ts';
import { openEngine } from '../../src/open-engine.ts';
import { aeaInProcess } from './cli.ts';
import { post, startServer } from './server.ts';

const [path, data] = process.argv.slice(2) as [string, string];
const session = acquireChdb(path);
const one = async (sql: string) => Object.values((await session.run(sql)).columns).map((c) => c[0]);

// Database `down`: every table a view of the loaded one, but mentions a Distributed table over the cluster.
// The local shard holds the rows cityHash64(organization_id) routes to it (shard 1, weight 1 of 3); the other shard is down.
// Without the rollups (which would read the loaded facts, not the Distributed table), so the reports read mentions.
const loadedTables = (
  await session.run(`SELECT name FROM system.tables WHERE database = 'aea' AND name NOT LIKE 'rollup\\_%'`)
).columns.name!;
await session.run('CREATE DATABASE down');
for (const name of loadedTables) {
  if (name === 'mentions') continue;
  await session.run(`CREATE VIEW down.${String(name)} AS SELECT * FROM aea.${String(name)}`);
}
await session.run('CREATE TABLE down.mentions_local AS aea.mentions');
await session.run(
  'INSERT INTO down.mentions_local SELECT * FROM aea.mentions WHERE cityHash64(organization_id) % 3 = 0',
);
await session.run(
  'CREATE TABLE down.mentions AS aea.mentions ENGINE = Distributed(down, down, mentions_local, cityHash64(organization_id))',
);
const [onDown] = await one('SELECT any(organization_id) FROM aea.mentions WHERE cityHash64(organization_id) % 3 != 0');
const [onLive] = await one('SELECT any(organization_id) FROM aea.mentions WHERE cityHash64(organization_id) % 3 = 0');

// A server profile's setting, as the session's default.
await session.run('SET skip_unavailable_shards = 1');
const [all] = await one('SELECT count() FROM aea.mentions');
const [partial] = await one('SELECT count() FROM down.mentions');
const [ofDown] = await one(`SELECT count() FROM down.mentions WHERE organization_id = '${String(onDown)}'`);
// What the clickhouse backend sends with every statement over HTTP: its settings, which beat the session's.
const withSettings = Object.entries(clickhouseSettings)
  .map(([k, v]) => `${k} = ${typeof v === 'string' ? `'${v}'` : v}`)
  .join(', ');
const perQuery = await one(`SELECT count() FROM down.mentions SETTINGS ${withSettings}`).then(
  (v) => ({ answered: v[0] }),
  (e: Error) => ({ error: e.message.replace(/\s+/g, ' ').slice(0, 600) }),
);

const engine = await openEngine({ data, backend: 'clickhouse', clickhouseUrl: `chdb:${path}?database=down` });
const reports: Record<string, unknown> = {};
for (const org of [onDown, onLive] as string[]) {
  const category = (
    await engine.core.pool.use((c) =>
      c.runAndReadAll(`SELECT min(id) FROM categories WHERE organization_id = '${org}'`),
    )
  ).getRowsJS()[0]![0];
  const body = {
    category_id: String(category),
    start_date: '2026-01-01',
    end_date: '2026-06-30',
    group_by: ['model'],
    limit: 50,
  } as const;
  reports[org === onDown ? 'down' : 'live'] = await engine
    .org(org)
    .reports.visibility(body)
    .then(
      (answer) => ({ answered: answer }),
      (e: Error) => ({ error: e.message.replace(/\s+/g, ' ').slice(0, 600) }),
    );
}

// A database the report cannot be read from (its mentions table is missing): a statement error that is no
// shard's, so the faces answer 500.
await session.run('CREATE DATABASE gone');
for (const name of loadedTables) {
  if (name !== 'mentions') await session.run(`CREATE VIEW gone.${String(name)} AS SELECT * FROM aea.${String(name)}`);
}
const gone = await openEngine({ data, backend: 'clickhouse', clickhouseUrl: `chdb:${path}?database=gone` });

// The CLI and the REST service over each: the usual error body, never a stack trace.
const faces: Record<string, unknown> = {};
for (const [name, database, open] of [
  ['down', 'down', engine],
  ['gone', 'gone', gone],
] as const) {
  const category = (
    await open.core.pool.use((c) =>
      c.runAndReadAll(`SELECT min(id) FROM categories WHERE organization_id = '${String(onDown)}'`),
    )
  ).getRowsJS()[0]![0];
  const body = { category_id: String(category), start_date: '2026-01-01', end_date: '2026-06-30', limit: 5 };
  const cli = await aeaInProcess([
    'query',
    '/v2/reports/visibility',
    '--data',
    data,
    '--org',
    String(onDown),
    '--state',
    join(process.cwd(), `${name}.state.duckdb`),
    '--backend',
    'clickhouse',
    '--clickhouse-url',
    `chdb:${path}?database=${database}`,
    '--body',
    JSON.stringify(body),
  ]).catch((e: Error) => ({ threw: e.stack }));
  const server = await startServer(open, { rateLimit: false });
  try {
    const response = await post(`${server.url}/v2/reports/visibility`, body, {
      'x-api-key': await server.key(String(onDown)),
    });
    faces[name] = { cli, http: { status: response.status, body: await response.text() } };
  } finally {
    await server.close();
  }
}
await gone.close();
await engine.close();
session.release();
process.stdout.write(JSON.stringify({ all, partial, ofDown, perQuery, reports, faces }) + '\n');
