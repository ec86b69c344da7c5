import type { ScaleResult } from './bench.ts';
import { evaluateGoals } from './goals.ts';
import type { RequestResult } from './run-report.ts';
import { lineChartSvg } from './svg-chart.ts';

export const analysisStart = '<!-- analysis: written by hand, kept when the bench rewrites this file -->';
export const analysisEnd = '<!-- /analysis -->';

const f1 = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const int = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US'));
const peerNames = (run: ScaleResult) => [...new Set(run.reports.flatMap((r) => Object.keys(r.peers)))].sort();
const sideColors: Record<string, string> = { engine: '#d62728', floor: '#1f77b4', arquero: '#2ca02c', polars: '#9467bd' };

export const chartFile = (scale: number) => `latency-scale-${scale}.svg`;

/** Latency by window for engine, floor and peers: the window-series requests of each report. */
export function latencyChart(run: ScaleResult): string | null {
  const series = run.reports.filter((r) => r.windowSeries).sort((a, b) => a.windowDays - b.windowDays);
  if (series.length === 0) return null;
  const sides = ['engine', 'floor', ...peerNames(run)];
  const pick = (r: RequestResult, side: string) => (side === 'engine' ? r.engine.p50 : side === 'floor' ? r.floor.p50 : (r.peers[side]?.p50 ?? null));
  return lineChartSvg(
    `${series[0]!.report}: p50 latency by window, scale ${run.scale} (${run.commit}, ${run.date})`,
    series.map((r) => `${r.windowDays} d`),
    sides.map((s) => ({ name: s, color: sideColors[s] ?? '#7f7f7f', values: series.map((r) => pick(r, s)) })),
    'p50 ms (log scale)',
  );
}

function pageTable(run: ScaleResult): string[] {
  const peers = peerNames(run);
  const rows = run.reports.filter((r) => r.kind === 'page');
  return [
    `| report | request | engine p50 | p95 | floor p50 | p95 | engine/floor | plan p50 | ${peers.map((p) => `${p} p50`).join(' | ')}${peers.length ? ' | ' : ''}input rows/s | rows | max stall | checked |`,
    `|---|---|---:|---:|---:|---:|---:|---:|${peers.map(() => '---:|').join('')}---:|---:|---:|---:|`,
    ...rows.map(
      (r) =>
        `| ${r.report} | ${r.label} | ${f1(r.engine.p50)} | ${f1(r.engine.p95)} | ${f1(r.floor.p50)} | ${f1(r.floor.p95)} | ${r.ratio.toFixed(2)} | ${r.plan.p50.toFixed(3)} | ${peers
          .map((p) => (r.peers[p] ? `${f1(r.peers[p]!.p50)} (n=${r.peers[p]!.n})` : '–'))
          .join(' | ')}${peers.length ? ' | ' : ''}${int(r.inputRowsPerSecond)} | ${r.resultRows} | ${f1(r.maxStallMs)} | ${r.checked} |`,
    ),
  ];
}

function streamTable(run: ScaleResult): string[] {
  const rows = run.reports.filter((r) => r.stream);
  if (rows.length === 0) return [];
  return [
    '',
    '| report | stream | rows | engine p50 | floor p50 | engine/floor | first event p50 | engine rows/s | floor first chunk | floor rows/s | RSS growth | max stall | checked |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const s = r.stream!;
      return `| ${r.report} | ${r.label} | ${int(s.rows)} | ${f1(r.engine.p50)} | ${f1(r.floor.p50)} | ${r.ratio.toFixed(2)} | ${f1(s.firstEventMs.p50)} | ${int(s.rowsPerSecond)} | ${f1(s.floorFirstChunkMs.p50)} | ${int(s.floorRowsPerSecond)} | ${s.rssGrowthMiB.toFixed(1)} MiB | ${f1(r.maxStallMs)} | ${r.checked} |`;
    }),
  ];
}

function scalingTable(runs: readonly ScaleResult[]): string[] {
  const one = runs.find((r) => r.scale === 1);
  const ten = runs.find((r) => r.scale === 10);
  if (!one || !ten) return ['Needs runs at scales 1 and 10.'];
  const lines = ['| request | scale 1 p50 | scale 10 p50 | scale 10 / scale 1 | floor scale 1 | floor scale 10 |', '|---|---:|---:|---:|---:|---:|'];
  for (const days of [30, 365]) {
    const a = one.reports.find((r) => r.windowSeries && r.windowDays === days);
    const b = ten.reports.find((r) => r.windowSeries && r.windowDays === days);
    if (a && b) lines.push(`| ${a.report} ${a.label} | ${f1(a.engine.p50)} | ${f1(b.engine.p50)} | ${(b.engine.p50 / a.engine.p50).toFixed(2)} | ${f1(a.floor.p50)} | ${f1(b.floor.p50)} |`);
  }
  return lines;
}

/** bench/RESULTS.md from the latest run of each scale; the hand-written analysis is carried over. */
export function renderResults(runs: readonly ScaleResult[], previous: string | null): string {
  const sorted = [...runs].sort((a, b) => a.scale - b.scale);
  const kept = previous && previous.includes(analysisStart) && previous.includes(analysisEnd) ? previous.slice(previous.indexOf(analysisStart), previous.indexOf(analysisEnd) + analysisEnd.length) : `${analysisStart}\n${analysisEnd}`;
  const goals = evaluateGoals(sorted);
  const out: string[] = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (or `npx aea bench`) from the latest `bench/results/<date>-<scale>.json` of each scale; only the analysis section is written by hand.',
    '',
    'Every request runs the engine (the library call, returning the JSON body the REST service would send), the hand-written DuckDB floor (a prepared statement reused with new parameters), and, for the window series, the peers, interleaved in a rotating order on fresh parameters each iteration (another category, the window moved a day), after a warm-up. Answers are compared on every page iteration and on the warm-up runs of streams; a difference stops the bench.',
    '',
    '**Noise.** The machine has 2 cores and other test suites ran on it during these runs, so absolute times are noisy; ratios from one interleaved run (engine/floor, engine/peer) are the trustworthy figures. Times in ms.',
    '',
    '## Goals',
    '',
    '| goal | status | detail |',
    '|---|---|---|',
    ...goals.map((g) => `| ${g.goal} | ${g.status} | ${g.detail} |`),
    '',
  ];
  for (const run of sorted) {
    out.push(
      `## Scale ${run.scale}`,
      '',
      `${run.date}, commit \`${run.commit}\`, ${run.machine.cpus}, ${run.machine.memory}, ${run.machine.os}, Node ${run.machine.node}, DuckDB ${run.machine.duckdb}. ` +
        `Dataset: ${int(run.dataset.executions)} executions, ${int(run.dataset.mentions)} mentions; engine opened in ${f1(run.openMs)} ms${Object.entries(run.setupMs ?? {}).map(([r, ms]) => `, ${r} rollups built in ${f1(ms)} ms`).join('')}. ` +
        `${run.options.iterations} timed runs per side after ${run.options.warmup} warm-up runs (peers: at least 3, then until ${run.options.peerBudgetSeconds} s).`,
      '',
    );
    if (latencyChart(run)) out.push(`![p50 latency by window, scale ${run.scale}](results/${chartFile(run.scale)})`, '');
    out.push(...pageTable(run), ...streamTable(run), '');
  }
  out.push('## Scaling: a fixed window at scales 1 and 10', '', ...scalingTable(sorted), '', '## Analysis', '', kept, '');
  return out.join('\n');
}
