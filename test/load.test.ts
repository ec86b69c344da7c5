import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleDir } from '../src/generate/sample.ts';
import { runLoad, serve } from './load/load-core.ts';
import { tempDir } from './helpers/tmp.ts';

describe('load against aea serve (short; `npm run load` runs 64 clients for 60 s)', () => {
  it('holds 16 clients mixing reports, streams and disconnects: no 5xx, no leaked stream or connection, bounded memory', async () => {
    const state = join(await tempDir(), 'state.duckdb');
    const served = await serve(sampleDir, state);
    try {
      const r = await runLoad(served, { data: sampleDir, state, clients: 16, seconds: 6, maxRequests: 400 });
      expect(r.errors).toEqual([]);
      expect(Object.keys(r.byStatus).filter((s) => Number(s) >= 500)).toEqual([]);
      expect(r.byStatus['200']).toBeGreaterThan(10);
      expect(r.byStatus['422']).toBeGreaterThan(0);
      expect(r.disconnects).toBeGreaterThan(0);
      expect(r.health).toMatchObject({ active_streams: 0, busy_connections: 0 });
      expect(r.rssPeakMiB).toBeLessThan(r.rssStartMiB + 1024);
    } finally {
      await served.stop();
    }
  }, 120_000);
});
