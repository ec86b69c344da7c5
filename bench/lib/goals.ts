import type { ScaleResult } from './bench.ts';
import type { RequestResult } from './run-report.ts';

export type GoalStatus = 'met' | 'missed' | 'not measured' | 'not applicable';

export interface GoalVerdict {
  readonly goal: string;
  readonly status: GoalStatus;
  readonly detail: string;
}

/** One check of one goal on one request (or report) of one run. */
interface Check {
  readonly goal: string;
  readonly report: string;
  readonly ok: boolean;
  readonly what: string;
}

/** Streams shorter than this are not judged on rows per second: their time is the summary's, not the rows'. */
export const minStreamRowsForRate = 10_000;

export const goalNames = {
  plan: 'Validate and plan: p50 ≤ 1 ms',
  floor: 'Aggregate reports: p50 ≤ 1.15 × floor + 2 ms',
  absolute: 'Scale 10 absolute p50: 7 d ≤ 25 ms, 30 d ≤ 45 ms, 365 d ≤ 450 ms',
  peers: 'Faster than both peers on every window',
  bigPage: 'A 50,000-row JSON page in ≤ 250 ms',
  streams: `Streams: first event ≤ 50 ms, ≥ 300,000 rows/s (streams of ${minStreamRowsForRate.toLocaleString('en-US')} rows or more), RSS growth ≤ 64 MB, no event-loop stall over 50 ms`,
  page50: 'Page 50 p50 ≤ 1.2 × page 1',
  scaling: 'The 30-day request at scale 10 ≤ 1.3 × scale 1',
} as const;

/** Short column names of the goals, for the per-report table. */
export const goalColumns: Record<keyof typeof goalNames, string> = {
  plan: 'plan ≤ 1 ms',
  floor: '≤ 1.15 × floor + 2 ms',
  absolute: 'scale-10 windows',
  peers: 'peers',
  bigPage: '50,000-row page',
  streams: 'streams',
  page50: 'page 50',
  scaling: '30 d, scale 10 / 1',
};

const ms = (x: number) => `${x.toFixed(1)} ms`;
const at = (run: ScaleResult, r: RequestResult) => `${r.report} ${r.id} @${run.scale}`;

function checks(runs: readonly ScaleResult[]): Check[] {
  const out: Check[] = [];
  const byScale = (scale: number) => runs.find((r) => r.scale === scale);
  const window = (run: ScaleResult | undefined, report: string, days: number) => run?.reports.find((r) => r.report === report && r.windowSeries && r.windowDays === days);
  const reports = [...new Set(runs.flatMap((run) => run.reports.map((r) => r.report)))];
  for (const run of runs) {
    for (const r of run.reports) {
      const add = (goal: keyof typeof goalNames, ok: boolean, what: string) => out.push({ goal: goalNames[goal], report: r.report, ok, what: `${at(run, r)} ${what}` });
      add('plan', r.plan.p50 <= 1, `${r.plan.p50.toFixed(3)} ms`);
      if (r.kind === 'page') add('floor', r.engine.p50 <= 1.15 * r.floor.p50 + 2, `${ms(r.engine.p50)} vs floor ${ms(r.floor.p50)}`);
      if (r.windowSeries) for (const [peer, s] of Object.entries(r.peers)) add('peers', r.engine.p50 < s.p50, `engine ${ms(r.engine.p50)} vs ${peer} ${ms(s.p50)}`);
      if (r.kind === 'page' && r.resultRows >= 50_000) add('bigPage', r.engine.p50 <= 250, ms(r.engine.p50));
      if (r.stream) {
        const s = r.stream;
        add('streams', s.firstRowMs.p50 <= 50, `first event ${ms(s.firstRowMs.p50)}`);
        if (s.rows >= minStreamRowsForRate) add('streams', s.rowsPerSecond >= 300_000, `${s.rowsPerSecond.toLocaleString('en-US')} rows/s`);
        add('streams', s.rssGrowthMiB <= 64, `RSS +${s.rssGrowthMiB.toFixed(0)} MiB`);
        add('streams', r.maxStallMs <= 50, `stall ${ms(r.maxStallMs)}`);
      }
      if (r.firstPageOf) {
        const first = run.reports.find((x) => x.report === r.report && x.id === r.firstPageOf);
        if (first) add('page50', r.engine.p50 <= 1.2 * first.engine.p50, `${ms(r.engine.p50)} vs page 1 ${ms(first.engine.p50)}`);
      }
    }
  }
  const ten = byScale(10);
  const one = byScale(1);
  for (const report of reports) {
    for (const [days, limit] of [
      [7, 25],
      [30, 45],
      [365, 450],
    ] as const) {
      const r = window(ten, report, days);
      if (r) out.push({ goal: goalNames.absolute, report, ok: r.engine.p50 <= limit, what: `${report} ${days} d ${ms(r.engine.p50)} (goal ${limit} ms)` });
    }
    const [a, b] = [window(one, report, 30), window(ten, report, 30)];
    if (a && b) out.push({ goal: goalNames.scaling, report, ok: b.engine.p50 <= 1.3 * a.engine.p50, what: `${report} scale 10 ${ms(b.engine.p50)} vs scale 1 ${ms(a.engine.p50)}` });
  }
  return out;
}

const unmeasured: Record<string, { status: GoalStatus; detail: string }> = {
  [goalNames.absolute]: { status: 'not measured', detail: 'no scale-10 run recorded' },
  [goalNames.scaling]: { status: 'not measured', detail: 'needs runs at scales 1 and 10' },
  [goalNames.peers]: { status: 'not measured', detail: 'no peer runs' },
  [goalNames.bigPage]: { status: 'not applicable', detail: 'no page of 50,000 rows in these runs' },
};

function verdictOf(goal: string, list: readonly Check[]): GoalVerdict {
  if (list.length === 0) return { goal, ...(unmeasured[goal] ?? { status: 'not measured', detail: 'no runs' }) };
  const misses = list.filter((c) => !c.ok);
  if (misses.length === 0) return { goal, status: 'met', detail: `${list.length} of ${list.length} pass` };
  return { goal, status: 'missed', detail: `${list.length - misses.length} of ${list.length} pass; misses: ${misses.map((c) => c.what).join('; ')}` };
}

/** The goals over every report, judged on the latest run of every scale. Figures, not test assertions. */
export function evaluateGoals(runs: readonly ScaleResult[]): GoalVerdict[] {
  const all = checks(runs);
  return Object.values(goalNames).map((goal) => verdictOf(goal, all.filter((c) => c.goal === goal)));
}

/** Per report and goal: `met (n)`, `missed k of n`, or `–` where the goal does not apply to the report's requests. */
export function goalsByReport(runs: readonly ScaleResult[]): { report: string; cells: Record<keyof typeof goalNames, string> }[] {
  const all = checks(runs);
  const reports = [...new Set(runs.flatMap((run) => run.reports.map((r) => r.report)))];
  return reports.map((report) => {
    const cells = {} as Record<keyof typeof goalNames, string>;
    for (const [k, goal] of Object.entries(goalNames) as [keyof typeof goalNames, string][]) {
      const list = all.filter((c) => c.report === report && c.goal === goal);
      const misses = list.filter((c) => !c.ok).length;
      cells[k] = list.length === 0 ? '–' : misses === 0 ? `met (${list.length})` : `**missed ${misses} of ${list.length}**`;
    }
    return { report, cells };
  });
}
