import { cp, open, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { DatasetError } from '../src/errors.ts';
import { openEngine } from '../src/open-engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { tempDir } from './helpers/tmp.ts';

let root: string;
beforeAll(async () => {
  root = await tempDir();
});

async function copySample(name: string): Promise<string> {
  const dir = join(root, name);
  await cp(sampleDir, dir, { recursive: true });
  return dir;
}

async function rewrite(file: string, select: string): Promise<void> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const tmp = `${file}.tmp`;
  await conn.run(`COPY (${select.replace('$src', `read_parquet($src)`)}) TO $dst (FORMAT parquet)`, {
    src: file,
    dst: tmp,
  });
  conn.closeSync();
  db.closeSync();
  await rm(file);
  await cp(tmp, file);
  await rm(tmp);
}

async function titlePageOffset(file: string): Promise<number> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const reader = await conn.runAndReadAll(
    `SELECT data_page_offset FROM parquet_metadata($file) WHERE path_in_schema = 'title' LIMIT 1`,
    { file },
  );
  conn.closeSync();
  db.closeSync();
  return Number(reader.getRowsJS()[0]![0]);
}

async function openError(options: Parameters<typeof openEngine>[0]): Promise<DatasetError> {
  const error = await openEngine(options).then(
    (e) => {
      e.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DatasetError);
  return error as DatasetError;
}

describe('opening a dataset', () => {
  it('opens the bundled sample and lists organizations', async () => {
    const engine = await openEngine({ data: sampleDir });
    try {
      const orgs = await engine.listOrganizations();
      expect(orgs.length).toBe(4);
      for (const o of orgs) {
        expect(o.categories.length).toBeGreaterThan(0);
        expect(o.domains.length).toBeGreaterThan(0);
        expect(o.assets.some((a) => a.is_owned)).toBe(true);
      }
    } finally {
      engine.close();
    }
  });

  it('names the table of a missing file the engine cannot open without (the others are optional: test/optional-tables.test.ts)', async () => {
    const dir = await copySample('missing');
    await rm(join(dir, 'organizations.parquet'));
    const error = await openError({ data: dir });
    expect(error.message).toContain('missing table "organizations"');
    expect(error.message).toContain(join(dir, 'organizations.parquet'));
  });

  it('names the file and column of a missing column', async () => {
    const dir = await copySample('column');
    const file = join(dir, 'mentions', 'part-0002.parquet');
    await rewrite(file, `SELECT * EXCLUDE (position) FROM $src`);
    const error = await openError({ data: dir });
    expect(error.message).toContain(file);
    expect(error.message).toContain('missing column "position"');
    expect(error.column).toBe('position');
  });

  it('names the file, column and both types of a wrong type', async () => {
    const dir = await copySample('type');
    const file = join(dir, 'assets.parquet');
    await rewrite(file, `SELECT * REPLACE (CAST(is_owned AS VARCHAR) AS is_owned) FROM $src`);
    const error = await openError({ data: dir });
    expect(error.message).toBe(`${file}: column "is_owned" of table "assets" has type VARCHAR, expected BOOLEAN`);
  });

  it('names a corrupt file: a damaged footer at open, and with verify full a damaged page', async () => {
    const dir = await copySample('corrupt');
    const file = join(dir, 'regions.parquet');
    const size = (await stat(file)).size;
    const handle = await open(file, 'r+');
    await handle.truncate(size - 9);
    await handle.close();
    const error = await openError({ data: dir });
    expect(error.message).toContain(`cannot read ${file}`);
    expect(error.file).toBe(file);

    const dir2 = await copySample('corrupt-page');
    const page = join(dir2, 'citations', 'part-0001.parquet');
    const offset = await titlePageOffset(page);
    const h = await open(page, 'r+');
    await h.write(Buffer.alloc(512, 0xab), 0, 512, offset + 64);
    await h.close();
    const deep = await openError({ data: dir2, verify: 'full' });
    expect(deep.message).toContain(`cannot read ${page}`);
  });

  it('fails at open under verify full when a page was damaged so that it still decodes, against the hashes the generator recorded', async () => {
    const dir = await copySample('xor-page');
    const file = join(dir, 'citations', 'part-0001.parquet');
    const offset = await titlePageOffset(file);
    const h = await open(file, 'r+');
    const page = Buffer.alloc(286);
    await h.read(page, 0, 286, offset + 64);
    for (let i = 0; i < page.length; i++) page[i]! ^= 0x01;
    await h.write(page, 0, 286, offset + 64);
    await h.close();
    const error = await openError({ data: dir, verify: 'full' });
    expect(error.message).toBe(
      `cannot read ${file} (table "citations"): its content does not match the hash dataset.json records; the file is damaged or was replaced`,
    );
    expect(error.file).toBe(file);
    // Without the hashes the damaged page decodes to other values, and nothing at open can tell.
    const manifest = join(dir, 'dataset.json');
    const { files: _files, ...rest } = JSON.parse(await readFile(manifest, 'utf8')) as Record<string, unknown>;
    await writeFile(manifest, JSON.stringify(rest));
    await (await openEngine({ data: dir, verify: 'full' })).close();

    const extra = await copySample('extra-part');
    await cp(join(extra, 'citations', 'part-0001.parquet'), join(extra, 'citations', 'part-9999.parquet'));
    expect((await openError({ data: extra, verify: 'full' })).message).toContain(
      'part-9999.parquet is not recorded in dataset.json',
    );
    const missing = await copySample('missing-part');
    await rm(join(missing, 'citations', 'part-0001.parquet'));
    expect((await openError({ data: missing, verify: 'full' })).message).toContain(
      'part-0001.parquet is recorded in dataset.json but missing',
    );
  });

  it('fails at open under verify full when a table dataset.json records is missing, and always when its folder is a dangling link or a loop', async () => {
    const gone = await copySample('missing-table');
    await rm(join(gone, 'citations'), { recursive: true });
    const error = await openError({ data: gone, verify: 'full' });
    expect(error.message).toBe(
      `missing table "citations": dataset.json records 9 files of it (citations/part-0000.parquet), but neither ${join(gone, 'citations.parquet')} nor a folder ${join(gone, 'citations')}/ is there`,
    );
    const footer = await openEngine({ data: gone });
    expect(footer.core.missingTables.has('citations')).toBe(true);
    await footer.close();

    await symlink(join(gone, 'nowhere'), join(gone, 'citations'));
    for (const verify of ['footer', 'full'] as const) {
      expect((await openError({ data: gone, verify })).message).toBe(
        `table "citations": ${join(gone, 'citations')} is a symbolic link to nothing (dangling)`,
      );
    }
    await rm(join(gone, 'citations'));
    await symlink(join(gone, 'citations'), join(gone, 'citations'));
    expect((await openError({ data: gone, verify: 'full' })).message).toBe(
      `table "citations": ${join(gone, 'citations')} is a loop of symbolic links`,
    );
    await rm(gone, { recursive: true });
  });

  it('opens a dataset without recorded hashes (your own data) under verify full by reading every value', async () => {
    const dir = await copySample('no-hashes');
    const manifest = join(dir, 'dataset.json');
    const { files: _files, ...rest } = JSON.parse(await readFile(manifest, 'utf8')) as Record<string, unknown>;
    await writeFile(manifest, JSON.stringify(rest));
    const engine = await openEngine({ data: dir, verify: 'full' });
    expect(engine.organizations.length).toBe(4);
    await engine.close();
  });

  it('accepts a dataset folder whose path contains a quote', async () => {
    const dir = join(root, "it's here");
    await cp(sampleDir, dir, { recursive: true });
    const engine = await openEngine({ data: dir });
    expect(engine.organizations.length).toBe(4);
    engine.close();
  });
});
