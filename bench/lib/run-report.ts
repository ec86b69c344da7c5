import { JSDuckDBValueConverter, type DuckDBConnection, type DuckDBPreparedStatement } from '@duckdb/node-api';
import type { Engine } from '../../src/engine/engine.ts';
import { AnswerMismatch, firstDifference } from './answers.ts';
import type { Answer, BenchRequest, IterationParams, PeerSide, ReportCase } from './case.ts';
import { iterationParams, type BenchDataset } from './dataset.ts';
import { collectGarbage, round, RssPeak, StallMonitor, stats, timed, type Stats } from './measure.ts';

export interface RunOptions {
  readonly iterations: number;
  readonly warmup: number;
  /** Peers get at least 3 timed runs, then stop once this many seconds of peer time have passed. */
  readonly peerBudgetSeconds: number;
  readonly planIterations: number;
  readonly peers: boolean;
  readonly log: (line: string) => void;
}

export interface StreamFigures {
  readonly firstEventMs: Stats;
  readonly rows: number;
  readonly rowsPerSecond: number;
  readonly rssGrowthMiB: number;
  readonly floorFirstChunkMs: Stats;
  readonly floorRowsPerSecond: number;
}

export interface RequestResult {
  readonly report: string;
  readonly id: string;
  readonly label: string;
  readonly kind: 'page' | 'stream';
  readonly windowDays: number;
  readonly grouped: boolean;
  readonly filtered: boolean;
  readonly page: number;
  readonly firstPageOf: string | null;
  readonly windowSeries: boolean;
  readonly engine: Stats;
  readonly floor: Stats;
  /** engine p50 / floor p50 */
  readonly ratio: number;
  readonly plan: Stats;
  /** Fact rows the request reads (its window of the category), per second of engine p50. */
  readonly inputRowsPerSecond: number | null;
  readonly resultRows: number;
  readonly maxStallMs: number;
  readonly stream: StreamFigures | null;
  readonly peers: Record<string, Stats & { loadMs: number }>;
  /** Iterations whose answers were compared, engine against floor and every peer. */
  readonly checked: number;
}

interface Side {
  readonly name: string;
  run(i: number): Promise<number>;
}

