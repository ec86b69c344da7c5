import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { TempDisk } from '../src/engine/temp-disk.ts';
import { ExportTooLargeError, TempDiskBusyError } from '../src/errors.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';

/**
 * An answer sent piece by piece (a stream, a table format) answers a failure before its first piece with
 * that failure's status, not a 200 and a cut connection: a first-row budget run out, an export past its
 * temporary disk.
 */

const engines: Engine[] = [];
const servers: TestServer[] = [];
let org: string;
let category: string;

async function serving(options: Parameters<typeof openEngine>[0], server: Parameters<typeof startServer>[1] = {}) {
  const engine = await openEngine({ data: sampleDir, threads: 1, connections: 2, ...options });
  engines.push(engine);
  const s = await startServer(engine, { rateLimit: false, ...server });
  servers.push(s);
  return { engine, url: s.url, key: await s.key(org) };
}

beforeAll(async () => {
  const engine = await openEngine({ data: sampleDir, threads: 1, connections: 1 });
  const [first] = await engine.listOrganizations();
  org = first!.id;
  category = first!.categories[0]!.id;
  await engine.close();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const e of engines) await e.close();
});

const big = () => ({
  category_id: category,
  start_date: '2025-10-01',
  end_date: '2026-11-15',
  scope: 'all',
  group_by: ['prompt', 'date'],
});
const stream = '/v2/reports/visibility/stream';

describe('the first piece of a streamed answer', () => {
  it('a stream past its first-row budget is a 503 time_budget_exceeded, in every format, and frees its stream', async () => {
    const { engine, url, key } = await serving({}, { streams: { firstRowSeconds: 0.001 } });
    for (const accept of ['text/event-stream', 'application/x-ndjson', 'application/vnd.apache.parquet']) {
      const r = await post(`${url}${stream}`, big(), { 'x-api-key': key, accept });
      expect(r.status, accept).toBe(503);
      expect(r.headers.get('x-should-retry')).toBe('false');
      expect(await r.json()).toMatchObject({ code: 'time_budget_exceeded' });
    }
    expect(engine.core.stats.activeStreams).toBe(0);
    expect(engine.core.pool.active).toBe(0);
  });

  it('without a budget run out, the same stream is a 200 with every row', async () => {
    const { url, key } = await serving({});
    const r = await post(
      `${url}${stream}`,
      { ...big(), max_results: 10 },
      { 'x-api-key': key, accept: 'application/x-ndjson' },
    );
    expect(r.status).toBe(200);
    expect((await r.text()).trim().split('\n')).toHaveLength(10);
  });

  it('a Parquet export past its temporary disk is a 413 export_too_large; past the process’s, a 503 temp_disk_busy', async () => {
    const small = await serving({ exportTempLimit: '64KiB' });
    const r = await post(`${small.url}${stream}`, big(), {
      'x-api-key': small.key,
      accept: 'application/vnd.apache.parquet',
    });
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({ code: 'export_too_large' });
    const busy = await serving({ tempLimit: '64KiB' });
    const b = await post(`${busy.url}${stream}`, big(), {
      'x-api-key': busy.key,
      accept: 'application/vnd.apache.parquet',
    });
    expect(b.status).toBe(503);
    expect(b.headers.get('retry-after')).toBe('5');
    expect(await b.json()).toMatchObject({ code: 'temp_disk_busy' });
    for (const e of [small.engine, busy.engine]) expect(e.core.tempDisk.used).toBe(0);
    const fine = await post(
      `${small.url}${stream}`,
      { ...big(), max_results: 10 },
      { 'x-api-key': small.key, accept: 'application/vnd.apache.parquet' },
    );
    expect(fine.status).toBe(200);
    expect(
      Buffer.from(await fine.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('PAR1');
  });
});

describe('TempDisk', () => {
  it('takes exactly its bounds, and refuses one byte past either', () => {
    const disk = new TempDisk(100, 150);
    const a = disk.account();
    a.take(100);
    expect(() => a.take(1)).toThrow(ExportTooLargeError);
    const b = disk.account();
    b.take(50);
    expect(disk.used).toBe(150);
    expect(() => b.take(1)).toThrow(TempDiskBusyError);
    a.release();
    b.take(50);
    expect(disk.used).toBe(100);
    b.release();
    expect(disk.used).toBe(0);
  });
});
