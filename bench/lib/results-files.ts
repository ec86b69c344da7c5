import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScaleResult } from './bench.ts';
import { charts, renderResults } from './results-md.ts';

const resultsDir = join('bench', 'results');
const resultsMd = join('bench', 'RESULTS.md');
const runFile = /^(\d{4}-\d{2}-\d{2})-([\d.]+)\.json$/;

/** The latest recorded run of each scale in bench/results. */
export function latestRuns(dir = resultsDir): ScaleResult[] {
  if (!existsSync(dir)) return [];
  const latest = new Map<number, { date: string; file: string }>();
  for (const file of readdirSync(dir)) {
    const m = runFile.exec(file);
    if (!m) continue;
    const scale = Number(m[2]);
    if (!latest.has(scale) || latest.get(scale)!.date < m[1]!) latest.set(scale, { date: m[1]!, file });
  }
  return [...latest.values()].map(({ file }) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as ScaleResult);
}

/** Records the runs, then rewrites the charts and bench/RESULTS.md from the latest run of every scale. */
export function writeResults(results: readonly ScaleResult[]): string[] {
  mkdirSync(resultsDir, { recursive: true });
  const written = results.map((r) => {
    const file = join(resultsDir, `${r.date}-${r.scale}.json`);
    const recorded =
      r.options.only && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ScaleResult) : null;
    writeFileSync(file, `${JSON.stringify(recorded ? mergeRerun(recorded, r) : r, null, 2)}\n`);
    return file;
  });
  const runs = latestRuns();
  for (const run of runs) {
    for (const [name, svg] of charts(run)) {
      const file = join(resultsDir, name);
      writeFileSync(file, svg);
      written.push(file);
    }
  }
  writeFileSync(resultsMd, renderResults(runs, existsSync(resultsMd) ? readFileSync(resultsMd, 'utf8') : null));
  return [...written, resultsMd];
}

/**
 * A partial run (`--only`) replaces the figures of the reports it ran, in their place, and keeps the rest
 * of the day's record; the record names the reports rerun and their commit.
 */
export function mergeRerun(recorded: ScaleResult, rerun: ScaleResult): ScaleResult {
  const rerunReports = new Set(rerun.reports.map((r) => r.report));
  const reports: ScaleResult['reports'][number][] = [];
  for (const r of recorded.reports) {
    if (!rerunReports.has(r.report)) reports.push(r);
    else if (!reports.some((x) => x.report === r.report))
      reports.push(...rerun.reports.filter((x) => x.report === r.report));
  }
  reports.push(...rerun.reports.filter((x) => !reports.includes(x)));
  return {
    ...recorded,
    setupMs: { ...recorded.setupMs, ...rerun.setupMs },
    floorSetupMs: { ...recorded.floorSetupMs, ...rerun.floorSetupMs },
    reports,
    http: rerun.http ?? recorded.http ?? null,
    server: rerun.server ?? recorded.server ?? null,
    reruns: [...(recorded.reruns ?? []), { date: rerun.date, commit: rerun.commit, reports: [...rerunReports] }],
  };
}