/** Runs every request of one report: warm-up, then engine, floor and peers interleaved on fresh parameters. */
export async function runReport(engine: Engine, dataset: BenchDataset, rc: ReportCase, options: RunOptions, only?: (r: BenchRequest) => boolean): Promise<RequestResult[]> {
  const peersOf = (r: BenchRequest) => (options.peers ? (r.peers ?? []) : []);
  const conn = await engine.core.pool.instance.connect();
  const peers = new Map<string, { side: PeerSide & { close?(): void }; loadMs: number }>();
  try {
    const results: RequestResult[] = [];
    for (const request of rc.requests(dataset).filter(only ?? (() => true))) {
      for (const peer of peersOf(request)) {
        if (peers.has(peer.name)) continue;
        const { ms, value } = await timed(() => peer.open(dataset));
        peers.set(peer.name, { side: value, loadMs: round(ms, 1) });
        options.log(`  ${peer.name} opened in ${ms.toFixed(0)} ms`);
      }
      const result = request.kind === 'page' ? await runPage(engine, conn, dataset, rc, { ...request, peers: peersOf(request) }, options, peers) : await runStream(engine, conn, dataset, rc, request, options);
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

function requestBase(rc: ReportCase, request: BenchRequest) {
  return {
    report: rc.report,
    id: request.id,
    label: request.label,
    kind: request.kind,
    windowDays: request.windowDays,
    grouped: request.grouped,
    filtered: request.filtered,
    page: request.page ?? 1,
    firstPageOf: request.firstPageOf ?? null,
    windowSeries: request.windowSeries ?? false,
  };
}

function bodyAt(engine: Engine, dataset: BenchDataset, rc: ReportCase, request: BenchRequest, i: number): { p: IterationParams; body: Record<string, unknown> } {
  const p = iterationParams(dataset, request.windowDays, i);
  const body = request.body(p);
  return { p, body: (request.page ?? 1) > 1 ? rc.pageBody(engine.org(p.organizationId), body, request.page!) : body };
}

async function readFloor(stmt: DuckDBPreparedStatement, request: BenchRequest, p: IterationParams): Promise<Record<string, unknown>[]> {
  stmt.bind(request.floor.params(p));
  return (await stmt.runAndReadAll()).getRowObjectsJS() as Record<string, unknown>[];
}

function check(where: string, expected: Answer, actual: Answer): void {
  const d = firstDifference(expected, actual);
  if (d) throw new AnswerMismatch(where, d);
}

/**
 * Times sides in a rotating order per iteration, so none always runs on a cache another warmed; then
 * hands the iteration to `after` (answer checks, outside the timed spans).
 */
async function interleave(sides: readonly Side[], from: number, count: number, samples: Map<string, number[]>, mayRun: (name: string) => boolean, after: (i: number) => void): Promise<void> {
  for (let i = from; i < from + count; i++) {
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(k + i + sides.length * count) % sides.length]!;
      if (!mayRun(side.name)) continue;
      const ms = await side.run(i);
      if (i >= 0) samples.get(side.name)!.push(ms);
    }
    after(i);
  }
}

async function runPage(
  engine: Engine,
  conn: DuckDBConnection,
  dataset: BenchDataset,
  rc: ReportCase,
  request: BenchRequest,
  options: RunOptions,
  peers: Map<string, { side: PeerSide; loadMs: number }>,
): Promise<RequestResult> {
  const stmt = await conn.prepare(request.floor.sql);
  const stall = new StallMonitor();
  const answers = new Map<string, Answer>();
  let resultRows = 0;
  let checked = 0;
  const peerTime = new Map((request.peers ?? []).map((p) => [p.name, { ms: 0, runs: 0 }]));
  const mayRun = (name: string) => {
    const t = peerTime.get(name);
    return !t || t.runs < 3 || t.ms < options.peerBudgetSeconds * 1000;
  };
  const compare = (i: number) => {
    for (const [name, answer] of answers) {
      if (name !== 'engine') check(`${rc.report} ${request.id} iteration ${i}: engine vs ${name}`, answers.get('engine'), answer);
    }
    answers.clear();
    checked++;
  };

  const sides: Side[] = [
    {
      name: 'engine',
      run: async (i) => {
        const { p, body } = bodyAt(engine, dataset, rc, request, i);
        const org = engine.org(p.organizationId);
        const { ms, value } = await stall.around(() => timed(() => org.call('POST', rc.path, { body })));
        if (value.kind !== 'json') throw new Error(`${rc.path} did not answer JSON`);
        const json = JSON.parse(value.json) as { data?: unknown[] };
        resultRows = Math.max(resultRows, json.data?.length ?? 0);
        answers.set('engine', request.engineAnswer(json));
        return ms;
      },
    },
    {
      name: 'floor',
      run: async (i) => {
        const { p } = bodyAt(engine, dataset, rc, request, i);
        const { ms, value } = await timed(() => readFloor(stmt, request, p));
        answers.set('floor', request.floor.answer(value));
        return ms;
      },
    },
    ...(request.peers ?? []).map(
      (peer): Side => ({
        name: peer.name,
        run: async (i) => {
          const { p, body } = bodyAt(engine, dataset, rc, request, i);
          const { ms, value } = await timed(() => peers.get(peer.name)!.side.run(p, body));
          const t = peerTime.get(peer.name)!;
          if (i >= 0) peerTime.set(peer.name, { ms: t.ms + ms, runs: t.runs + 1 });
          answers.set(peer.name, value);
          return ms;
        },
      }),
    ),
  ];
  const samples = new Map(sides.map((s) => [s.name, [] as number[]]));
  await interleave(sides, -options.warmup, options.warmup, samples, () => true, compare);
  await interleave(sides, 0, options.iterations, samples, mayRun, compare);
  stmt.destroySync();

  const engineStats = stats(samples.get('engine')!);
  const floorStats = stats(samples.get('floor')!);
  const inputRows = await countInputRows(conn, dataset, rc, request, options.iterations);
  return {
    ...requestBase(rc, request),
    engine: engineStats,
    floor: floorStats,
    ratio: round(engineStats.p50 / floorStats.p50),
    plan: planStats(engine, dataset, rc, request, options.planIterations),
    inputRowsPerSecond: inputRows === null ? null : Math.round(inputRows / (engineStats.p50 / 1000)),
    resultRows,
    maxStallMs: round(stall.maxMs, 1),
    stream: null,
    peers: Object.fromEntries((request.peers ?? []).map((p) => [p.name, { ...stats(samples.get(p.name)!), loadMs: peers.get(p.name)!.loadMs }])),
    checked,
  };
}

async function runStream(engine: Engine, conn: DuckDBConnection, dataset: BenchDataset, rc: ReportCase, request: BenchRequest, options: RunOptions): Promise<RequestResult> {
  if (!rc.streamPath) throw new Error(`${rc.report} has no stream`);
  const streamPath = rc.streamPath;
  const stmt = await conn.prepare(request.floor.sql);
  const stall = new StallMonitor();
  const first = { engine: [] as number[], floor: [] as number[] };
  const rows = { engine: 0, floor: 0 };
  const busy = { engine: 0, floor: 0 };
  let rssGrowth = 0;
  let checked = 0;
  const warmAnswers = new Map<number, { engine?: Answer; floor?: Answer }>();

  const engineRun = async (i: number): Promise<number> => {
    const { p, body } = bodyAt(engine, dataset, rc, request, i);
    const keep = i < 0;
    const kept: unknown[] = [];
    collectGarbage();
    const rss = new RssPeak();
    let count = 0;
    let firstMs = NaN;
    const { ms } = await stall.around(() =>
      timed(async () => {
        const start = performance.now();
        const result = await engine.org(p.organizationId).call('POST', streamPath, { body });
        if (result.kind !== 'stream') throw new Error(`${streamPath} did not stream`);
        for await (const e of result.events) {
          if (Number.isNaN(firstMs)) firstMs = performance.now() - start;
          if (e.event === 'result') {
            if (keep) kept.push(JSON.parse(e.data));
            if (++count % 1024 === 0) rss.sample();
          }
        }
      }),
    );
    if (i >= 0) {
      first.engine.push(firstMs);
      rows.engine += count;
      busy.engine += ms;
      rssGrowth = Math.max(rssGrowth, rss.growthMiB);
    } else {
      const slot = warmAnswers.get(i) ?? {};
      warmAnswers.set(i, { ...slot, engine: request.engineAnswer(kept) });
    }
    return ms;
  };

  const floorRun = async (i: number): Promise<number> => {
    const { p } = bodyAt(engine, dataset, rc, request, i);
    const keep = i < 0;
    const kept: Record<string, unknown>[] = [];
    let count = 0;
    let firstMs = NaN;
    stmt.bind(request.floor.params(p));
    const { ms } = await timed(async () => {
      const start = performance.now();
      const result = await stmt.stream();
      const names = result.columnNames();
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        if (Number.isNaN(firstMs)) firstMs = performance.now() - start;
        count += chunk.rowCount;
        if (keep) kept.push(...chunk.convertRows(JSDuckDBValueConverter).map((v) => Object.fromEntries(names.map((n, k) => [n, v[k]]))));
        else chunk.getRows();
      }
    });
    if (i >= 0) {
      first.floor.push(firstMs);
      rows.floor += count;
      busy.floor += ms;
    } else {
      const slot = warmAnswers.get(i) ?? {};
      warmAnswers.set(i, { ...slot, floor: request.floor.answer(kept) });
    }
    return ms;
  };

  const samples = new Map([
    ['engine', [] as number[]],
    ['floor', [] as number[]],
  ]);
  const sides: Side[] = [
    { name: 'engine', run: engineRun },
    { name: 'floor', run: floorRun },
  ];
  const compare = (i: number) => {
    const a = warmAnswers.get(i);
    if (!a) return;
    check(`${rc.report} ${request.id} warm-up ${i}: engine vs floor`, a.engine, a.floor);
    warmAnswers.delete(i);
    checked++;
  };
  await interleave(sides, -options.warmup, options.warmup, samples, () => true, compare);
  await interleave(sides, 0, options.iterations, samples, () => true, compare);
  stmt.destroySync();

  const engineStats = stats(samples.get('engine')!);
  const floorStats = stats(samples.get('floor')!);
  const inputRows = await countInputRows(conn, dataset, rc, request, options.iterations);
  return {
    ...requestBase(rc, request),
    engine: engineStats,
    floor: floorStats,
    ratio: round(engineStats.p50 / floorStats.p50),
    plan: planStats(engine, dataset, rc, request, options.planIterations),
    inputRowsPerSecond: inputRows === null ? null : Math.round(inputRows / (engineStats.p50 / 1000)),
    resultRows: Math.round(rows.engine / Math.max(1, options.iterations)),
    maxStallMs: round(stall.maxMs, 1),
    stream: {
      firstEventMs: stats(first.engine),
      rows: Math.round(rows.engine / Math.max(1, options.iterations)),
      rowsPerSecond: Math.round(rows.engine / (busy.engine / 1000)),
      rssGrowthMiB: round(rssGrowth, 1),
      floorFirstChunkMs: stats(first.floor),
      floorRowsPerSecond: Math.round(rows.floor / (busy.floor / 1000)),
    },
    peers: {},
    checked,
  };
}

/** Validate, plan, compile and render the SQL: the engine's own work before DuckDB, with no database. */
function planStats(engine: Engine, dataset: BenchDataset, rc: ReportCase, request: BenchRequest, iterations: number): Stats {
  const samples: number[] = [];
  for (let i = -20; i < iterations; i++) {
    const { p, body } = bodyAt(engine, dataset, rc, request, i);
    const org = engine.org(p.organizationId);
    const start = performance.now();
    rc.plan(org, body);
    const ms = performance.now() - start;
    if (i >= 0) samples.push(ms);
  }
  return stats(samples);
}

/** The mean count of fact rows in the timed iterations' windows, when the report says how to count them. */
async function countInputRows(conn: DuckDBConnection, dataset: BenchDataset, rc: ReportCase, request: BenchRequest, iterations: number): Promise<number | null> {
  if (!rc.inputRows) return null;
  let total = 0;
  for (let i = 0; i < iterations; i++) {
    const p = iterationParams(dataset, request.windowDays, i);
    const reader = await conn.runAndReadAll(rc.inputRows.sql, rc.inputRows.params(p));
    total += Number(reader.getRows()[0]![0]);
  }
  return total / Math.max(1, iterations);
}
