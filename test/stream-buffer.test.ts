import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { streamBufferRows } from '../src/limits.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { openEngine } from '../src/open-engine.ts';
import { startServer, type TestServer } from './helpers/server.ts';

/** DuckDB hands over rows a chunk (a vector) at a time; a stream holds at most one. */
const chunkRows = 2048;

let engine: Engine;
let server: TestServer;
let key: string;
let orgId: string;
let categoryId: string;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  const [org] = await engine.listOrganizations();
  orgId = org!.id;
  categoryId = org!.categories[0]!.id;
  server = await startServer(engine);
  key = await server.key(orgId);
});
afterAll(async () => {
  await server.close();
  await engine.close();
});

const big = () =>
  ({
    category_id: categoryId,
    start_date: '2025-10-01',
    end_date: '2026-11-15',
    scope: 'all',
    group_by: ['prompt', 'date'],
  }) as const;
const buffered = () => engine.core.stats.bufferedRows;

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await sleep(10);
  }
}

describe('a stream holds a fixed buffer, whatever the result and however slow the reader', () => {
  it('a library iterator that pauses holds at most one chunk of rows, all the way through a result many times larger', async () => {
    expect(chunkRows).toBeLessThanOrEqual(streamBufferRows);
    let rows = 0;
    let most = 0;
    for await (const e of engine.org(orgId).reports.visibilityStream(big())) {
      if (e.event !== 'result') continue;
      rows++;
      most = Math.max(most, buffered());
      if (rows % 5_000 === 1) {
        await sleep(50);
        most = Math.max(most, buffered());
        expect(buffered()).toBeGreaterThan(0);
        expect(buffered()).toBeLessThanOrEqual(chunkRows);
      }
    }
    expect(rows).toBeGreaterThan(10 * chunkRows);
    expect(most).toBeLessThanOrEqual(chunkRows);
    expect(buffered()).toBe(0);
    expect(engine.core.stats.activeStreams).toBe(0);
  });

  it('an HTTP reader that stops reading holds the server at one chunk, and disconnecting frees it', async () => {
    let received = 0;
    const req = httpRequest(
      `${server.url}/v2/reports/visibility/stream`,
      { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' } },
      (res) => {
        res.on('data', (c: Buffer) => {
          received += c.length;
          res.pause();
        });
      },
    );
    req.on('error', () => undefined);
    req.end(JSON.stringify(big()));
    await waitFor(() => received > 0 && engine.core.stats.activeStreams === 1 && buffered() > 0);
    // The server fills the socket's buffers before it stalls: let it reach the chunk it then holds.
    await sleep(500);
    const held = buffered();
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(chunkRows);
    await sleep(300);
    expect(buffered()).toBe(held);
    req.destroy();
    await waitFor(() => engine.core.stats.activeStreams === 0 && buffered() === 0);
  });
});
