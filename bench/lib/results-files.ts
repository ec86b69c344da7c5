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
    writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`);
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
