import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { acquireChdb, type ChdbHandle } from '../src/engine/chdb-session.ts';
import { rollupObjects } from '../src/cluster/rollup-ddl.ts';
import { clickhouseRollupNames, clickhouseRollups } from '../src/reports/clickhouse-rollups.ts';
import { schemaStatements } from '../src/cluster/schema-ddl.ts';
import { contractCatalog } from '../src/cluster/catalog.ts';
import { rollupCatalog } from '../src/reports/rollup-catalog.ts';
import type { ColumnBatch } from '../src/query/row-shape.ts';
import { ident, sql } from '../src/query/sql.ts';
import { firstDifference } from './helpers/answers.ts';
import { aea, aeaInProcess } from './helpers/cli.ts';
import { sampleScopes, type Scopes } from './helpers/every-report.ts';
import { rollupCases } from './helpers/rollup-cases.ts';
import { tempDir } from './helpers/tmp.ts';

/**
 * `aea clickhouse load` creates each rollup as a store fed by a materialized view and a view under the
 * DuckDB rollup's name (src/cluster/rollup-ddl.ts). Over the sample loaded into chdb: the views hold
 * DuckDB's rollup rows, the loaded backend chooses the rollups DuckDB chooses and answers the same bytes,
 * facts inserted after the load are in the next answer, and so is a prompt edited on the server.
 */
type Json = Record<string, unknown>;
let dir: string;
let path: string;
let url: string;
let load: { code: number; stdout: string; stderr: string };
let duck: Engine;
let loaded: Engine;
let facts: Engine;
let raw: ChdbHandle;
let scopes: Scopes;

beforeAll(async () => {
  dir = await tempDir('aea-rollups-');
  path = `${dir}/chdb`;
  url = `chdb:${path}?database=aea`;
  load = await aea(['clickhouse', 'load', sampleDir, '--url', url]);
  duck = await openEngine({ data: sampleDir, cursorSecret: 'r' });
  loaded = await openEngine({
    data: sampleDir,
    cursorSecret: 'r',
    backend: 'clickhouse',
    clickhouseUrl: url,
    resultCache: 0,
  });
  facts = await openEngine({
    data: sampleDir,
    cursorSecret: 'r',
    backend: 'clickhouse',
    clickhouseUrl: url,
    resultCache: 0,
    rollups: false,
  });
  raw = acquireChdb(path);
  scopes = await sampleScopes(duck);
  const ids = async (table: string) =>
    (await duck.core.backend.read(sql`SELECT id FROM ${ident(table)}`)).columns.id!.map(String);
  const [categories, organizations] = [await ids('categories'), await ids('organizations')];
  for (const r of clickhouseRollups)
    await duck.core.rollups.warm(r.def, r.def.scope.kind === 'category' ? categories : organizations);
}, 300_000);
afterAll(async () => {
  raw?.release();
  await facts?.close();
  await loaded?.close();
  await duck?.close();
});

/** A statement on the loaded database, as a user with access to the server would run it. */
const onServer = (text: string) => raw.run(text, 'aea', {}, undefined, true);

/** A batch's rows as sorted JSON lines, integers as numbers (DuckDB hands BIGINT as bigint, ClickHouse as number). */
function rowsOf(batch: ColumnBatch): string[] {
  const names = Object.keys(batch.columns);
  const cell = (_k: string, v: unknown) => (typeof v === 'bigint' ? Number(v) : v);
  return Array.from({ length: batch.length }, (_, i) =>
    JSON.stringify(
      names.map((n) => batch.columns[n]![i]),
      cell,
    ),
  ).sort();
}

const ask = (engine: Engine, report: string, org: string, body: Json, options?: Json) =>
  (engine.org(org).reports as unknown as Record<string, (b: Json, o?: Json) => Promise<Json>>)[report]!(body, options);
const chosen = async (engine: Engine, report: string, org: string, body: Json) =>
  ((await ask(engine, report, org, body, { explain: true })).explain as { rollups: { chosen: string[] } }).rollups
    .chosen;

