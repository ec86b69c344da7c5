import { describe, expect, it } from 'vitest';
import { contractCatalog, type Catalog } from '../src/cluster/catalog.ts';
import { schemaStatements } from '../src/cluster/schema-ddl.ts';
import { derivedStateViews } from '../src/engine/clickhouse-tables.ts';
import { tableNames } from '../src/model/tables.ts';
import { ValidationError } from '../src/errors.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { aeaInProcess } from './helpers/cli.ts';
import { clickhouseRollups } from '../src/reports/clickhouse-rollups.ts';

/** The DDL `aea clickhouse schema` runs: a pure function of the catalog, checked here without a server. */
const small: Catalog = {
  tables: [
    {
      name: 'facts',
      columns: [
        { name: 'organization_id', type: 'String' },
        { name: 'day', type: 'Date32' },
        { name: 'note', type: 'Nullable(String)' },
      ],
      orderBy: ['organization_id', 'day'],
      placement: 'sharded',
    },
    { name: 'dims', columns: [{ name: 'id', type: 'String' }], orderBy: ['id'], placement: 'whole' },
  ],
  unions: [{ name: 'both', of: ['facts', 'dims'], columns: ['organization_id'] }],
};

describe('the ClickHouse schema', () => {
  it('on one server: plain MergeTree tables under their names, then the views', () => {
    expect(schemaStatements(small, { database: 'aea' })).toEqual([
      'CREATE DATABASE IF NOT EXISTS aea',
      'CREATE TABLE IF NOT EXISTS aea.facts ("organization_id" String, "day" Date32, "note" Nullable(String)) ENGINE = MergeTree ORDER BY ("organization_id", "day")',
      'CREATE TABLE IF NOT EXISTS aea.dims ("id" String) ENGINE = MergeTree ORDER BY ("id")',
      'CREATE VIEW IF NOT EXISTS aea.both AS SELECT "organization_id" FROM aea.facts UNION ALL SELECT "organization_id" FROM aea.dims',
    ]);
  });

  it('on a cluster: local tables and a Distributed one sharded by organization, small tables whole on every node', () => {
    expect(schemaStatements(small, { database: 'aea', cluster: 'shards' })).toEqual([
      'CREATE DATABASE IF NOT EXISTS aea ON CLUSTER shards',
      'CREATE TABLE IF NOT EXISTS aea.facts_local ON CLUSTER shards ("organization_id" String, "day" Date32, "note" Nullable(String)) ENGINE = MergeTree ORDER BY ("organization_id", "day")',
      'CREATE TABLE IF NOT EXISTS aea.facts ON CLUSTER shards AS aea.facts_local ENGINE = Distributed(shards, aea, facts_local, cityHash64(organization_id))',
      'CREATE TABLE IF NOT EXISTS aea.dims ON CLUSTER shards ("id" String) ENGINE = ReplicatedMergeTree(\'/clickhouse/tables/{database}/{table}/all\', \'{replica}\') ORDER BY ("id")',
      'CREATE VIEW IF NOT EXISTS aea.both ON CLUSTER shards AS SELECT "organization_id" FROM aea.facts UNION ALL SELECT "organization_id" FROM aea.dims',
    ]);
  });

  it("orders the contract's facts for the reports' windows and shards only those", () => {
    const catalog = contractCatalog();
    const byName = new Map(catalog.tables.map((t) => [t.name, t]));
    const insights = [
      'executions',
      'mentions',
      'citations',
      'fanouts',
      'sentiments',
      'claim_occurrences',
      'shopping_results',
    ];
    for (const t of insights)
      expect(byName.get(t)).toMatchObject({
        orderBy: ['organization_id', 'category_id', 'day', 'executed_at'],
        placement: 'sharded',
      });
    for (const t of ['bot_events', 'referral_visits'])
      expect(byName.get(t)).toMatchObject({ orderBy: ['organization_id', 'domain', 'ts'], placement: 'sharded' });
    expect(
      catalog.tables
        .filter((t) => t.placement === 'sharded')
        .map((t) => t.name)
        .sort(),
    ).toEqual([...insights, 'bot_events', 'referral_visits'].sort());
    for (const t of catalog.tables) {
      const columns = new Map(t.columns.map((c) => [c.name, c.type]));
      for (const c of t.orderBy)
        expect({ table: t.name, key: c, type: columns.get(c) }).toMatchObject({
          type: expect.not.stringMatching(/^Nullable|^Array/),
        });
      if (t.placement === 'sharded') expect(columns.get('organization_id')).toBe('String');
    }
    expect(byName.get('mentions')!.columns).toContainEqual({ name: 'persona_id', type: 'Nullable(String)' });
    expect(byName.get('prompts')!.columns).toContainEqual({ name: 'tag_ids', type: 'Array(Nullable(String))' });
  });

  it("creates the contract's tables, the state store's derived views as tables, and request_log", () => {
    const created = [...contractCatalog().tables.map((t) => t.name), ...contractCatalog().unions.map((u) => u.name)];
    expect(created.sort()).toEqual([...tableNames, ...derivedStateViews, 'request_log'].sort());
  });

  it('splices no name that is not a plain identifier', () => {
    expect(() => schemaStatements(small, { database: 'aea; DROP TABLE x' })).toThrow(ValidationError);
    expect(() => schemaStatements(small, { database: 'aea', cluster: "x') --" })).toThrow(
      /cluster: .*must be a plain identifier .*got "x'\) --"/,
    );
    expect(() =>
      schemaStatements({ ...small, tables: [{ ...small.tables[1]!, name: 'a.b' }] }, { database: 'aea' }),
    ).toThrow(/table: /);
  });

  it('aea clickhouse schema --print prints the statements, one per line', async () => {
    const r = await aeaInProcess([
      'clickhouse',
      'schema',
      sampleDir,
      '--print',
      '--database',
      'aea',
      '--cluster',
      'shards',
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toEqual(
      schemaStatements(contractCatalog(), { database: 'aea', cluster: 'shards', rollups: clickhouseRollups }).map(
        (s) => `${s};`,
      ),
    );
    expect(lines).toContain(
      'CREATE TABLE IF NOT EXISTS aea.mentions ON CLUSTER shards AS aea.mentions_local ENGINE = Distributed(shards, aea, mentions_local, cityHash64(organization_id));',
    );
    const bad = await aeaInProcess(['clickhouse', 'schema', sampleDir, '--print', '--database', '1aea']);
    expect(bad.code).toBe(2);
  });

  it("creates each rollup table as a store, a feed on its facts and a view under the DuckDB rollup's name, after the facts and prompts", () => {
    const one = schemaStatements(contractCatalog(), { database: 'aea', rollups: clickhouseRollups });
    const at = (text: string) => one.findIndex((s) => s.startsWith(text));
    expect(one.filter((s) => s.includes('rollup_sentiment_daily_sentiments'))).toEqual([
      'CREATE TABLE IF NOT EXISTS aea.rollup_sentiment_daily_sentiments_store ("category_id" String, "day" Date32, "model_id" String, "asset_id" String, "prompt_id" String, "n" SimpleAggregateFunction(sum, Int64), "positive" SimpleAggregateFunction(sum, Int64), "negative" SimpleAggregateFunction(sum, Int64)) ENGINE = AggregatingMergeTree ORDER BY ("category_id", "day", "model_id", "asset_id", "prompt_id") SETTINGS allow_nullable_key = 1',
      `CREATE MATERIALIZED VIEW IF NOT EXISTS aea.rollup_sentiment_daily_sentiments_feed TO aea.rollup_sentiment_daily_sentiments_store AS SELECT f.category_id AS "category_id", f.day AS "day", f.model_id AS "model_id", f.asset_id AS "asset_id", f.prompt_id AS "prompt_id", toInt64(count()) AS "n", toInt64(countIf(f.sentiment_type = 'positive')) AS "positive", toInt64(countIf(f.sentiment_type = 'negative')) AS "negative" FROM aea.sentiments AS f GROUP BY "category_id", "day", "model_id", "asset_id", "prompt_id" SETTINGS aggregate_functions_null_for_empty = 0`,
      `CREATE VIEW IF NOT EXISTS aea.rollup_sentiment_daily_sentiments AS SELECT s."category_id" AS "category_id", s."day" AS "day", s."model_id" AS "model_id", s."asset_id" AS "asset_id", CAST(sum(s.n) AS Int64) AS "n", CAST(sum(s.positive) AS Int64) AS "positive", CAST(sum(s.negative) AS Int64) AS "negative" FROM aea.rollup_sentiment_daily_sentiments_store AS s INNER JOIN aea.prompts AS p ON p.id = s.prompt_id AND p.category_id = s.category_id WHERE has(p.analysis_types, 'sentiment') GROUP BY s."category_id", s."day", s."model_id", s."asset_id" SETTINGS aggregate_functions_null_for_empty = 0`,
    ]);
    expect(at('CREATE MATERIALIZED VIEW')).toBeGreaterThan(at('CREATE TABLE IF NOT EXISTS aea.sentiments '));
    expect(at('CREATE VIEW IF NOT EXISTS aea.rollup_')).toBeGreaterThan(at('CREATE TABLE IF NOT EXISTS aea.prompts '));
    const cluster = schemaStatements(contractCatalog(), {
      database: 'aea',
      cluster: 'shards',
      rollups: clickhouseRollups,
    }).filter((s) => s.includes('rollup_traffic_hourly_bot_events'));
    expect(cluster.map((s) => s.slice(0, s.indexOf(' ON CLUSTER shards')))).toEqual([
      'CREATE TABLE IF NOT EXISTS aea.rollup_traffic_hourly_bot_events_store_local',
      'CREATE TABLE IF NOT EXISTS aea.rollup_traffic_hourly_bot_events_store',
      'CREATE MATERIALIZED VIEW IF NOT EXISTS aea.rollup_traffic_hourly_bot_events_feed',
      'CREATE VIEW IF NOT EXISTS aea.rollup_traffic_hourly_bot_events',
    ]);
    expect(cluster[1]).toContain('ENGINE = Distributed(shards, aea, rollup_traffic_hourly_bot_events_store_local)');
    expect(cluster[2]).toContain('FROM aea.bot_events_local AS f');
    expect(
      schemaStatements(small, { database: 'aea', rollups: clickhouseRollups }).some((s) => s.includes('rollup_')),
    ).toBe(false);
    expect(schemaStatements(contractCatalog(), { database: 'aea' }).some((s) => s.includes('rollup_'))).toBe(false);
  });
});
