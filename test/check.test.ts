import { cp, mkdir, open, rm, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { findTableFiles } from '../src/engine/dataset.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { tableNames, type TableName } from '../src/model/tables.ts';
import { aeaInProcess } from './helpers/cli.ts';
import { linkTables } from './helpers/dataset-folder.ts';
import { tempDir } from './helpers/tmp.ts';

let dir: string;

async function write(target: string, select: string): Promise<void> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await conn.run(`COPY (${select}) TO '${target}' (FORMAT parquet)`);
  conn.closeSync();
  db.closeSync();
}

const replaced: TableName[] = ['assets', 'mentions', 'citations', 'regions', 'bot_events', 'prompts'];

beforeAll(async () => {
  dir = await linkTables(
    join(await tempDir('aea-check-'), 'broken'),
    tableNames.filter((t) => !replaced.includes(t)),
  );
  const src = (t: TableName) =>
    `read_parquet([${findTableFiles(sampleDir, t)!
      .map((f) => `'${f}'`)
      .join(', ')}])`;
  await write(
    join(dir, 'assets.parquet'),
    `SELECT * EXCLUDE (website) REPLACE (CASE WHEN row_number() OVER () <= 2 THEN NULL ELSE category_id END AS category_id, CASE WHEN row_number() OVER () = 3 THEN NULL ELSE id END AS id) FROM ${src('assets')}`,
  );
  await mkdir(join(dir, 'mentions'));
  await write(
    join(dir, 'mentions', 'part-0001.parquet'),
    `SELECT * REPLACE (CAST(position AS VARCHAR) AS position) FROM ${src('mentions')} ORDER BY category_id, executed_at`,
  );
  await write(join(dir, 'citations.parquet'), `SELECT * FROM ${src('citations')} ORDER BY hash(url, execution_id)`);
  await write(join(dir, 'regions.parquet'), `SELECT * FROM ${src('regions')}`);
  const size = (await stat(join(dir, 'regions.parquet'))).size;
  const handle = await open(join(dir, 'regions.parquet'), 'r+');
  await handle.truncate(size - 9);
  await handle.close();
  await write(join(dir, 'prompts.parquet'), `SELECT * FROM ${src('prompts')}`);
  await mkdir(join(dir, 'prompts'));
});

