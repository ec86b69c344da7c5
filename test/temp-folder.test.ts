import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DuckDBPool } from '../src/engine/duckdb-pool.ts';
import { removeTemp, tempFolder, tempPrefix } from '../src/engine/temp-paths.ts';

describe('a temporary folder', () => {
  it('is registered for removal on a signal before it exists, so a signal in between cannot leave it', async () => {
    const before = process.listenerCount('SIGINT');
    const pending = tempFolder('race');
    // Nothing was registered before this call in this file's process: the call installed the handler at once.
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    const dir = await pending;
    expect(basename(dir).startsWith(tempPrefix('race'))).toBe(true);
    expect(existsSync(dir)).toBe(true);
    await removeTemp(dir);
    expect(existsSync(dir)).toBe(false);
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});

describe("an engine's DuckDB spill", () => {
  const spills = () => readdirSync(tmpdir()).filter((n) => n.startsWith(tempPrefix('spill')));

  it('goes to a registered folder of the temp directory, made only when a statement spills and removed at close', async () => {
    const cwdHadTmp = existsSync('.tmp');
    const known = new Set(spills());
    const pool = await DuckDBPool.create({ memoryLimit: '64MiB', threads: 1 });
    expect(spills().filter((n) => !known.has(n))).toEqual([]);
    const distinct = await pool.use(async (c) =>
      Number(
        (
          await c.runAndReadAll(
            `SELECT count(DISTINCT b) FROM (SELECT repeat('x', 50) || i::VARCHAR AS b FROM range(4000000) t(i))`,
          )
        ).getRows()[0]![0],
      ),
    );
    expect(distinct).toBe(4_000_000);
    expect(spills().filter((n) => !known.has(n))).toHaveLength(1);
    await pool.close();
    expect(spills().filter((n) => !known.has(n))).toEqual([]);
    expect(existsSync('.tmp')).toBe(cwdHadTmp);
  });
});
