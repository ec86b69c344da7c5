import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DimensionCache } from '../src/engine/dimension-cache.ts';
import type { Engine } from '../src/library/engine.ts';
import { dimensionCacheBytes } from '../src/limits.ts';
import { sql, type Fragment } from '../src/query/sql.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids, insightsFixture } from './fixtures/insights.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(insightsFixture());
});
afterAll(() => engine.close());

const assets = { table: 'assets', columns: ['name', 'is_owned'], scope: 'category' } as const;

/** The engine's backend, counting the statements it runs. */
function counted() {
  let reads = 0;
  const backend = {
    read: (q: Fragment, signal?: AbortSignal) => {
      reads++;
      return engine.core.backend.read(q, signal);
    },
  };
  return { backend, reads: () => reads };
}

describe('the dimension cache', () => {
  it('keeps its entries while the agent runner finds no queued run (its empty claim changes nothing)', async () => {
    await engine.runsSettled();
    const generation = engine.core.state.generation;
    engine.core.runner.notify();
    await engine.runsSettled();
    expect(engine.core.state.generation).toBe(generation);
  });

  it('reads a table once until the state store commits an edit', async () => {
    const { backend, reads } = counted();
    const cache = new DimensionCache(backend, () => engine.core.state.generation);
    const first = await cache.rows(assets, ids.cat1);
    expect(first.ids.length).toBeGreaterThan(0);
    expect(first.ids.every((id, i) => first.rowOf.get(id) === i)).toBe(true);
    await cache.rows(assets, ids.cat1);
    expect(reads()).toBe(1);
    await engine.org(ids.org1).call('PATCH', `/v1/org/categories/${ids.cat1}/prompts`, {
      body: { prompts: [{ id: ids.prompts[0], prompt: 'An edit moves the generation on' }] },
    });
    const prompts = await cache.rows({ table: 'prompts', columns: ['prompt'], scope: 'category' }, ids.cat1);
    expect(prompts.columns.prompt![prompts.rowOf.get(ids.prompts[0]!)!]).toBe('An edit moves the generation on');
    await cache.rows(assets, ids.cat1);
    expect(reads()).toBe(3);
  });

  it('holds at most dimensionCacheBytes: a table at the bound is kept, one past it is read but not kept', async () => {
    // One row costs 16 + 2 per character of each string: id 'x' 18, the name 16 + 2 × its length.
    const atBound = (dimensionCacheBytes - 18 - 16) / 2;
    await engine.core.pool.use((conn) =>
      conn.run(
        `CREATE TABLE dims_at_bound AS SELECT 'x' AS id, repeat('y', ${atBound}) AS name;
         CREATE TABLE dims_past_bound AS SELECT 'x' AS id, repeat('y', ${atBound + 1}) AS name`,
      ),
    );
    const { backend, reads } = counted();
    const cache = new DimensionCache(backend, () => engine.core.state.generation);
    const spec = (table: string) => ({ table, columns: ['name'], scope: 'global' }) as const;
    expect((await cache.rows(spec('dims_at_bound'), null)).columns.name![0]).toHaveLength(atBound);
    expect(cache.heldBytes).toBe(dimensionCacheBytes);
    await cache.rows(spec('dims_at_bound'), null);
    expect(reads()).toBe(1);
    expect((await cache.rows(spec('dims_past_bound'), null)).columns.name![0]).toHaveLength(atBound + 1);
    expect(cache.heldBytes).toBe(dimensionCacheBytes);
    await cache.rows(spec('dims_past_bound'), null);
    expect(reads()).toBe(3);
    await cache.rows(assets, ids.cat1);
    expect(cache.heldBytes).toBeLessThan(dimensionCacheBytes);
    await cache.rows(spec('dims_at_bound'), null);
    expect(reads()).toBe(5);
  });
});

describe('a lean page’s statements', () => {
  it('read one snapshot: a row another connection commits meanwhile is not seen', async () => {
    await engine.core.pool.use((conn) => conn.run('CREATE TABLE snapshot_probe AS SELECT 1 AS n'));
    const counts = await engine.core.backend.together!(async (read) => {
      const before = await read(sql`SELECT count(*) AS c FROM snapshot_probe`);
      await engine.core.pool.use((conn) => conn.run('INSERT INTO snapshot_probe VALUES (2)'), 'light');
      const after = await read(sql`SELECT count(*) AS c FROM snapshot_probe`);
      return [before.columns.c![0], after.columns.c![0]].map(Number);
    });
    expect(counts).toEqual([1, 1]);
    expect(Number((await engine.core.backend.read(sql`SELECT count(*) AS c FROM snapshot_probe`)).columns.c![0])).toBe(
      2,
    );
  });
});
