import type { DuckDBConnection } from '@duckdb/node-api';
import type { Engine } from '../../src/engine/engine.ts';
import type { BenchRequest, PeerSide, ReportCase } from './case.ts';
import type { BenchDataset } from './dataset.ts';
import { round, timed } from './measure.ts';
import type { RequestResult, RunOptions } from './request-run.ts';
import { runPage } from './run-page.ts';
import { runStream } from './run-stream.ts';

export type { RequestResult, RunOptions, StreamFigures } from './request-run.ts';

/** Runs every request of one report: warm-up, then engine, floor and peers interleaved on fresh parameters. */
export async function runReport(engine: Engine, all: BenchDataset, rc: ReportCase, options: RunOptions, only?: (r: BenchRequest) => boolean): Promise<RequestResult[]> {
  const peersOf = (r: BenchRequest) => (options.peers ? (r.peers ?? []) : []);
  const conn = await engine.core.pool.instance.connect();
  const peers = new Map<string, { side: PeerSide & { close?(): void }; loadMs: number }>();
  try {
    const dataset = await withData(conn, all, rc);
    const results: RequestResult[] = [];
    for (const request of rc.requests(dataset).filter(only ?? (() => true))) {
      for (const peer of peersOf(request)) {
        if (peers.has(peer.name)) continue;
        const { ms, value } = await timed(() => peer.open(dataset));
        peers.set(peer.name, { side: value, loadMs: round(ms, 1) });
        options.log(`  ${peer.name} opened in ${ms.toFixed(0)} ms`);
      }
      const run = { engine, conn, dataset, rc, request: { ...request, peers: peersOf(request) }, options };
      const result = request.kind === 'page' ? await runPage(run, peers) : await runStream(run);
      options.log(summaryLine(result));
      results.push(result);
    }
    return results;
  } finally {
    for (const { side } of peers.values()) side.close?.();
    conn.closeSync();
  }
}

function summaryLine(r: RequestResult): string {
  const peers = Object.entries(r.peers).map(([n, s]) => ` ${n} ${s.p50.toFixed(1)}`).join('');
  const stream = r.stream ? ` first ${r.stream.firstEventMs.p50.toFixed(1)} ms, ${Math.round(r.stream.rowsPerSecond).toLocaleString('en-US')} rows/s, rss +${r.stream.rssGrowthMiB.toFixed(0)} MiB` : '';
  return `  ${r.report} ${r.id.padEnd(22)} engine ${r.engine.p50.toFixed(1)} floor ${r.floor.p50.toFixed(1)} ms (×${r.ratio.toFixed(2)}) plan ${r.plan.p50.toFixed(3)}${peers}${stream}`;
}

/** The dataset restricted to the categories that hold the report's data, when the report names them. */
async function withData(conn: DuckDBConnection, dataset: BenchDataset, rc: ReportCase): Promise<BenchDataset> {
  if (!rc.categories) return dataset;
  const ids = new Set((await conn.runAndReadAll(rc.categories)).getRowsJS().map((r) => String(r[0])));
  const categories = dataset.categories.filter((c) => ids.has(c.categoryId));
  return { ...dataset, categories: categories.length > 0 ? categories : dataset.categories };
}