describe('rollups on ClickHouse, kept by materialized views', () => {
  it('the load creates a store, a feed and a view per rollup table, and the loaded backend keeps every rollup', async () => {
    expect(load.code).toBe(0);
    const tables = new Set(
      (await onServer(`SELECT name FROM system.tables WHERE database = 'aea'`)).columns.name!.map(String),
    );
    for (const r of clickhouseRollups)
      for (const name of Object.values(rollupObjects(r))) expect(tables).toContain(name);
    expect([...clickhouseRollupNames].sort()).toEqual(rollupCatalog.map((d) => d.name).sort());
    expect([...loaded.core.backend.keptRollups!].sort()).toEqual([...clickhouseRollupNames].sort());
    expect([...facts.core.backend.keptRollups!].sort()).toEqual([...clickhouseRollupNames].sort());
    const printed = await aeaInProcess(['clickhouse', 'schema', sampleDir, '--print', '--database', 'aea']);
    for (const s of schemaStatements(contractCatalog(), { database: 'aea', rollups: clickhouseRollups }).filter((t) =>
      t.includes('rollup_'),
    ))
      expect(printed.stdout).toContain(`${s};\n`);
  });

  it("each rollup view holds DuckDB's rollup rows, column for column (the first category's or organization's)", async () => {
    const problems: string[] = [];
    for (const r of clickhouseRollups) {
      const [view, column] = [
        ident(rollupObjects(r).view),
        ident(r.def.scope.kind === 'category' ? 'category_id' : 'organization_id'),
      ];
      const q = sql`SELECT * FROM ${view} WHERE ${column} = (SELECT min(${column}) FROM ${view})`;
      const [want, got] = [await duck.core.backend.read(q), await loaded.core.backend.read(q)];
      expect(Object.keys(got.columns)).toEqual(Object.keys(want.columns));
      expect(want.length).toBeGreaterThan(0);
      if (JSON.stringify(rowsOf(got)) !== JSON.stringify(rowsOf(want)))
        problems.push(`${rollupObjects(r).view}: ${got.length} rows, DuckDB ${want.length}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('`aea clickhouse schema` on a database loaded before its rollups existed fills their stores from the facts', async () => {
    const dropped = clickhouseRollups.filter(
      (r) => r.def.name === 'sentiment_daily' || (r.def.name === 'traffic_daily' && r.table === 'bot_events'),
    );
    for (const r of dropped)
      for (const o of [rollupObjects(r).view, rollupObjects(r).feed, rollupObjects(r).store])
        await onServer(`DROP TABLE aea.${o}`);
    const out = await aeaInProcess(['clickhouse', 'schema', sampleDir, '--url', url]);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `2 rollup stores filled from the facts already loaded: ${dropped.map((r) => rollupObjects(r).store).join(', ')}`,
    );
    for (const r of dropped) {
      const q = sql`SELECT * FROM ${ident(rollupObjects(r).view)}`;
      expect(rowsOf(await loaded.core.backend.read(q))).toEqual(rowsOf(await duck.core.backend.read(q)));
    }
    expect((await aeaInProcess(['clickhouse', 'schema', sampleDir, '--url', url])).stderr).not.toContain('filled');
  }, 120_000);

  it('the loaded backend chooses the rollups DuckDB chooses, and answers the same bytes', async () => {
    const read = new Set<string>();
    const problems: string[] = [];
    for (const c of rollupCases(scopes)) {
      const [want, got] = [
        await chosen(duck, c.report, c.scope.org, c.body),
        await chosen(loaded, c.report, c.scope.org, c.body),
      ];
      expect(want.length).toBeGreaterThan(0);
      expect({ report: c.report, chosen: got }).toEqual({ report: c.report, chosen: want });
      for (const name of got) read.add(name);
      const [a, b] = [await ask(duck, c.report, c.scope.org, c.body), await ask(loaded, c.report, c.scope.org, c.body)];
      if (JSON.stringify(b) !== JSON.stringify(a))
        problems.push(`${c.report} differs at ${firstDifference(b, a) ?? 'its bytes only'}`);
    }
    expect(problems).toEqual([]);
    expect([...read].sort()).toEqual([...clickhouseRollupNames].sort());
  }, 180_000);

  it('`aea query --backend clickhouse --explain` shows the rollup chosen', async () => {
    const c = rollupCases(scopes)[0]!;
    const out = await aeaInProcess([
      'query',
      '/v2/reports/visibility',
      '--data',
      sampleDir,
      '--org',
      c.scope.org,
      '--body',
      JSON.stringify(c.body),
      '--backend',
      'clickhouse',
      '--clickhouse-url',
      url,
      '--explain',
    ]);
    expect(out.code).toBe(0);
    const { explain } = JSON.parse(out.stdout) as {
      explain: { rollups: { chosen: string[]; reason: string }; statements: { sql: string }[] };
    };
    expect(explain.rollups.chosen).toEqual(['visibility_daily']);
    expect(JSON.stringify(explain)).toContain('rollup_visibility_daily_mentions');
  }, 60_000);

  it('a day of facts inserted after the load is in the next answer, read from the rollups', async () => {
    const { org, category } = scopes.insights;
    const visibility = {
      category_id: category,
      start_date: '2026-11-01',
      end_date: '2026-11-16',
      group_by: ['date'],
      limit: 50,
    };
    const citations = {
      category_id: category,
      start_date: '2026-11-16',
      end_date: '2026-11-16',
      group_by: ['date'],
      limit: 50,
    };
    const before = JSON.stringify(await ask(loaded, 'visibility', org, visibility));
    expect(before).not.toContain('"date":"2026-11-16"');
    expect((await ask(loaded, 'citations', org, citations)).data).toEqual([]);
    // The last day again as 2026-11-16, with ids of its own (the WHERE in a subquery: beside REPLACE, `day` names the replaced value).
    const shifted = (table: string, id: string) =>
      `INSERT INTO aea.${table} SELECT * REPLACE (concat('new-', ${id}) AS ${id}, day + 1 AS day, executed_at + INTERVAL 1 DAY AS executed_at) FROM (SELECT * FROM aea.${table} WHERE category_id = '${category}' AND day = '2026-11-15')`;
    await onServer(shifted('executions', 'id'));
    for (const t of ['mentions', 'citations']) await onServer(shifted(t, 'execution_id'));
    for (const [report, body, name] of [
      ['visibility', visibility, 'visibility_daily'],
      ['citations', citations, 'citations_daily'],
    ] as const) {
      expect(await chosen(loaded, report, org, body)).toEqual([name]);
      const [got, want] = [await ask(loaded, report, org, body), await ask(facts, report, org, body)];
      expect(await chosen(facts, report, org, body)).toEqual([]);
      expect(JSON.stringify(got)).toMatch(/"(date|day)":"2026-11-16/);
      expect(JSON.stringify(got)).toBe(JSON.stringify(want));
    }
    expect(JSON.stringify(await ask(loaded, 'visibility', org, visibility))).not.toBe(before);
  }, 120_000);

  it('a prompt edited on the server (its analysis types, its topic) is in the next answer: the rollups join the current prompts', async () => {
    const { org, category } = scopes.insights;
    const byTopic = {
      category_id: category,
      start_date: '2026-01-01',
      end_date: '2026-06-30',
      scope: 'all',
      group_by: ['topic'],
      limit: 50,
    };
    const byModel = {
      category_id: category,
      start_date: '2026-01-01',
      end_date: '2026-06-30',
      group_by: ['model'],
      limit: 50,
    };
    const prompt = String(
      (
        await onServer(
          `SELECT prompt_id FROM aea.executions WHERE category_id = '${category}' AND day BETWEEN '2026-01-01' AND '2026-06-30' GROUP BY prompt_id ORDER BY count() DESC, prompt_id LIMIT 1`,
        )
      ).columns.prompt_id![0],
    );
    const topics = (
      await onServer(`SELECT id FROM aea.topics WHERE category_id = '${category}' ORDER BY id`)
    ).columns.id!.map(String);
    const current = String(
      (await onServer(`SELECT topic_id FROM aea.prompts WHERE id = '${prompt}'`)).columns.topic_id![0],
    );
    const other = topics.find((t) => t !== current)!;
    const before = [
      JSON.stringify(await ask(loaded, 'visibility', org, byTopic)),
      JSON.stringify(await ask(loaded, 'visibility', org, byModel)),
    ];
    await onServer(
      `ALTER TABLE aea.prompts UPDATE topic_id = '${other}', analysis_types = arrayFilter(t -> t != 'visibility', analysis_types) WHERE id = '${prompt}' SETTINGS mutations_sync = 1`,
    );
    for (const body of [byTopic, byModel]) {
      expect((await chosen(loaded, 'visibility', org, body)).length).toBeGreaterThan(0);
      expect(JSON.stringify(await ask(loaded, 'visibility', org, body))).toBe(
        JSON.stringify(await ask(facts, 'visibility', org, body)),
      );
    }
    expect([
      JSON.stringify(await ask(loaded, 'visibility', org, byTopic)),
      JSON.stringify(await ask(loaded, 'visibility', org, byModel)),
    ]).not.toEqual(before);
    expect(JSON.stringify(await ask(loaded, 'visibility', org, byModel))).not.toBe(before[1]);
  }, 120_000);
});
