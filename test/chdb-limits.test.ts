import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { chdbRetainedBytes, memorySettings, runningStatements } from '../src/engine/chdb-session.ts';
import { dataUnavailable } from '../src/engine/database-errors.ts';
import { embeddedShares, planMemory } from '../src/engine/memory-budget.ts';
import { defaultMaxStreams } from '../src/limits.ts';
import { UnavailableError } from '../src/errors.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { sql } from '../src/query/sql.ts';

/** chdb, ClickHouse embedded in this process: the memory budget applies to its statements, and an abandoned statement is killed. */
let engine: Engine;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, backend: 'chdb', memoryLimit: '256MiB', resultCache: 0 });
});
afterAll(() => engine.close());

describe('chdb and the process budget', () => {
  it('gives chdb three quarters of the database share (DuckDB at least 64 MiB) and refuses a statement past it with a 503', async () => {
    const plan = planMemory('256MiB', defaultMaxStreams, 0);
    const shares = embeddedShares(plan);
    expect(plan.database).toBe(192 * 2 ** 20);
    expect(shares).toEqual({ duckdb: 64 * 2 ** 20, chdb: 128 * 2 ** 20 });
    expect(embeddedShares(planMemory('4GiB', defaultMaxStreams, 0))).toEqual({
      duckdb: 1008 * 2 ** 20,
      chdb: 3024 * 2 ** 20,
    });
    // The result cache's default (an eighth of the budget, up to 64 MiB) comes out of the database share first.
    expect(embeddedShares(planMemory('256MiB', defaultMaxStreams))).toEqual({
      duckdb: 64 * 2 ** 20,
      chdb: 96 * 2 ** 20,
    });
    // About 400 MB of array: past the 128 MiB chdb gets of a 256 MiB budget.
    const error = await engine.core.backend
      .read(sql`SELECT length(groupArray(number)) AS n FROM numbers(${50_000_000})`)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as Error).message).toMatch(/MEMORY_LIMIT_EXCEEDED/);
    expect(dataUnavailable(error)).toBeInstanceOf(UnavailableError);
    const small = await engine.core.backend.read(sql`SELECT count() AS n FROM numbers(${1000})`);
    expect(Number(small.columns.n![0])).toBe(1000);
  });

  it("joins with ClickHouse's plain hash join and spills a group-by past a third of its share, instead of failing", async () => {
    // Every statement runs with the engine's memory settings: the 128 MiB share, the plain hash join, spills at a third.
    const settings = await engine.core.backend.read(
      sql`SELECT getSetting('max_memory_usage') AS m, getSetting('join_algorithm') AS j, getSetting('max_bytes_before_external_group_by') AS g, getSetting('max_temporary_data_on_disk_size_for_query') AS d`,
    );
    expect(
      [settings.columns.m![0], settings.columns.j![0], settings.columns.g![0], settings.columns.d![0]].map(String),
    ).toEqual([String(128 * 2 ** 20), 'hash', String(Math.floor((128 * 2 ** 20) / 3)), String(2 ** 30)]);
    const joined = await engine.core.backend.read(
      sql`SELECT count() AS n, sum(length(b.s)) AS l FROM numbers(${1_500_000}) a
          LEFT JOIN (SELECT number AS k, toString(number) AS s FROM numbers(${1_500_000})) b ON a.number = b.k`,
    );
    expect([Number(joined.columns.n![0]), Number(joined.columns.l![0])]).toEqual([1_500_000, 9_388_890]);
    // Six million groups of text keys passed the share in memory; now they spill (the suite's TMPDIR check sees the spill removed).
    const grouped = await engine.core.backend.read(
      sql`SELECT count() AS n, sum(c) AS c FROM (SELECT toString(number) AS k, count() AS c FROM numbers(${6_000_000}) GROUP BY k)`,
    );
    expect([Number(grouped.columns.n![0]), Number(grouped.columns.c![0])]).toEqual([6_000_000, 6_000_000]);
    expect(memorySettings(3 * 2 ** 20)).toContain(
      "join_algorithm = 'hash', max_bytes_before_external_group_by = 1048576",
    );
    // The session is shared: a user without a budget sets every one of them back.
    expect(memorySettings(0)).toBe(
      "max_memory_usage = 0, join_algorithm = 'default', max_bytes_before_external_group_by = 0, max_bytes_before_external_sort = 0, max_temporary_data_on_disk_size_for_query = 0",
    );
  });

  it('kills a statement whose signal aborts (its client left): it rejects with the reason and is no longer running', async () => {
    await engine.core.backend.read(sql`SELECT 1 AS warm`);
    const controller = new AbortController();
    const reason = new Error('client left');
    // Minutes of hashing on two cores when left to run.
    const running = engine.core.backend.read(
      sql`SELECT sum(cityHash64(number)) AS s FROM numbers(${30_000_000_000})`,
      controller.signal,
    );
    while ((await runningStatements()) === 0) await new Promise((r) => setTimeout(r, 20));
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(await runningStatements()).toBe(0);
    const after = await engine.core.backend.read(sql`SELECT count() AS n FROM numbers(${10})`);
    expect(Number(after.columns.n![0])).toBe(10);
  });

  it('never starts a statement whose signal aborted while it waited its turn', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(engine.core.backend.read(sql`SELECT 1 AS x`, controller.signal)).rejects.toThrow('gone');
  });

  it("hands back what a large statement's allocator kept before the next statement runs", async () => {
    const roomy = await openEngine({ data: sampleDir, backend: 'chdb', memoryLimit: '1GB', resultCache: 0 });
    try {
      const before = process.memoryUsage.rss();
      // About 240 MB of array, under this engine's chdb share: without the purge the process stayed about 720 MiB up.
      await roomy.core.backend.read(sql`SELECT length(groupArray(number)) AS n FROM numbers(${30_000_000})`);
      await roomy.core.backend.read(sql`SELECT 1 AS one`);
      expect(process.memoryUsage.rss() - before).toBeLessThan(chdbRetainedBytes);
    } finally {
      await roomy.close();
    }
  });
});
