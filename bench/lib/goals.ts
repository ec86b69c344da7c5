import type { ScaleResult } from './bench.ts';
import type { RequestResult } from './run-report.ts';

export type GoalStatus = 'met' | 'missed' | 'not measured' | 'not applicable';

export interface GoalVerdict {
  readonly goal: string;
  readonly status: GoalStatus;
  readonly detail: string;
}

/** One check of one goal on one request (or report, or server run) of one run. */
interface Check {
  readonly goal: string;
  /** The report it belongs to, or '' for the server runs. */
  readonly report: string;
  readonly ok: boolean;
  readonly what: string;
}

/** Streams shorter than this are not judged on rows per second: their time is the summary's, not the rows'. */
export const minStreamRowsForRate = 10_000;

/** Goals of issue 23 (lean plans), 13 (streams, memory, fair sharing), and the earlier ones that still stand. */
export const goalNames = {
  plan: 'Validate and plan: p50 ≤ 1 ms',
  ratio: 'Every page case: engine p50 ≤ 1.3 × the expert floor p50 (paired, interleaved)',
  absolute: 'Scale 10 absolute p50 on every aggregate report: 7 d ≤ 25 ms, 30 d ≤ 45 ms, 365 d ≤ 100 ms',
  peers: 'Faster than both peers on every window',
  bigPage: 'A 50,000-row JSON page in ≤ 250 ms at scale 1',
  page50: 'Page 50 p50 ≤ 1.2 × page 1',
  scaling: 'The 30-day request at scale 10 ≤ 1.3 × scale 1',
  http: 'HTTP: ≥ 250 req/s at 16 connections on the 30-day visibility request at scale 1, result cache off',
  streamFirstRow: 'Every stream: first result row ≤ 250 ms (scale 1)',
  streamRss: 'Every stream: RSS growth ≤ 64 MiB, read fast (bench process) and at 5 KB/s (server) (scale 1)',
  streamRate: `Every stream: rows/s ≥ 0.8 × the expert streaming floor's (streams of ${minStreamRowsForRate.toLocaleString('en-US')} rows or more, scale 1)`,
  stalls: 'No request stalls the event loop over 50 ms (library calls; /healthz during the PATCH)',
  slowReaders:
    'Eight slow readers on eight keys: server RSS ≤ base + 512 MiB, back within base + 64 MiB 10 s after they leave',
  light: 'With six heavy requests running, GET /v1/org/models p99 ≤ 100 ms',
  patch: 'A PATCH adding 1,000 new tags in ≤ 200 ms',
} as const;

/** Short column names of the goals judged per report. */
export const goalColumns: Partial<Record<keyof typeof goalNames, string>> = {
  plan: 'plan ≤ 1 ms',
  ratio: '≤ 1.3 × floor',
  absolute: 'scale-10 windows',
  peers: 'peers',
  bigPage: '50,000-row page',
  page50: 'page 50',
  scaling: '30 d, scale 10 / 1',
  streamFirstRow: 'first row',
  streamRss: 'stream RSS',
  streamRate: 'stream rows/s',
  stalls: 'stalls',
};

/** Reports whose requests are raw rows, not aggregates (the scale-10 absolute goal names aggregate reports). */
const rawReports = new Set(['prompt-answers']);

const ms = (x: number) => `${x.toFixed(1)} ms`;
const at = (run: ScaleResult, r: RequestResult) => `${r.report} ${r.id} @${run.scale}`;

/** The runs the scale-1 goals are judged on: scale 1 when recorded, else every run (a smoke run's tiny scale). */
const scaleOne = (runs: readonly ScaleResult[]) =>
  runs.some((r) => r.scale === 1) ? runs.filter((r) => r.scale === 1) : runs;

