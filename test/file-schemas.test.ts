import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTableFiles } from '../src/engine/dataset.ts';
import { describeFile, describeFiles } from '../src/engine/file-schemas.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { tableNames } from '../src/model/tables.ts';
import { tempDir } from './helpers/tmp.ts';

let db: DuckDBInstance;
let conn: DuckDBConnection;
let dir: string;
const file = (name: string) => join(dir, name);
const copy = (select: string, name: string) => conn.run(`COPY (${select}) TO '${file(name)}' (FORMAT parquet)`);
const asObject = (m: ReadonlyMap<string, string> | undefined) => (m ? Object.fromEntries(m) : undefined);

beforeAll(async () => {
  dir = await tempDir('aea-file-schemas-');
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
  await copy(
    `SELECT 1::INTEGER AS n, 'a' AS s, ['x'] AS tags, {'k': 1} AS st, DATE '2026-03-08' AS d`,
    'nested-a.parquet',
  );
  await copy(
    `SELECT 2::INTEGER AS n, 'b' AS s, ['y', 'z'] AS tags, {'k': 2} AS st, DATE '2026-03-09' AS d`,
    'nested-b.parquet',
  );
  await copy(
    `SELECT 3::BIGINT AS n, NULL::VARCHAR AS s, [1, 2] AS tags, {'k': 'w'} AS st, TIMESTAMPTZ '2026-03-08 02:30:00+00' AS d`,
    'nested-other.parquet',
  );
  await copy(`SELECT [[1]] AS a, ['p'] AS b`, 'lists-1.parquet');
  await copy(`SELECT [['q']] AS a, [2] AS b`, 'lists-2.parquet');
  await copy(
    `SELECT 1.5::FLOAT AS f, 12::UTINYINT AS u, 'x'::BLOB AS b, uuid() AS id, 1.25::DECIMAL(9, 2) AS dec, '' AS empty`,
    'flat.parquet',
  );
  await writeFile(file('broken.parquet'), 'not parquet');
});

afterAll(() => {
  conn.closeSync();
  db.closeSync();
});

describe('describeFiles: every file in one statement', () => {
  it('gives each file the columns DuckDB’s own DESCRIBE gives, flat, nested and differing files alike', async () => {
    const files = ['nested-a', 'nested-b', 'nested-other', 'lists-1', 'lists-2', 'flat'].map((n) =>
      file(`${n}.parquet`),
    );
    const described = await describeFiles(conn, files);
    for (const f of files) expect(asObject(described.get(f)), f).toEqual(asObject(await describeFile(conn, f)));
    expect(asObject(described.get(file('lists-1.parquet')))).toEqual({ a: 'INTEGER[][]', b: 'VARCHAR[]' });
    expect(asObject(described.get(file('lists-2.parquet')))).toEqual({ a: 'VARCHAR[][]', b: 'INTEGER[]' });
  });

  it('agrees with DESCRIBE on every file of the sample', async () => {
    const files = tableNames.flatMap((t) => findTableFiles(sampleDir, t) ?? []);
    const described = await describeFiles(conn, files);
    expect(described.size).toBe(files.length);
    for (const f of files) expect(asObject(described.get(f)), f).toEqual(asObject(await describeFile(conn, f)));
  });

  it('leaves every file to its own DESCRIBE when one of them cannot be read, so the error names that file', async () => {
    const described = await describeFiles(conn, [file('flat.parquet'), file('broken.parquet')]);
    expect(described.size).toBe(0);
    await expect(describeFile(conn, file('broken.parquet'))).rejects.toThrow(/broken\.parquet/);
    expect((await describeFiles(conn, [])).size).toBe(0);
  });
});
