import type { DuckDBConnection } from '@duckdb/node-api';
import type { Engine } from '../../src/library/engine.ts';
import type { BenchRequest, PeerSide, ReportCase } from './case.ts';
import type { BenchDataset } from './dataset.ts';
import { round, timed } from './measure.ts';
import type { RequestResult, RunOptions } from './request-run.ts';
import { runPage } from './run-page.ts';
import { runStream } from './run-stream.ts';
import { FloorDb } from '../floors/db.ts';
import { loadDims } from '../floors/dims.ts';
import { buildRollups, dropRollups, floorsOf } from '../floors/index.ts';

export type { RequestResult, RunOptions, StreamFigures } from './request-run.ts';

export interface ReportRun {
  readonly results: RequestResult[];
  /** Building the report's floor rollups, before timing. */
  readonly floorSetupMs: number;
}

/**
 * Runs every request of one report: its floor rollups built first, then warm-up, then engine, expert
 * floor, old floor and peers interleaved on fresh parameters.
 */
export async function runReport(
  engine: Engine,
  all: BenchDataset,
  rc: ReportCase,
  options: RunOptions,
  only?: (r: BenchRequest) => boolean,
): Promise<ReportRun> {
  const peersOf = (r: BenchRequest) => (options.peers ? (r.peers ?? []) : []);
  const conn = await engine.core.pool.instance.connect();
  const db = new FloorDb(conn);
  const expert = floorsOf(rc.report);
  const rollups = expert.rollups ?? [];
  const peers = new Map<string, { side: PeerSide & { close?(): void }; loadMs: number }>();
  try {
    const dataset = await withData(conn, all, rc);
    const { ms: floorSetupMs } = await timed(() => buildRollups(db, expert));
    if (rollups.length > 0) options.log(`  floor rollups built in ${floorSetupMs.toFixed(0)} ms`);
    const env = { db, dims: await loadDims(db) };
    const floors = expert.floors(dataset);
    const results: RequestResult[] = [];
    for (const request of rc.requests(dataset).filter(only ?? (() => true))) {
      const floor = floors[request.id];
      if (!floor) throw new Error(`no expert floor for ${rc.report} ${request.id} (bench/floors)`);
      for (const peer of peersOf(request)) {
        if (peers.has(peer.name)) continue;
        const { ms, value } = await timed(() => peer.open(dataset));
        peers.set(peer.name, { side: value, loadMs: round(ms, 1) });
        options.log(`  ${peer.name} opened in ${ms.toFixed(0)} ms`);
      }
      const run = { engine, conn, env, floor, dataset, rc, request: { ...request, peers: peersOf(request) }, options };
      const result = request.kind === 'page' ? await runPage(run, peers) : await runStream(run);
      options.log(summaryLine(result));
      results.push(result);
    }
    return { results, floorSetupMs: round(floorSetupMs, 1) };
  } finally {
    for (const { side } of peers.values()) side.close?.();
    await dropRollups(db, rollups);
    db.close();
    conn.closeSync();
  }
}

function summaryLine(r: RequestResult): string {
  const peers = Object.entries(r.peers)
    .map(([n, s]) => ` ${n} ${s.p50.toFixed(1)}`)
    .join('');
  const s = r.stream;
  const stream = s
    ? ` first row ${s.firstRowMs.p50.toFixed(1)} ms (floor ${s.floorFirstRowMs.p50.toFixed(1)}), ${Math.round(s.rowsPerSecond).toLocaleString('en-US')} rows/s (floor ${Math.round(s.floorRowsPerSecond).toLocaleString('en-US')}), rss +${s.rssGrowthMiB.toFixed(0)} MiB`
    : '';
  const old = r.oldFloor ? ` old floor ${r.oldFloor.p50.toFixed(1)}` : '';
  return `  ${r.report} ${r.id.padEnd(22)} engine ${r.engine.p50.toFixed(1)} floor ${r.floor.p50.toFixed(1)} ms (×${r.ratio.toFixed(2)})${old} plan ${r.plan.p50.toFixed(3)}${peers}${stream}`;
}

/** The dataset restricted to the categories that hold the report's data, when the report names them. */
async function withData(conn: DuckDBConnection, dataset: BenchDataset, rc: ReportCase): Promise<BenchDataset> {
  if (!rc.categories) return dataset;
  const ids = new Set((await conn.runAndReadAll(rc.categories)).getRowsJS().map((r) => String(r[0])));
  const categories = dataset.categories.filter((c) => ids.has(c.categoryId));
  return { ...dataset, categories: categories.length > 0 ? categories : dataset.categories };
}
