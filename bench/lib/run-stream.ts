import { JSDuckDBValueConverter } from '@duckdb/node-api';
import { sseText } from '../../src/formats/sse-text.ts';
import type { Answer } from './case.ts';
import { collectGarbage, round, RssPeak, StallMonitor, stats, timed } from './measure.ts';
import {
  bodyAt,
  check,
  commonFigures,
  interleave,
  requestBudget,
  requestBase,
  type RequestResult,
  type RequestRun,
  type Side,
} from './request-run.ts';

/**
 * A stream request: engine, expert floor and old floor interleaved; the first result row (not the summary),
 * rows/s, RSS growth; answers compared on the warm-up runs. The expert floor writes each row as JSON text;
 * the engine's side reads the stream as the HTTP face writes it, SSE text a batch of events at a time.
 */
/** The data of each `result` event of SSE text, parsed. */
const resultData = (text: string): unknown[] =>
  text
    .split('\n\n')
    .filter((e) => e.startsWith('event: result\n'))
    .map((e) => JSON.parse(e.slice(e.indexOf('\ndata: ') + 7)) as unknown);

export async function runStream(run: RequestRun): Promise<RequestResult> {
  const { engine, conn, rc, request, options, env } = run;
  if (!rc.streamPath) throw new Error(`${rc.report} has no stream`);
  if (run.floor.kind !== 'stream') throw new Error(`${rc.report} ${request.id}: the floor is not a stream floor`);
  const floor = run.floor;
  const streamPath = rc.streamPath;
  const stmt = options.oldFloors ? await conn.prepare(request.oldFloor.sql) : null;
  const stall = new StallMonitor();
  const first = { engine: [] as number[], floor: [] as number[] };
  const summary: number[] = [];
  const rows = { engine: 0, floor: 0, old: 0 };
  let warmRows = 0;
  const busy = { engine: 0, floor: 0, old: 0 };
  let rssGrowth = 0;
  let checked = 0;
  const warmAnswers = new Map<number, { engine?: Answer; floor?: Answer; old?: Answer }>();

  const engineRun = async (i: number): Promise<number> => {
    const { p, body } = bodyAt(run, i);
    const keep = i < 0;
    const kept: unknown[] = [];
    collectGarbage();
    const rss = new RssPeak();
    let count = 0;
    let firstMs = NaN;
    let summaryMs = NaN;
    const { ms } = await stall.around(() =>
      timed(async () => {
        const start = performance.now();
        const result = await engine.org(p.organizationId).call('POST', streamPath, { body });
        if (result.kind !== 'stream') throw new Error(`${streamPath} did not stream`);
        for await (const piece of sseText(result.events)) {
          if (Number.isNaN(summaryMs)) summaryMs = performance.now() - start;
          if (piece.results > 0) {
            if (Number.isNaN(firstMs)) firstMs = performance.now() - start;
            if (keep) kept.push(...resultData(piece.text));
            count += piece.results;
            rss.sample();
          }
        }
      }),
    );
    if (i >= 0) {
      first.engine.push(firstMs);
      summary.push(summaryMs);
      rows.engine += count;
      busy.engine += ms;
      rssGrowth = Math.max(rssGrowth, rss.growthMiB);
    } else {
      const slot = warmAnswers.get(i) ?? {};
      warmAnswers.set(i, { ...slot, engine: request.engineAnswer(kept) });
      warmRows = Math.max(warmRows, count);
    }
    return ms;
  };

  const floorRun = async (i: number): Promise<number> => {
    const { p } = bodyAt(run, i);
    const keep = i < 0;
    const kept: unknown[] = [];
    let count = 0;
    let firstMs = NaN;
    const { ms } = await timed(async () => {
      const start = performance.now();
      for await (const batch of floor.rows(env, p)) {
        if (batch.length === 0) continue;
        if (Number.isNaN(firstMs)) firstMs = performance.now() - start;
        count += batch.length;
        if (keep) for (const row of batch) kept.push(JSON.parse(row));
      }
    });
    if (i >= 0) {
      first.floor.push(firstMs);
      rows.floor += count;
      busy.floor += ms;
    } else {
      const slot = warmAnswers.get(i) ?? {};
      warmAnswers.set(i, { ...slot, floor: kept });
    }
    return ms;
  };

  const oldFloorRun = async (i: number): Promise<number> => {
    const { p } = bodyAt(run, i);
    const keep = i < 0;
    const kept: Record<string, unknown>[] = [];
    let count = 0;
    stmt!.bind(request.oldFloor.params(p));
    const { ms } = await timed(async () => {
      const result = await stmt!.stream();
      const names = result.columnNames();
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        count += chunk.rowCount;
        if (keep)
          kept.push(
            ...chunk.convertRows(JSDuckDBValueConverter).map((v) => Object.fromEntries(names.map((n, k) => [n, v[k]]))),
          );
        else chunk.getRows();
      }
    });
    if (i >= 0) {
      rows.old += count;
      busy.old += ms;
    } else {
      const slot = warmAnswers.get(i) ?? {};
      warmAnswers.set(i, { ...slot, old: request.oldFloor.answer(kept) });
    }
    return ms;
  };

  const sides: Side[] = [
    { name: 'engine', run: engineRun },
    { name: 'floor', run: floorRun },
    ...(stmt ? [{ name: 'old floor', run: oldFloorRun }] : []),
  ];
  const samples = new Map(sides.map((s) => [s.name, [] as number[]]));
  const compare = (i: number) => {
    const a = warmAnswers.get(i);
    if (!a) return;
    check(`${rc.report} ${request.id} warm-up ${i}: engine vs floor`, a.engine, a.floor);
    if (stmt) check(`${rc.report} ${request.id} warm-up ${i}: engine vs old floor`, a.engine, a.old);
    warmAnswers.delete(i);
    checked++;
  };
  await interleave(sides, -options.warmup, options.warmup, samples, () => true, compare);
  await interleave(sides, 0, options.iterations, samples, () => true, compare, requestBudget(options));
  stmt?.destroySync();

  return {
    ...requestBase(run),
    ...(await commonFigures(run, samples)),
    resultRows: first.engine.length > 0 ? Math.round(rows.engine / first.engine.length) : warmRows,
    maxStallMs: round(stall.maxMs, 1),
    stream: {
      firstRowMs: stats(first.engine),
      summaryMs: stats(summary),
      rows: first.engine.length > 0 ? Math.round(rows.engine / first.engine.length) : warmRows,
      rowsPerSecond: Math.round(rows.engine / (busy.engine / 1000)),
      rssGrowthMiB: round(rssGrowth, 1),
      floorFirstRowMs: stats(first.floor),
      floorRowsPerSecond: Math.round(rows.floor / (busy.floor / 1000)),
      oldFloorRowsPerSecond: stmt ? Math.round(rows.old / (busy.old / 1000)) : null,
    },
    peers: {},
    checked,
  };
}
