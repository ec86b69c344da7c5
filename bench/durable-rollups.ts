// Durable rollups at scale (issue 27). Two steps, each its own process:
//   node --import tsx bench/durable-rollups.ts restart --data DIR
//     opens the engine over a dataset whose rollups `aea rollups build` stored, and times a 30-day
//     visibility page every 50 ms from the moment openEngine returns until one is answered from the rollup.
//   node --import tsx bench/durable-rollups.ts next-day --data DIR --out NEW
//     writes the dataset's last day of every fact table, moved a day later, laid out for `aea append --from NEW`
//     (ids repeat: a stand-in for a new day's rows of the same size, for timing the refresh).
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { DuckDBInstance } from '../src/engine/duckdb-api.ts';
import { findTableFiles } from '../src/engine/dataset.ts';
import { pathListLiteral, pathLiteral } from '../src/engine/literal.ts';
import { tableNames, tables } from '../src/model/tables.ts';
import { openEngine } from '../src/open-engine.ts';
import { visibilityDaily } from '../src/reports/insights/visibility-rollup.ts';

const { values, positionals } = parseArgs({
  options: { data: { type: 'string' }, out: { type: 'string' } },
  allowPositionals: true,
});
const data = values.data!;
const load = () => loadavg()[0]!.toFixed(2);

async function restart(): Promise<void> {
  const loadBefore = load();
  const opening = performance.now();
  const engine = await openEngine({ data, state: `${data.replace(/\/+$/, '')}.state.duckdb`, resultCache: 0 });
  const opened = performance.now();
  try {
    const [org] = await engine.listOrganizations();
    const category = org!.categories[0]!.id;
    const body = { category_id: org!.categories[0]!.id, start_date: '2026-10-01', end_date: '2026-10-30', limit: 10 };
    const scope = engine.org(org!.id);
    const runs: { at: number; ms: number; rollup: boolean }[] = [];
    for (;;) {
      const rollup = engine.core.rollups.isCurrent(visibilityDaily, category);
      const started = performance.now();
      await scope.call('POST', '/v2/reports/visibility', { body });
      runs.push({ at: started - opened, ms: performance.now() - started, rollup });
      if (rollup) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const first = runs.at(-1)!;
    const fromRollup: number[] = [];
    for (let i = 0; i < 15; i++) {
      const started = performance.now();
      await scope.call('POST', '/v2/reports/visibility', { body });
      fromRollup.push(performance.now() - started);
    }
    await engine.core.rollups.restored();
    const restoredAt = performance.now() - opened;
    fromRollup.sort((a, b) => a - b);
    console.log(
      JSON.stringify(
        {
          openEngineMs: Math.round(opened - opening),
          firstRollupAnswerAfterOpenMs: Math.round(first.at + first.ms),
          requestsBeforeIt: runs.length - 1,
          factsAnswersMs: runs.slice(0, -1).map((r) => Math.round(r.ms)),
          rollupAnswerP50Ms: Math.round(fromRollup[7]!),
          everyStoredRollupReadAfterOpenMs: Math.round(restoredAt),
          counts: engine.core.rollups.counts,
          load: { before: loadBefore, after: load() },
        },
        null,
        2,
      ),
    );
  } finally {
    await engine.close();
  }
}

async function nextDay(): Promise<void> {
  const out = values.out!;
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await instance.connect();
  try {
    await conn.run(`SET TimeZone = 'UTC'`);
    const last = String(
      (
        await conn.runAndReadAll(
          `SELECT max(day)::VARCHAR FROM read_parquet(${pathListLiteral(findTableFiles(data, 'executions')!)})`,
        )
      ).getRowsJS()[0]![0],
    );
    for (const table of tableNames.filter((t) =>
      (tables[t].sort as readonly string[]).some((c) => c === 'executed_at' || c === 'ts'),
    )) {
      const files = findTableFiles(data, table);
      if (!files) continue;
      const source = `read_parquet(${pathListLiteral(files)})`;
      const columns = (await conn.runAndReadAll(`SELECT column_name FROM (DESCRIBE SELECT * FROM ${source})`))
        .getRowsJS()
        .map((r) => String(r[0]));
      const shifted = [
        columns.includes('day') ? `day + 1 AS day` : '',
        columns.includes('executed_at') ? `executed_at + INTERVAL 1 DAY AS executed_at` : '',
        columns.includes('ts') ? `ts + INTERVAL 1 DAY AS ts` : '',
      ].filter(Boolean);
      const where = columns.includes('day') ? `day = DATE '${last}'` : `CAST(ts AS DATE) = DATE '${last}'`;
      mkdirSync(join(out, table), { recursive: true });
      const written = await conn.run(
        `COPY (SELECT * REPLACE (${shifted.join(', ')}) FROM ${source} WHERE ${where}) TO ${pathLiteral(join(out, table, 'part-0000.parquet'))} (FORMAT parquet, COMPRESSION zstd)`,
      );
      console.log(`${table}: ${written.rowsChanged} rows of ${last}, moved a day later`);
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

if (positionals[0] === 'restart') await restart();
else if (positionals[0] === 'next-day') await nextDay();
else throw new Error('bench/durable-rollups.ts restart|next-day --data DIR [--out NEW]');
