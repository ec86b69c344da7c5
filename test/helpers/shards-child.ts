/**
 * Run by test/clickhouse-shards.test.ts in a folder whose config.xml gives chdb clusters `two` and
 * `four`: two and four shards, each chdb itself (its tcp_port) in a database of its own (`s2_0`, …).
 * Arguments: the chdb directory `aea clickhouse load` wrote (database aea), the dataset folder, and
 * how many requests per report path to ask (0: every case). For each cluster and sharding key
 * (organization; organization and category, or domain for traffic), every shard database gets the
 * sharded tables as MergeTree tables and the others whole (views of aea), the rows are inserted
 * through a Distributed table (ClickHouse routes each by the key), and database `<cluster>_<key>`
 * holds the Distributed tables the engine reads. Prints one JSON line: per layout and case, `same`,
 * `differs` or the error, and each layout's rows per shard.
 */
import { contractCatalog } from '../../src/cluster/catalog.ts';
import { acquireChdb } from '../../src/engine/chdb-session.ts';
import { openEngine } from '../../src/open-engine.ts';
import { endpoints } from '../../src/reports/registry.ts';
import { everyReportCases, filterCases, page, sampleScopes, stream } from './every-report.ts';

const [path, data, perPath] = process.argv.slice(2) as [string, string, string];
const session = acquireChdb(path);
const catalog = contractCatalog();
const keys = {
  org: () => 'cityHash64(organization_id)',
  category: (columns: readonly string[]) => (columns.includes('category_id') ? 'cityHash64(organization_id, category_id)' : 'cityHash64(organization_id, domain)'),
};

const duck = await openEngine({ data, cursorSecret: 'shards', rollups: false });
const scopes = await sampleScopes(duck);
const all = [...everyReportCases(scopes), ...(await filterCases(duck, scopes))];
const limit = Number(perPath);
const cases = limit > 0 ? all.filter((c, i) => all.slice(0, i).filter((d) => d.path === c.path).length < limit) : all;
const expected = new Map<number, { page: string; stream?: string }>();
for (const [i, c] of cases.entries()) {
  expected.set(i, { page: JSON.stringify(await page(duck, c)), ...(endpoints.some((e) => e.path === `${c.path}/stream`) ? { stream: JSON.stringify(await stream(duck, c)) } : {}) });
}
await duck.close();

const layouts: Record<string, unknown> = {};
for (const [cluster, shards] of [['two', 2], ['four', 4]] as const) {
  for (const [keyName, key] of Object.entries(keys)) {
    const db = `${cluster}_${keyName}`;
    await session.run(`CREATE DATABASE ${db}`);
    for (let s = 0; s < shards; s++) await session.run(`CREATE DATABASE IF NOT EXISTS s${shards}_${s}`);
    for (const t of catalog.tables) {
      const columns = t.columns.map((c) => c.name);
      for (let s = 0; s < shards; s++) {
        const local = t.placement === 'sharded' ? `CREATE TABLE s${shards}_${s}.${t.name}_${keyName} AS aea.${t.name}` : `CREATE VIEW IF NOT EXISTS s${shards}_${s}.${t.name} AS SELECT * FROM aea.${t.name}`;
        await session.run(local);
      }
      if (t.placement === 'sharded') {
        await session.run(`CREATE TABLE ${db}.${t.name} AS aea.${t.name} ENGINE = Distributed(${cluster}, '', ${t.name}_${keyName}, ${key(columns)})`);
        await session.run(`INSERT INTO ${db}.${t.name} SELECT * FROM aea.${t.name} SETTINGS insert_distributed_sync = 1`);
      } else await session.run(`CREATE VIEW ${db}.${t.name} AS SELECT * FROM aea.${t.name}`);
    }
    for (const u of catalog.unions) await session.run(`CREATE VIEW ${db}.${u.name} AS ${u.of.map((t) => `SELECT ${u.columns.join(', ')} FROM ${db}.${t}`).join(' UNION ALL ')}`);
    const perShard = [];
    for (let s = 0; s < shards; s++) perShard.push(Number((await session.run(`SELECT count() AS n FROM s${shards}_${s}.mentions_${keyName}`)).columns.n![0]));
    const engine = await openEngine({ data, cursorSecret: 'shards', backend: 'clickhouse', clickhouseUrl: `chdb:${path}?database=${db}` });
    const outcomes: { path: string; outcome: string }[] = [];
    for (const [i, c] of cases.entries()) {
      let outcome = 'same';
      try {
        if (JSON.stringify(await page(engine, c)) !== expected.get(i)!.page) outcome = 'page differs';
        else if (expected.get(i)!.stream !== undefined && JSON.stringify(await stream(engine, c)) !== expected.get(i)!.stream) outcome = 'stream differs';
      } catch (error) {
        outcome = (error as Error).message.replace(/\s+/g, ' ').slice(0, 300);
      }
      outcomes.push({ path: c.path, outcome });
    }
    await engine.close();
    layouts[db] = { mentionsPerShard: perShard, outcomes };
  }
}
session.release();
process.stdout.write(JSON.stringify(layouts) + '\n');
