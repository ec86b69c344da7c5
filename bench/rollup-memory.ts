import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openEngine } from '../src/open-engine.ts';
import { rollupCatalog } from '../src/reports/rollup-catalog.ts';

/**
 * What every rollup of every category and organization costs in memory: builds them all from the facts
 * (a fresh state, no store), one rollup at a time, then prints each one's build time, DuckDB's memory
 * by tag (`duckdb_memory()`: rollup rows are IN_MEMORY_TABLE) and the process's RSS.
 *
 *   node --expose-gc --import tsx bench/rollup-memory.ts --data bench/data/scale-10 [--only platform_daily]
 */
const { values } = parseArgs({ options: { data: { type: 'string' }, only: { type: 'string', multiple: true } } });
if (!values.data) throw new Error('--data DIR is required');
const dir = mkdtempSync(join(tmpdir(), 'aea-rollup-memory-'));
try {
  const engine = await openEngine({
    data: values.data,
    state: join(dir, 'state.duckdb'),
    rollupStore: false,
    resultCache: 0,
    restoreRollups: false,
  });
  const conn = await engine.core.pool.instance.connect();
  const ids = async (table: string) =>
    (await conn.runAndReadAll(`SELECT id FROM ${table} ORDER BY id`)).getRowsJS().map((r) => String(r[0]));
  const scopes = { category: await ids('categories'), organization: await ids('organizations') };
  for (const def of rollupCatalog) {
    if (values.only && !values.only.includes(def.name)) continue;
    const started = performance.now();
    await engine.core.rollups.warm(def, scopes[def.scope.kind]);
    console.log(`${def.name}: built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  globalThis.gc?.();
  const memory = (
    await conn.runAndReadAll(`SELECT tag, memory_usage_bytes FROM duckdb_memory() WHERE memory_usage_bytes > 0`)
  )
    .getRowsJS()
    .map(([tag, bytes]) => `${String(tag)} ${(Number(bytes) / 2 ** 20).toFixed(0)} MiB`);
  console.log(`DuckDB memory: ${memory.join(', ')}`);
  console.log(`RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
  conn.closeSync();
  await engine.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