function requestChecks(runs: readonly ScaleResult[], out: Check[]): void {
  const judged = new Set(scaleOne(runs));
  for (const run of runs) {
    for (const r of run.reports) {
      const add = (goal: keyof typeof goalNames, ok: boolean, what: string) =>
        out.push({ goal: goalNames[goal], report: r.report, ok, what: `${at(run, r)} ${what}` });
      add('plan', r.plan.p50 <= 1, `${r.plan.p50.toFixed(3)} ms`);
      // Runs recorded before the expert floors (no oldFloor field) timed the first round's floors: not judged.
      if ('oldFloor' in (r as object) && r.kind === 'page')
        add('ratio', r.engine.p50 <= 1.3 * r.floor.p50, `${ms(r.engine.p50)} vs floor ${ms(r.floor.p50)}`);
      add('stalls', r.maxStallMs <= 50, `stall ${ms(r.maxStallMs)}`);
      if (r.windowSeries)
        for (const [peer, s] of Object.entries(r.peers))
          add('peers', r.engine.p50 < s.p50, `engine ${ms(r.engine.p50)} vs ${peer} ${ms(s.p50)}`);
      if (judged.has(run) && r.kind === 'page' && r.resultRows >= 50_000)
        add('bigPage', r.engine.p50 <= 250, ms(r.engine.p50));
      const s = r.stream;
      if (judged.has(run) && s?.firstRowMs) {
        add('streamFirstRow', s.firstRowMs.p50 <= 250, `first row ${ms(s.firstRowMs.p50)}`);
        add('streamRss', s.rssGrowthMiB <= 64, `read fast: RSS +${s.rssGrowthMiB.toFixed(0)} MiB`);
        if (s.rows >= minStreamRowsForRate)
          add(
            'streamRate',
            s.rowsPerSecond >= 0.8 * s.floorRowsPerSecond,
            `${s.rowsPerSecond.toLocaleString('en-US')} rows/s vs floor ${s.floorRowsPerSecond.toLocaleString('en-US')}`,
          );
      }
      if (r.firstPageOf) {
        const first = run.reports.find((x) => x.report === r.report && x.id === r.firstPageOf);
        if (first)
          add(
            'page50',
            r.engine.p50 <= 1.2 * first.engine.p50,
            `${ms(r.engine.p50)} vs page 1 ${ms(first.engine.p50)}`,
          );
      }
    }
  }
}

function windowChecks(runs: readonly ScaleResult[], out: Check[]): void {
  const byScale = (scale: number) => runs.find((r) => r.scale === scale);
  const window = (run: ScaleResult | undefined, report: string, days: number) =>
    run?.reports.find((r) => r.report === report && r.windowSeries && r.windowDays === days);
  const [one, ten] = [byScale(1), byScale(10)];
  for (const report of new Set(runs.flatMap((run) => run.reports.map((r) => r.report)))) {
    for (const [days, limit] of [
      [7, 25],
      [30, 45],
      [365, 100],
    ] as const) {
      const r = window(ten, report, days);
      if (r && !rawReports.has(report))
        out.push({
          goal: goalNames.absolute,
          report,
          ok: r.engine.p50 <= limit,
          what: `${report} ${days} d ${ms(r.engine.p50)} (goal ${limit} ms)`,
        });
    }
    const [a, b] = [window(one, report, 30), window(ten, report, 30)];
    if (a && b)
      out.push({
        goal: goalNames.scaling,
        report,
        ok: b.engine.p50 <= 1.3 * a.engine.p50,
        what: `${report} scale 10 ${ms(b.engine.p50)} vs scale 1 ${ms(a.engine.p50)}`,
      });
  }
}

