import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';
import type { Engine } from '../../src/library/engine.ts';
import type { ExpertFloor, FloorEnv } from '../floors/types.ts';
import { AnswerMismatch, firstDifference } from './answers.ts';
import type { Answer, BenchRequest, IterationParams, ReportCase } from './case.ts';
import { iterationParams, type BenchDataset } from './dataset.ts';
import { round, stats, type Stats } from './measure.ts';

export interface RunOptions {
  readonly iterations: number;
  readonly warmup: number;
  /** Peers get at least 3 timed runs, then stop once this many seconds of peer time have passed. */
  readonly peerBudgetSeconds: number;
  /**
   * Seconds of timed engine and floor runs per request: past them a request stops after its
   * `minIterations`th timed run (long requests at large scales get fewer than `iterations`).
   */
  readonly requestBudgetSeconds: number;
  readonly minIterations: number;
  readonly planIterations: number;
  readonly peers: boolean;
  /** Run the first round's floors too (as `old floor`), so the change of floor shows for one round. */
  readonly oldFloors: boolean;
  readonly log: (line: string) => void;
}

export interface StreamFigures {
  /** The engine's first result row (not the summary event), from the call. */
  readonly firstRowMs: Stats;
  /** The engine's summary event, from the call. */
  readonly summaryMs: Stats;
  readonly rows: number;
  readonly rowsPerSecond: number;
  /** Peak RSS growth of the bench process while the engine streamed, read as fast as it comes. */
  readonly rssGrowthMiB: number;
  /** The expert floor's first row and rows per second (its rows serialized as the engine's are). */
  readonly floorFirstRowMs: Stats;
  readonly floorRowsPerSecond: number;
  readonly oldFloorRowsPerSecond: number | null;
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
  /** The expert floor (bench/floors). */
  readonly floor: Stats;
  /** engine p50 / floor p50 */
  readonly ratio: number;
  /** The first round's floor, run beside it for one round; null when skipped. */
  readonly oldFloor: Stats | null;
  /** engine p50 / old floor p50 */
  readonly oldRatio: number | null;
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

export interface Side {
  readonly name: string;
  run(i: number): Promise<number>;
}

/** One request being run: the engine, the floors' connection, the dataset, the report case and the options. */
export interface RequestRun {
  readonly engine: Engine;
  readonly conn: DuckDBConnection;
  readonly env: FloorEnv;
  readonly floor: ExpertFloor;
  readonly dataset: BenchDataset;
  readonly rc: ReportCase;
  readonly request: BenchRequest;
  readonly options: RunOptions;
}

export function requestBase({ rc, request }: RequestRun) {
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

export function bodyAt(
  { engine, dataset, rc, request }: RequestRun,
  i: number,
): { p: IterationParams; body: Record<string, unknown> } {
  const p = iterationParams(dataset, request.windowDays, i);
  const body = request.body(p);
  return { p, body: (request.page ?? 1) > 1 ? rc.pageBody(engine.org(p.organizationId), body, request.page!) : body };
}

export async function readFloor(
  stmt: DuckDBPreparedStatement,
  request: BenchRequest,
  p: IterationParams,
): Promise<Record<string, unknown>[]> {
  stmt.bind(request.oldFloor.params(p));
  return (await stmt.runAndReadAll()).getRowObjectsJS() as Record<string, unknown>[];
}

export function check(where: string, expected: Answer, actual: Answer): void {
  const d = firstDifference(expected, actual);
  if (d) throw new AnswerMismatch(where, d);
}

/**
 * Times sides in a rotating order per iteration, so none always runs on a cache another warmed; then
 * hands the iteration to `after` (answer checks, outside the timed spans).
 */
export async function interleave(
  sides: readonly Side[],
  from: number,
  count: number,
  samples: Map<string, number[]>,
  mayRun: (name: string) => boolean,
  after: (i: number) => void,
  budget?: { readonly ms: number; readonly min: number },
): Promise<void> {
  const spent = () =>
    (samples.get('engine') ?? []).reduce((a, b) => a + b, 0) + (samples.get('floor') ?? []).reduce((a, b) => a + b, 0);
  for (let i = from; i < from + count; i++) {
    if (budget && i >= budget.min && spent() > budget.ms) break;
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(k + i + sides.length * count) % sides.length]!;
      if (!mayRun(side.name)) continue;
      const ms = await side.run(i);
      if (i >= 0) samples.get(side.name)!.push(ms);
    }
    after(i);
  }
}

/** The figures every request reports: engine and floor latency, their ratio, planning time, input rows/s. */
export async function commonFigures(
  run: RequestRun,
  samples: Map<string, number[]>,
): Promise<
  Pick<RequestResult, 'engine' | 'floor' | 'ratio' | 'oldFloor' | 'oldRatio' | 'plan' | 'inputRowsPerSecond'>
> {
  const engine = stats(samples.get('engine')!);
  const floor = stats(samples.get('floor')!);
  const oldFloor = samples.has('old floor') ? stats(samples.get('old floor')!) : null;
  const inputRows = await countInputRows(run);
  return {
    engine,
    floor,
    ratio: round(engine.p50 / floor.p50),
    oldFloor,
    oldRatio: oldFloor ? round(engine.p50 / oldFloor.p50) : null,
    plan: await planStats(run),
    inputRowsPerSecond: inputRows === null ? null : Math.round(inputRows / (engine.p50 / 1000)),
  };
}

/** Validate, plan, compile and render the SQL: the engine's own work before DuckDB, with no database. */
async function planStats(run: RequestRun): Promise<Stats> {
  const samples: number[] = [];
  for (let i = -Math.min(20, run.options.planIterations); i < run.options.planIterations; i++) {
    const { p, body } = bodyAt(run, i);
    const org = run.engine.org(p.organizationId);
    const start = performance.now();
    await run.rc.plan(org, body);
    const ms = performance.now() - start;
    if (i >= 0) samples.push(ms);
  }
  return stats(samples);
}

/** The timed-run budget of a request (see RunOptions.requestBudgetSeconds). */
export const requestBudget = (options: RunOptions) => ({
  ms: options.requestBudgetSeconds * 1000,
  min: options.minIterations,
});

/** The mean count of fact rows in the timed iterations' windows, when the report says how to count them. */
async function countInputRows({ conn, dataset, rc, request, options }: RequestRun): Promise<number | null> {
  if (!rc.inputRows) return null;
  let total = 0;
  for (let i = 0; i < Math.min(options.iterations, 5); i++) {
    const p = iterationParams(dataset, request.windowDays, i);
    const reader = await conn.runAndReadAll(rc.inputRows.sql, rc.inputRows.params(p));
    total += Number(reader.getRows()[0]![0]);
  }
  return total / Math.max(1, Math.min(options.iterations, 5));
}
