import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { aeaInProcess } from './helpers/cli.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';
import { tempDir } from './helpers/tmp.ts';

let root: string;
beforeAll(async () => {
  root = await tempDir();
});

describe('faults', () => {
  it('refuses to serve a dataset with a missing or corrupt file, naming it', async () => {
    const dir = join(root, 'broken');
    await cp(sampleDir, dir, { recursive: true });
    await writeFile(join(dir, 'assets.parquet'), 'not parquet at all');
    const out = await aeaInProcess([
      'serve',
      '--data',
      dir,
      '--port',
      '0',
      '--state',
      join(root, 'broken.state.duckdb'),
    ]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`cannot read ${join(dir, 'assets.parquet')}`);
  });

  it('refuses to start on a state store it cannot open, with a clear error', async () => {
    const blocked = join(root, 'state-is-a-folder.duckdb');
    await mkdir(blocked);
    const out = await aeaInProcess(['serve', '--data', sampleDir, '--port', '0', '--state', blocked]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`cannot open the state store ${blocked}`);
  });

  describe('a Parquet file replaced while serving', () => {
    let engine: Engine;
    let server: TestServer;
    let key: string;
    let body: Record<string, unknown>;
    const dir = () => join(root, 'live');
    beforeAll(async () => {
      await cp(sampleDir, dir(), { recursive: true });
      // Rollups off: one built after the first answer would answer without reading the damaged file.
      // No result cache: a file damaged while the engine is open keeps the dataset's identity, and the point is to read it.
      engine = await openEngine({ data: dir(), rollups: false, resultCache: 0 });
      const [org] = await engine.listOrganizations();
      body = { category_id: org!.categories[0]!.id, start_date: '2026-01-01', end_date: '2026-01-31' };
      server = await startServer(engine);
      key = await server.key(org!.id);
    });
    afterAll(async () => {
      await server.close();
      engine.close();
    });

    it('answers 503 while the file is damaged, without naming server paths, and recovers when it is whole', async () => {
      const file = join(dir(), 'mentions', 'part-0001.parquet');
      const good = await readFile(file);
      expect((await post(`${server.url}/v2/reports/visibility`, body, { 'x-api-key': key })).status).toBe(200);
      await writeFile(file, Buffer.alloc(4096, 7));
      const broken = await post(`${server.url}/v2/reports/visibility`, body, { 'x-api-key': key });
      expect(broken.status).toBe(503);
      expect(broken.headers.get('retry-after')).toBe('30');
      const json = (await broken.json()) as { detail: string; code: string };
      expect(json.code).toBe('unavailable');
      expect(json.detail).not.toContain(root);
      await writeFile(file, good);
      expect((await post(`${server.url}/v2/reports/visibility`, body, { 'x-api-key': key })).status).toBe(200);
    });
  });
});