function serverChecks(runs: readonly ScaleResult[], out: Check[]): void {
  for (const run of scaleOne(runs)) {
    const s = run.server;
    if (!s) continue;
    const add = (goal: keyof typeof goalNames, report: string, ok: boolean, what: string) =>
      out.push({ goal: goalNames[goal], report, ok, what: `${what} @${run.scale}` });
    const h = s.visibilityHttp;
    add(
      'http',
      '',
      h.engine.requestsPerSecond >= 250,
      `${h.engine.requestsPerSecond} req/s at ${h.connections} connections (floor server ${h.floor.requestsPerSecond})`,
    );
    for (const x of s.slowStreams)
      add(
        'streamRss',
        x.report,
        x.rssGrowthMiB <= 64,
        `${x.report} ${x.id} at ${(s.slowReaders.bytesPerSecond / 1024).toFixed(0)} KB/s: server RSS +${x.rssGrowthMiB.toFixed(0)} MiB`,
      );
    const r = s.slowReaders;
    add(
      'slowReaders',
      '',
      r.rssPeakMiB <= r.rssBaseMiB + 512,
      `peak ${r.rssPeakMiB.toFixed(0)} MiB over base ${r.rssBaseMiB.toFixed(0)} MiB`,
    );
    add(
      'slowReaders',
      '',
      r.rssAfterMiB <= r.rssBaseMiB + 64,
      `${r.afterSeconds} s after: ${r.rssAfterMiB.toFixed(0)} MiB over base ${r.rssBaseMiB.toFixed(0)} MiB`,
    );
    add(
      'light',
      '',
      s.mixed.light.p99Ms <= 100,
      `p99 ${ms(s.mixed.light.p99Ms)} (baseline ${ms(s.mixed.baseline.p99Ms)}), heavy ${s.mixed.heavy.map((x) => `${x.status}`).join('/')}`,
    );
    add('patch', '', s.patch.status === 200 && s.patch.ms <= 200, `${s.patch.status} in ${ms(s.patch.ms)}`);
    add('stalls', '', s.patch.probe.maxMs <= 50, `/healthz max ${ms(s.patch.probe.maxMs)} during the PATCH`);
  }
}

function checks(runs: readonly ScaleResult[]): Check[] {
  const out: Check[] = [];
  requestChecks(runs, out);
  windowChecks(runs, out);
  serverChecks(runs, out);
  return out;
}

const unmeasured: Record<string, { status: GoalStatus; detail: string }> = {
  [goalNames.absolute]: { status: 'not measured', detail: 'no scale-10 run recorded' },
  [goalNames.scaling]: { status: 'not measured', detail: 'needs runs at scales 1 and 10' },
  [goalNames.peers]: { status: 'not measured', detail: 'no peer runs' },
  [goalNames.bigPage]: { status: 'not applicable', detail: 'no page of 50,000 rows in these runs' },
  [goalNames.ratio]: { status: 'not measured', detail: 'no run with the expert floors recorded yet' },
  [goalNames.streamFirstRow]: { status: 'not measured', detail: 'no stream run with first-row figures recorded yet' },
  [goalNames.streamRate]: { status: 'not measured', detail: 'no stream run with expert streaming floors recorded yet' },
  ...Object.fromEntries(
    [goalNames.http, goalNames.slowReaders, goalNames.light, goalNames.patch, goalNames.streamRss].map((g) => [
      g,
      { status: 'not measured' as const, detail: 'no server runs recorded yet (aea bench without --no-server)' },
    ]),
  ),
};

function verdictOf(goal: string, list: readonly Check[]): GoalVerdict {
  if (list.length === 0) return { goal, ...(unmeasured[goal] ?? { status: 'not measured', detail: 'no runs' }) };
  const misses = list.filter((c) => !c.ok);
  if (misses.length === 0) return { goal, status: 'met', detail: `${list.length} of ${list.length} pass` };
  return {
    goal,
    status: 'missed',
    detail: `${list.length - misses.length} of ${list.length} pass; misses: ${misses.map((c) => c.what).join('; ')}`,
  };
}

/** The issues' goals over every report and server run, judged on the latest run of every scale. Figures, not test assertions. */
export function evaluateGoals(runs: readonly ScaleResult[]): GoalVerdict[] {
  const all = checks(runs);
  return Object.values(goalNames).map((goal) =>
    verdictOf(
      goal,
      all.filter((c) => c.goal === goal),
    ),
  );
}

/** Per report and goal: `met (n)`, `missed k of n`, or `–` where the goal does not apply to the report's requests. */
export function goalsByReport(runs: readonly ScaleResult[]): { report: string; cells: Record<string, string> }[] {
  const all = checks(runs);
  const reports = [...new Set(runs.flatMap((run) => run.reports.map((r) => r.report)))];
  return reports.map((report) => {
    const cells: Record<string, string> = {};
    for (const k of Object.keys(goalColumns) as (keyof typeof goalNames)[]) {
      const list = all.filter((c) => c.report === report && c.goal === goalNames[k]);
      const misses = list.filter((c) => !c.ok).length;
      cells[k] =
        list.length === 0 ? '–' : misses === 0 ? `met (${list.length})` : `**missed ${misses} of ${list.length}**`;
    }
    return { report, cells };
  });
}
