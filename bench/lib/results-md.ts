import type { ScaleResult } from './bench.ts';
import { f1, int } from './format.ts';
import { evaluateGoals, goalColumns, goalsByReport } from './goals.ts';
import type { HttpResult } from './http-load.ts';
import { floorRollupsSection, serverSection } from './results-server-md.ts';
import type { RequestResult } from './run-report.ts';
import { lineChartSvg } from './svg-chart.ts';

export const analysisStart = '<!-- analysis: written by hand, kept when the bench rewrites this file -->';
export const analysisEnd = '<!-- /analysis -->';

const peerNames = (run: ScaleResult) => [...new Set(run.reports.flatMap((r) => Object.keys(r.peers)))].sort();
const sideColors: Record<string, string> = {
  engine: '#d62728',
  floor: '#1f77b4',
  arquero: '#2ca02c',
  polars: '#9467bd',
};

const palette = [
  '#d62728',
  '#1f77b4',
  '#2ca02c',
  '#9467bd',
  '#ff7f0e',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
  '#393b79',
  '#637939',
  '#8c6d31',
  '#843c39',
  '#7b4173',
  '#3182bd',
  '#e6550d',
  '#31a354',
];

/** The charts of a run, each a file in bench/results: `[file, svg]`. */
export function charts(run: ScaleResult): [string, string][] {
  const out: [string, string][] = [];
  const latency = latencyChart(run);
  if (latency) out.push([chartFile(run.scale), latency]);
  const reports = windowReports(run);
  if (reports.length > 1) {
    out.push([
      `reports-scale-${run.scale}.svg`,
      byReportChart(
        run,
        reports,
        'every report: engine p50 by window',
        'engine p50 ms (log scale)',
        (r) => r.engine.p50,
      ),
    ]);
    out.push([
      `ratio-scale-${run.scale}.svg`,
      byReportChart(
        run,
        reports,
        'every report: engine p50 / floor p50 by window',
        'engine / floor (log scale)',
        (r) => r.ratio,
      ),
    ]);
  }
  return out;
}

export const chartFile = (scale: number) => `latency-scale-${scale}.svg`;

const windowReports = (run: ScaleResult) => [
  ...new Set(run.reports.filter((r) => r.windowSeries).map((r) => r.report)),
];

/** Latency by window for engine, floor and peers: the window series of the report that has peers (visibility). */
export function latencyChart(run: ScaleResult): string | null {
  const report =
    run.reports.find((r) => r.windowSeries && Object.keys(r.peers).length > 0)?.report ??
    run.reports.find((r) => r.windowSeries)?.report;
  const series = run.reports
    .filter((r) => r.windowSeries && r.report === report)
    .sort((a, b) => a.windowDays - b.windowDays);
  if (series.length === 0) return null;
  const sides = ['engine', 'floor', ...peerNames(run)];
  const pick = (r: RequestResult, side: string) =>
    side === 'engine' ? r.engine.p50 : side === 'floor' ? r.floor.p50 : (r.peers[side]?.p50 ?? null);
  return lineChartSvg(
    `${report}: p50 latency by window, scale ${run.scale} (${run.commit}, ${run.date})`,
    series.map((r) => `${r.windowDays} d`),
    sides.map((s) => ({ name: s, color: sideColors[s] ?? '#7f7f7f', values: series.map((r) => pick(r, s)) })),
    'p50 ms (log scale)',
  );
}

function byReportChart(
  run: ScaleResult,
  reports: readonly string[],
  title: string,
  yLabel: string,
  value: (r: RequestResult) => number,
): string {
  const days = [...new Set(run.reports.filter((r) => r.windowSeries).map((r) => r.windowDays))].sort((a, b) => a - b);
  return lineChartSvg(
    `${title}, scale ${run.scale} (${run.commit})`,
    days.map((d) => `${d} d`),
    reports.map((report, i) => ({
      name: report,
      color: palette[i % palette.length]!,
      values: days.map((d) => {
        const r = run.reports.find((x) => x.report === report && x.windowSeries && x.windowDays === d);
        return r ? value(r) : null;
      }),
    })),
    yLabel,
  );
}

/** The expert floor's figures, or null for runs recorded before it existed (their `floor` was the first round's). */
const hasExpert = (r: RequestResult) => 'oldFloor' in (r as object);
const expertOf = (r: RequestResult) => (hasExpert(r) ? { floor: r.floor, ratio: r.ratio } : null);
/** The first round's floor: run beside the expert one, or the only floor of an older run. */
const oldOf = (r: RequestResult) =>
  hasExpert(r) ? (r.oldFloor ? { floor: r.oldFloor, ratio: r.oldRatio! } : null) : { floor: r.floor, ratio: r.ratio };
const ratio = (x: number | undefined | null) =>
  x === undefined || x === null || !Number.isFinite(x) ? '–' : x.toFixed(2);

