import type { ScaleResult } from './bench.ts';
import type { RequestResult } from './run-report.ts';

export type GoalStatus = 'met' | 'missed' | 'not measured' | 'not applicable';

export interface GoalVerdict {
  readonly goal: string;
  readonly status: GoalStatus;
  readonly detail: string;
}

const ms = (x: number) => `${x.toFixed(1)} ms`;
const at = (run: ScaleResult, r: RequestResult) => `${r.report} ${r.id} @${run.scale}`;

/** Every check of a goal over the runs; met when all pass, missed with the failures named. */
function verdict(goal: string, checks: { ok: boolean; what: string }[], none: { status: GoalStatus; detail: string }): GoalVerdict {
  if (checks.length === 0) return { goal, ...none };
  const misses = checks.filter((c) => !c.ok);
  if (misses.length === 0) return { goal, status: 'met', detail: `${checks.length} of ${checks.length} pass` };
  return { goal, status: 'missed', detail: `${checks.length - misses.length} of ${checks.length} pass; misses: ${misses.map((c) => c.what).join('; ')}` };
}

/** The goals, judged on the latest run of every scale. Figures, not test assertions. */
export function evaluateGoals(runs: readonly ScaleResult[]): GoalVerdict[] {
  const each = (pick: (r: RequestResult) => boolean) => runs.flatMap((run) => run.reports.filter(pick).map((r) => ({ run, r })));
  const byScale = (scale: number) => runs.find((r) => r.scale === scale);
  const window = (run: ScaleResult | undefined, days: number) => run?.reports.find((r) => r.windowSeries && r.windowDays === days);
  const notAt10 = { status: 'not measured' as const, detail: 'no scale-10 run recorded' };

  const goals: GoalVerdict[] = [];
  goals.push(
    verdict('Validate and plan: p50 ≤ 1 ms', each(() => true).map(({ run, r }) => ({ ok: r.plan.p50 <= 1, what: `${at(run, r)} ${r.plan.p50.toFixed(3)} ms` })), { status: 'not measured', detail: 'no runs' }),
  );
  goals.push(
    verdict(
      'Aggregate reports: p50 ≤ 1.15 × floor + 2 ms',
      each((r) => r.kind === 'page').map(({ run, r }) => ({ ok: r.engine.p50 <= 1.15 * r.floor.p50 + 2, what: `${at(run, r)} ${ms(r.engine.p50)} vs floor ${ms(r.floor.p50)}` })),
      { status: 'not measured', detail: 'no page requests' },
    ),
  );
  const ten = byScale(10);
  goals.push(
    verdict(
      'Scale 10 absolute p50: 7 d ≤ 25 ms, 30 d ≤ 45 ms, 365 d ≤ 450 ms',
      (
        [
          [7, 25],
          [30, 45],
          [365, 450],
        ] as const
      ).flatMap(([days, limit]) => {
        const r = window(ten, days);
        return r ? [{ ok: r.engine.p50 <= limit, what: `${days} d ${ms(r.engine.p50)} > ${limit} ms` }] : [];
      }),
      notAt10,
    ),
  );
  goals.push(
    verdict(
      'Faster than both peers on every window',
      each((r) => r.windowSeries).flatMap(({ run, r }) =>
        Object.entries(r.peers).map(([peer, s]) => ({ ok: r.engine.p50 < s.p50, what: `${at(run, r)} engine ${ms(r.engine.p50)} vs ${peer} ${ms(s.p50)}` })),
      ),
      { status: 'not measured', detail: 'no peer runs' },
    ),
  );
  goals.push(
    verdict(
      'A 50,000-row JSON page in ≤ 250 ms',
      each((r) => r.kind === 'page' && r.resultRows >= 50_000).map(({ run, r }) => ({ ok: r.engine.p50 <= 250, what: `${at(run, r)} ${ms(r.engine.p50)}` })),
      { status: 'not applicable', detail: 'no report in the bench serves pages that large yet (v2 pages hold at most 50 rows)' },
    ),
  );
  const streams = each((r) => r.kind === 'stream' && r.stream !== null);
  goals.push(
    verdict(
      'Streams: first event ≤ 50 ms, ≥ 300,000 rows/s, RSS growth ≤ 64 MB, no event-loop stall over 50 ms',
      streams.flatMap(({ run, r }) => {
        const s = r.stream!;
        return [
          { ok: s.firstEventMs.p50 <= 50, what: `${at(run, r)} first event ${ms(s.firstEventMs.p50)}` },
          { ok: s.rowsPerSecond >= 300_000, what: `${at(run, r)} ${s.rowsPerSecond.toLocaleString('en-US')} rows/s` },
          { ok: s.rssGrowthMiB <= 64, what: `${at(run, r)} RSS +${s.rssGrowthMiB.toFixed(0)} MiB` },
          { ok: r.maxStallMs <= 50, what: `${at(run, r)} stall ${ms(r.maxStallMs)}` },
        ];
      }),
      { status: 'not measured', detail: 'no stream requests' },
    ),
  );
  goals.push(
    verdict(
      'Page 50 p50 ≤ 1.2 × page 1',
      each((r) => r.firstPageOf !== null).flatMap(({ run, r }) => {
        const first = run.reports.find((x) => x.report === r.report && x.id === r.firstPageOf);
        return first ? [{ ok: r.engine.p50 <= 1.2 * first.engine.p50, what: `${at(run, r)} ${ms(r.engine.p50)} vs page 1 ${ms(first.engine.p50)}` }] : [];
      }),
      { status: 'not measured', detail: 'no page pairs' },
    ),
  );
  const one = byScale(1);
  const [a, b] = [window(one, 30), window(ten, 30)];
  goals.push(
    verdict('The 30-day request at scale 10 ≤ 1.3 × scale 1', a && b ? [{ ok: b.engine.p50 <= 1.3 * a.engine.p50, what: `scale 10 ${ms(b.engine.p50)} vs scale 1 ${ms(a.engine.p50)}` }] : [], {
      status: 'not measured',
      detail: 'needs runs at scales 1 and 10',
    }),
  );
  return goals;
}
