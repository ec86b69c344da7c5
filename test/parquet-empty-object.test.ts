import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { openEngine } from '../src/open-engine.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';
import { tempDir } from './helpers/tmp.ts';

/**
 * Found by `npm run fuzz` once it asked for formats: a v1 report without dimensions has rows whose `dimensions`
 * is an empty object, which Parquet (no empty group) and DuckDB (no `STRUCT()`) cannot hold; the export was a 500.
 */
let engine: Engine;
let server: TestServer;
let key: string;
let org: Awaited<ReturnType<Engine['listOrganizations']>>[number];
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  org = (await engine.listOrganizations())[0]!;
  server = await startServer(engine, { rateLimit: false });
  key = await server.key(org.id);
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
});

async function parquetColumns(bytes: Buffer): Promise<{ names: string[]; rows: number }> {
  const file = join(await tempDir(), 'answer.parquet');
  await writeFile(file, bytes);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const reader = await conn.runAndReadAll(`SELECT * FROM read_parquet('${file}')`);
    return { names: reader.columnNames(), rows: reader.currentRowCount };
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

describe('Parquet export of rows holding an empty object', () => {
  it('answers 200 with the empty object left out of the file', async () => {
    const window = { category_id: org.categories[0]!.id, start_date: '2026-03-01', end_date: '2026-03-31' };
    const cases: [string, object, string[]][] = [
      [
        '/v1/reports/citations/stream',
        { ...window, order_by: {}, metrics: ['share_of_voice', 'citation_share'] },
        ['metrics'],
      ],
      [
        '/v1/reports/visibility?compare=previous_period&components=true',
        { ...window, date_interval: 'hour', metrics: ['executions'] },
        ['metrics'],
      ],
      [
        '/v2/reports/bots?compare=previous_year',
        { domain: org.domains[0]!.name, metrics: ['last_visit'], start_date: '2026-03-01' },
        ['metrics'],
      ],
    ];
    for (const [path, body, expected] of cases) {
      const url = `${server.url}${path}${path.includes('?') ? '&' : '?'}format=parquet`;
      const r = await post(url, body, { 'x-api-key': key });
      expect(r.status, path).toBe(200);
      const { names } = await parquetColumns(Buffer.from(await r.arrayBuffer()));
      expect(names, path).toEqual(expect.arrayContaining(expected));
      expect(names, path).not.toContain('dimensions');
    }
  });
});