function pageTable(run: ScaleResult): string[] {
  const peers = peerNames(run);
  const rows = run.reports.filter((r) => r.kind === 'page');
  return [
    `| report | request | engine p50 | p95 | floor p50 | p95 | engine/floor | old floor p50 | engine/old floor | plan p50 | ${peers.map((p) => `${p} p50`).join(' | ')}${peers.length ? ' | ' : ''}input rows/s | rows | max stall | runs | checked |`,
    `|---|---|---:|---:|---:|---:|---:|---:|---:|---:|${peers.map(() => '---:|').join('')}---:|---:|---:|---:|---:|`,
    ...rows.map((r) => {
      const e = expertOf(r);
      const o = oldOf(r);
      return `| ${r.report} | ${r.label} | ${f1(r.engine.p50)} | ${f1(r.engine.p95)} | ${f1(e?.floor.p50)} | ${f1(e?.floor.p95)} | ${ratio(e?.ratio)} | ${f1(o?.floor.p50)} | ${ratio(o?.ratio)} | ${r.plan.p50.toFixed(3)} | ${peers
        .map((p) => (r.peers[p] ? `${f1(r.peers[p]!.p50)} (n=${r.peers[p]!.n})` : '–'))
        .join(
          ' | ',
        )}${peers.length ? ' | ' : ''}${int(r.inputRowsPerSecond)} | ${int(r.resultRows)} | ${f1(r.maxStallMs)} | ${r.engine.n} | ${r.checked} |`;
    }),
  ];
}

function streamTable(run: ScaleResult): string[] {
  const rows = run.reports.filter((r) => r.stream);
  if (rows.length === 0) return [];
  const slow = (r: RequestResult) => run.server?.slowStreams.find((x) => x.report === r.report && x.id === r.id);
  return [
    '',
    'Streams: the engine read as fast as it comes in the bench process (first result row, not the summary event; RSS growth of the bench process), the expert floor (its first row, rows/s), the old floor, and `aea serve` read by a client at 5 KB/s over a socket (first result row, server RSS growth).',
    '',
    '| report | stream | rows | engine p50 | floor p50 | engine/floor | old floor p50 | first row p50 | floor first row | summary p50 | engine rows/s | floor rows/s | old floor rows/s | RSS growth | 5 KB/s first row | 5 KB/s server RSS growth | max stall | runs | checked |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const s = r.stream!;
      const e = expertOf(r);
      const o = oldOf(r);
      const legacy = s as unknown as { firstEventMs?: { p50: number } };
      const w = slow(r);
      return `| ${r.report} | ${r.label} | ${int(s.rows)} | ${f1(r.engine.p50)} | ${f1(e?.floor.p50)} | ${ratio(e?.ratio)} | ${f1(o?.floor.p50)} | ${f1(s.firstRowMs?.p50)} | ${f1(s.floorFirstRowMs?.p50)} | ${f1(s.summaryMs?.p50 ?? legacy.firstEventMs?.p50)} | ${int(s.rowsPerSecond)} | ${int(e ? s.floorRowsPerSecond : undefined)} | ${int(e ? s.oldFloorRowsPerSecond : s.floorRowsPerSecond)} | ${s.rssGrowthMiB.toFixed(1)} MiB | ${f1(w?.firstRowMs ?? undefined)} | ${w ? `${w.rssGrowthMiB.toFixed(1)} MiB` : '–'} | ${f1(r.maxStallMs)} | ${r.engine.n} | ${r.checked} |`;
    }),
  ];
}

function scalingTable(runs: readonly ScaleResult[]): string[] {
  const one = runs.find((r) => r.scale === 1);
  const ten = runs.find((r) => r.scale === 10);
  if (!one || !ten) return ['Needs runs at scales 1 and 10.'];
  const lines = [
    '| report | request | scale 1 p50 | scale 10 p50 | scale 10 / scale 1 | floor scale 1 | floor scale 10 |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const a of one.reports.filter((r) => r.windowSeries && (r.windowDays === 30 || r.windowDays === 365))) {
    const b = ten.reports.find((r) => r.report === a.report && r.id === a.id);
    if (b)
      lines.push(
        `| ${a.report} | ${a.label} | ${f1(a.engine.p50)} | ${f1(b.engine.p50)} | ${(b.engine.p50 / a.engine.p50).toFixed(2)} | ${f1(a.floor.p50)} | ${f1(b.floor.p50)} |`,
      );
  }
  return lines;
}

function httpTable(http: HttpResult | null | undefined): string[] {
  if (!http) return [];
  return [
    `**HTTP load.** \`aea serve\` as a child process with **the rate limit disabled (\`--rate-limit 0\`)**, a key made on a fresh state file, started in ${f1(http.serverStartMs)} ms; autocannon over loopback in the bench process (same 2 cores), ${http.warmupSeconds} s of warm-up at 4 connections, then each level for ${http.levels[0]?.seconds.toFixed(0) ?? '–'} s, cycling through: ${http.mix.join('; ')}. Server RSS from /proc/<pid>/status.`,
    '',
    '| connections | requests | req/s | p50 ms | p99 ms | max ms | errors | timeouts | non-2xx | server RSS at start | server RSS peak |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...http.levels.map(
      (l) =>
        `| ${l.connections} | ${int(l.requests)} | ${f1(l.requestsPerSecond)} | ${l.p50Ms} | ${l.p99Ms} | ${l.maxMs} | ${l.errors} | ${l.timeouts} | ${l.non2xx} | ${l.rssStartMiB.toFixed(0)} MiB | ${l.rssPeakMiB.toFixed(0)} MiB |`,
    ),
    '',
  ];
}

