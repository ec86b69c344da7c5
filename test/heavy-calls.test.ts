import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleDir } from '../src/generate/sample.ts';
import type { Engine } from '../src/library/engine.ts';
import { defaultHeavyConnections } from '../src/limits.ts';
import { openEngine } from '../src/open-engine.ts';
import { sql } from '../src/query/sql.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, rollups: false });
});
afterAll(async () => {
  await engine.close();
});

describe('heavy DuckDB calls, streams included, leave libuv threads for light work', () => {
  it("counts a stream's statements against the heavy bound, and light work passes them while they wait", async () => {
    const { pool, backend } = engine.core;
    const gate = pool.heavyCalls;
    expect(gate.max).toBe(defaultHeavyConnections);
    const holders: (() => void)[] = [];
    const held = Array.from({ length: gate.max }, () =>
      pool.use(() => new Promise<void>((release) => holders.push(release))),
    );
    while (holders.length < gate.max) await new Promise((r) => setImmediate(r));
    expect(gate.inUse).toBe(gate.max);

    const streamed = (async () => {
      const snapshot = await backend.snapshot();
      let rows = 0;
      for await (const batch of snapshot.batches(sql`SELECT * FROM range(5000)`)) rows += batch.length;
      await snapshot.close(true);
      return rows;
    })();
    while (gate.queued === 0) await new Promise((r) => setImmediate(r));

    const light = await pool.use(async (conn) => (await conn.runAndReadAll('SELECT 42 AS x')).getRowsJS(), 'light');
    expect(light).toEqual([[42]]);
    expect(gate.queued).toBe(1);

    for (const release of holders) release();
    await Promise.all(held);
    expect(await streamed).toBe(5000);
    expect([gate.inUse, gate.queued]).toEqual([0, 0]);
  });
});
