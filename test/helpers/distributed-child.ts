/**
 * Run by test/clickhouse-distributed.test.ts in a folder whose config.xml gives chdb a cluster `one`
 * of one shard, chdb itself (its tcp_port). Arguments: the chdb directory `aea clickhouse load` wrote
 * (database aea) and the dataset folder. Builds database `dist` as `--cluster` lays a dataset out (the
 * catalog's sharded tables as Distributed tables sharded by organization, the others whole), asks
 * every report path there and of DuckDB over the folder, and prints one JSON line: per case, `same`,
 * `differs` or the error.
 */
import { contractCatalog } from '../../src/cluster/catalog.ts';
import { acquireChdb } from '../../src/engine/chdb-session.ts';
import { openEngine } from '../../src/open-engine.ts';
import { endpoints } from '../../src/registry.ts';
import { everyReportCases, page, sampleScopes, stream } from './every-report.ts';

const [path, data] = process.argv.slice(2) as [string, string];
const session = acquireChdb(path);
await session.run('CREATE DATABASE dist');
for (const t of contractCatalog().tables) {
  if (t.placement === 'sharded')
    await session.run(
      `CREATE TABLE dist.${t.name} AS aea.${t.name} ENGINE = Distributed(one, aea, ${t.name}, cityHash64(organization_id))`,
    );
  else await session.run(`CREATE VIEW dist.${t.name} AS SELECT * FROM aea.${t.name}`);
}
for (const u of contractCatalog().unions)
  await session.run(
    `CREATE VIEW dist.${u.name} AS ${u.of.map((t) => `SELECT ${u.columns.join(', ')} FROM dist.${t}`).join(' UNION ALL ')}`,
  );

const duck = await openEngine({ data, cursorSecret: 'dist', rollups: false });
const dist = await openEngine({
  data,
  cursorSecret: 'dist',
  backend: 'clickhouse',
  clickhouseUrl: `chdb:${path}?database=dist`,
});
const outcomes: { path: string; outcome: string }[] = [];
for (const c of everyReportCases(await sampleScopes(duck))) {
  let outcome = 'same';
  try {
    if (JSON.stringify(await page(dist, c)) !== JSON.stringify(await page(duck, c))) outcome = 'page differs';
    else if (
      endpoints.some((e) => e.path === `${c.path}/stream`) &&
      JSON.stringify(await stream(dist, c)) !== JSON.stringify(await stream(duck, c))
    )
      outcome = 'stream differs';
  } catch (error) {
    outcome = (error as Error).message.replace(/\s+/g, ' ').slice(0, 300);
  }
  outcomes.push({ path: c.path, outcome });
}
await dist.close();
await duck.close();
session.release();
process.stdout.write(JSON.stringify(outcomes) + '\n');
