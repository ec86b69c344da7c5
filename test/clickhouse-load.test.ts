import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { endpoints } from '../src/registry.ts';
import { contractCatalog } from '../src/cluster/catalog.ts';
import { firstDifference } from './helpers/answers.ts';
import { aea } from './helpers/cli.ts';
import {
  everyReportCases,
  page,
  reportPaths,
  rowsOf,
  sampleScopes,
  stream,
  type Scopes,
} from './helpers/every-report.ts';
import { tempDir } from './helpers/tmp.ts';

/**
 * `aea clickhouse load` into a chdb data directory (a real chdb, in a child process), then every
 * report path of the registry read from the loaded MergeTree tables (`--backend clickhouse
 * --clickhouse-url chdb:PATH`) answers what DuckDB answers over the Parquet folder, byte for byte.
 */
let dir: string;
let url: string;
let load: { code: number; stdout: string; stderr: string };
let again: typeof load;
let duck: Engine;
let loaded: Engine;
let scopes: Scopes;

beforeAll(async () => {
  dir = await tempDir('aea-load-');
  url = `chdb:${dir}/chdb?database=aea`;
  load = await aea(['clickhouse', 'load', sampleDir, '--url', url]);
  // Before this process opens the directory: chdb's data directory is one process's at a time.
  again = await aea(['clickhouse', 'load', sampleDir, '--url', url]);
  duck = await openEngine({ data: sampleDir, cursorSecret: 'load', rollups: false });
  loaded = await openEngine({ data: sampleDir, cursorSecret: 'load', backend: 'clickhouse', clickhouseUrl: url });
  scopes = await sampleScopes(duck);
}, 300_000);
afterAll(async () => {
  await loaded?.close();
  await duck?.close();
});

describe('aea clickhouse load into chdb, and the engine reading the loaded tables', () => {
  it('loads every table, saying how many rows each got, and checks them against the dataset', () => {
    expect(load.stderr.split('\n').filter((l) => / rows loaded/.test(l))).toHaveLength(contractCatalog().tables.length);
    expect(load.stderr).toMatch(/^mentions: 89330 rows loaded from \d+ files$/m);
    expect(load.stderr).toMatch(/^kb_sections: \d+ rows loaded from 1 file$/m);
    expect(load.stdout).toMatch(/every table's rows match the dataset's/);
    expect(load.code).toBe(0);
  });

  it('every report path, page and stream, answers byte for byte as DuckDB over the Parquet folder', async () => {
    const cases = everyReportCases(scopes);
    expect(new Set(cases.map((c) => c.path))).toEqual(new Set(reportPaths()));
    const problems: string[] = [];
    for (const c of cases) {
      const want = await page(duck, c);
      if (rowsOf(want as Record<string, unknown>) === 0) problems.push(`${c.path}: no rows in the sample`);
      const got = await page(loaded, c);
      if (JSON.stringify(got) !== JSON.stringify(want))
        problems.push(`${c.path} page differs at ${firstDifference(got, want) ?? 'its bytes only'}`);
      if (endpoints.some((e) => e.path === `${c.path}/stream`)) {
        const [gotStream, wantStream] = [await stream(loaded, c), await stream(duck, c)];
        if (JSON.stringify(gotStream) !== JSON.stringify(wantStream))
          problems.push(`${c.path} stream differs at ${firstDifference(gotStream, wantStream) ?? 'its bytes only'}`);
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('a second load into the same database is refused before any row is loaded (the answers above read one copy)', () => {
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/the database aea already holds rows in 38 tables \(organizations, models, /);
  });

  it('refuses names that are not plain identifiers with exit 2, and a database nothing was loaded into', async () => {
    const bad = await aea([
      'clickhouse',
      'load',
      sampleDir,
      '--url',
      `chdb:${dir}/chdb`,
      '--database',
      'aea; DROP TABLE x',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/database: .*must be a plain identifier/);
    const cluster = await aea(['clickhouse', 'schema', sampleDir, '--print', '--cluster', 'a-b']);
    expect(cluster.code).toBe(2);
    expect(cluster.stderr).toMatch(/cluster: .*must be a plain identifier/);
    expect(
      (await aea(['clickhouse', 'load', sampleDir, '--url', `chdb:${dir}/chdb`, '--cluster', 'aea'])).stderr,
    ).toMatch(/--cluster needs a ClickHouse server/);
    await expect(
      openEngine({ data: sampleDir, backend: 'clickhouse', clickhouseUrl: `chdb:${dir}/chdb?database=nothing` }),
    ).rejects.toThrow(/has no dataset in database nothing: load one with `aea clickhouse load/);
  }, 120_000);
});