function goalsTable(runs: readonly ScaleResult[]): string[] {
  const rows = goalsByReport(runs);
  const keys = Object.keys(goalColumns) as (keyof typeof goalColumns)[];
  return [
    '| report | ' + keys.map((k) => goalColumns[k]).join(' | ') + ' |',
    '|---|' + keys.map(() => '---|').join(''),
    ...rows.map((r) => `| ${r.report} | ${keys.map((k) => r.cells[k]).join(' | ')} |`),
  ];
}

/** bench/RESULTS.md from the latest run of each scale; the hand-written analysis is carried over. */
export function renderResults(runs: readonly ScaleResult[], previous: string | null): string {
  const sorted = [...runs].sort((a, b) => a.scale - b.scale);
  const kept =
    previous && previous.includes(analysisStart) && previous.includes(analysisEnd)
      ? previous.slice(previous.indexOf(analysisStart), previous.indexOf(analysisEnd) + analysisEnd.length)
      : `${analysisStart}\n${analysisEnd}`;
  const goals = evaluateGoals(sorted);
  const out: string[] = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (or `npx aea bench`) from the latest `bench/results/<date>-<scale>.json` of each scale; only the analysis section is written by hand.',
    '',
    "Every request runs the engine (the library call, returning the JSON body the REST service would send), the expert floor (bench/floors: the fewest, leanest DuckDB statements for the same answer, over the facts or a floor rollup, read as columns with the answer written as JSON in JS, all inside the timed span), the old floor (the first round's single hand-written statement, kept one round so the change of floor shows) and, for the window series, the peers, interleaved in a rotating order on fresh parameters each iteration (another category, the window moved a day), after a warm-up. Answers are compared on every page iteration and on the warm-up runs of streams; a difference stops the bench. Runs recorded before the expert floors show their floor as the old floor.",
    '',
    '**Noise.** The machine has 2 cores and other test suites ran on it during these runs, so absolute times are noisy; ratios from one interleaved run (engine/floor, engine/peer) are the trustworthy figures. Times in ms.',
    '',
    '## Goals',
    '',
    'Issue 23 (lean plans) judges the engine against the expert floors (goals as issue 23 states them, applied to the recorded runs); issue 13 (streams, memory, fair sharing) against the server runs and the streams at scale 1.',
    '',
    '| goal | status | detail |',
    '|---|---|---|',
    ...goals.map((g) => `| ${g.goal} | ${g.status} | ${g.detail} |`),
    '',
    '### Goals by report',
    '',
    'Checks passed per report over both scales: `met (n)` when all n pass, `missed k of n` otherwise, `–` where no request of the report is judged on the goal. Why each miss happens is in the analysis below.',
    '',
    ...goalsTable(sorted),
    '',
  ];
  for (const run of sorted) {
    out.push(
      `## Scale ${run.scale}`,
      '',
      `${run.date}, commit \`${run.commit}\`, ${run.machine.cpus}, ${run.machine.memory}, ${run.machine.os}, Node ${run.machine.node}, DuckDB ${run.machine.duckdb}. ` +
        `Dataset: ${int(run.dataset.executions)} executions, ${int(run.dataset.mentions)} mentions; engine opened in ${f1(run.openMs)} ms${Object.entries(
          run.setupMs ?? {},
        )
          .map(([r, ms]) => `, ${r} rollups built in ${f1(ms)} ms`)
          .join('')}. ` +
        `${run.options.iterations} timed runs per side after ${run.options.warmup} warm-up runs` +
        (run.options.requestBudgetSeconds
          ? `, fewer (at least ${run.options.minIterations}) once a request's engine and floor runs pass ${run.options.requestBudgetSeconds} s (column runs)`
          : '') +
        ` (peers: at least 3, then until ${run.options.peerBudgetSeconds} s).` +
        (run.reruns ?? [])
          .map((r) => ` Rerun on ${r.date} at commit \`${r.commit}\`: ${r.reports.join(', ')}.`)
          .join(''),
      '',
    );
    for (const [file] of charts(run)) out.push(`![${file.replace(/\.svg$/, '')}](results/${file})`, '');
    out.push(...pageTable(run), ...streamTable(run), '', ...httpTable(run.http), ...serverSection(run.server));
  }
  out.push(
    '## Scaling: a fixed window at scales 1 and 10',
    '',
    ...scalingTable(sorted),
    '',
    ...floorRollupsSection(sorted),
    '## Analysis',
    '',
    kept,
    '',
  );
  return out.join('\n');
}