describe('aea check', () => {
  it('lists every problem of a folder at once, with the operations a missing table disables', async () => {
    const { code, stdout } = await aeaInProcess(['check', dir]);
    expect(code).toBe(1);
    const lines = stdout.trim().split('\n');
    const file = (t: string) => join(dir, t);
    expect(lines).toEqual([
      `error    cannot read ${file('regions.parquet')} (table "regions"): ${lines.find((l) => l.includes('cannot read'))!.split('(table "regions"): ')[1]}`,
      `error    ${file('assets.parquet')}: table "assets" is missing column "website" (VARCHAR)`,
      `error    ${file('assets.parquet')}: 1 row has no "id" (a key column of table "assets")`,
      `error    ${file('assets.parquet')}: 2 rows have no "category_id" (a required column of table "assets")`,
      `error    table "prompts" is ambiguous: both ${file('prompts.parquet')} and ${file('prompts')}/ exist`,
      `error    ${file('mentions/part-0001.parquet')}: column "position" of table "mentions" has type VARCHAR, expected INTEGER`,
      expect.stringMatching(
        new RegExp(
          `^slow     ${file('citations.parquet')}: rows are not ordered by \\(category_id, executed_at\\) \\(\\d+ steps back\\): reports read every row group of it; write it sorted \\(docs/own-data.md\\)$`,
        ),
      ),
      `warning  missing table "bot_events": 4 operations refuse without it (/v1/reports/bots, /v2/reports/bots, /v1/logs/raw, /v1/logs/raw/bots)`,
      `${dir}: 6 errors, 1 warnings, 1 slow files`,
    ]);
  });

  it('prints the problems as JSON, and passes the bundled sample', async () => {
    const json = await aeaInProcess(['check', dir, '--json']);
    const problems = JSON.parse(json.stdout) as { severity: string; table: string; column?: string }[];
    expect(problems.filter((p) => p.table === 'assets').map((p) => p.column)).toEqual(['website', 'id', 'category_id']);
    const sample = await aeaInProcess(['check', sampleDir]);
    expect(sample).toEqual({ code: 0, stdout: `${sampleDir}: no problems\n`, stderr: '' });
  });

  it('refuses a key on more than one row of a dimension table, across its parts: models listed twice', async () => {
    const twice = await linkTables(
      join(dir, '..', 'twice'),
      tableNames.filter((t) => !['models', 'regions'].includes(t)),
    );
    const models = `read_parquet([${findTableFiles(sampleDir, 'models')!
      .map((f) => `'${f}'`)
      .join(', ')}])`;
    await mkdir(join(twice, 'models'));
    await write(join(twice, 'models', 'part-0000.parquet'), `SELECT * FROM ${models}`);
    await write(join(twice, 'models', 'part-0001.parquet'), `SELECT * FROM ${models} ORDER BY id LIMIT 2`);
    const regions = `read_parquet([${findTableFiles(sampleDir, 'regions')!
      .map((f) => `'${f}'`)
      .join(', ')}])`;
    await write(
      join(twice, 'regions.parquet'),
      `SELECT * FROM ${regions} UNION ALL SELECT * FROM ${regions} UNION ALL SELECT * FROM ${regions}`,
    );
    const ids = async (table: string, n: number) => {
      const db = await DuckDBInstance.create(':memory:');
      const conn = await db.connect();
      const rows = (await conn.runAndReadAll(`SELECT id FROM ${table} ORDER BY id LIMIT ${n}`))
        .getRowsJS()
        .map((r) => String(r[0]));
      conn.closeSync();
      db.closeSync();
      return rows;
    };
    const [m1, m2] = await ids(models, 2);
    const regionIds = await ids(regions, 1000);
    const { code, stdout } = await aeaInProcess(['check', twice]);
    expect(code).toBe(1);
    const errors = stdout.split('\n').filter((l) => l.startsWith('error'));
    expect(errors).toEqual([
      `error    the 2 files of table "models": 2 id values on more than one row: ${m1} (2 rows), ${m2} (2 rows); table "models" holds one row per id`,
      `error    ${join(twice, 'regions.parquet')}: ${regionIds.length} id values on more than one row: ${regionIds
        .slice(0, 5)
        .map((r) => `${r} (3 rows)`)
        .join(
          ', ',
        )}${regionIds.length > 5 ? ` and ${regionIds.length - 5} more` : ''}; table "regions" holds one row per id`,
    ]);
  });

  it('is quiet about tables that may be left out, and needs a folder', async () => {
    const bare = await linkTables(join(dir, '..', 'bare'), ['models']);
    const { code, stdout } = await aeaInProcess(['check', bare]);
    expect(code).toBe(0);
    expect(stdout).not.toContain('"personas"');
    expect(stdout).toContain('missing table "mentions"');
    await rm(bare, { recursive: true });
    expect((await aeaInProcess(['check'])).stderr).toContain('DIR is required');
  });

  it('is an error, not a warning, when dataset.json records the missing table, or its folder is a dangling link or a loop', async () => {
    const copy = join(dir, '..', 'recorded');
    await cp(sampleDir, copy, { recursive: true });
    await rm(join(copy, 'bot_events'), { recursive: true, force: true });
    await rm(join(copy, 'bot_events.parquet'), { force: true });
    const gone = await aeaInProcess(['check', copy]);
    expect(gone.code).toBe(1);
    expect(gone.stdout).toContain(
      `error    missing table "bot_events": expected ${join(copy, 'bot_events.parquet')} or a folder ${join(copy, 'bot_events')}/ of Parquet files; dataset.json records`,
    );
    await symlink(join(copy, 'nowhere'), join(copy, 'bot_events'));
    const dangling = await aeaInProcess(['check', copy]);
    expect(dangling.code).toBe(1);
    expect(dangling.stdout).toContain(
      `error    table "bot_events": ${join(copy, 'bot_events')} is a symbolic link to nothing (dangling)`,
    );
    await rm(join(copy, 'bot_events'));
    await symlink(join(copy, 'bot_events'), join(copy, 'bot_events'));
    const loop = await aeaInProcess(['check', copy]);
    expect(loop.code).toBe(1);
    expect(loop.stdout).toContain(
      `error    table "bot_events": ${join(copy, 'bot_events')} is a loop of symbolic links`,
    );
    await rm(copy, { recursive: true });
  });
});
