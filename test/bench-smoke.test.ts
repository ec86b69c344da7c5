import { describe, expect, it } from 'vitest';
import { reportCases } from '../bench/cases/index.ts';
import { defaultOptions, runBench } from '../bench/lib/bench.ts';
import { evaluateGoals, goalsByReport } from '../bench/lib/goals.ts';
import { charts, latencyChart, renderResults } from '../bench/lib/results-md.ts';
import { aea } from './helpers/cli.ts';

describe('bench smoke run (scale 0.01)', () => {
  it('runs every request of every report case once, engine, floor and peers giving equal answers', async () => {
    // One warm-up run per side and no timed runs: every answer is compared, nothing is timed.
    const [run] = await runBench({ ...defaultOptions, scales: [0.01], iterations: 0, warmup: 1, peerBudgetSeconds: 0, planIterations: 2, http: null, quiet: true, log: () => {} });
    const expected = reportCases.flatMap((c) => c.requests({ dir: '', scale: 0, rows: {}, firstDay: '', lastDay: '', categories: [], generated: false }).map((r) => `${c.report} ${r.id}`));
    expect(run!.reports.map((r) => `${r.report} ${r.id}`)).toEqual(expected);
    for (const r of run!.reports) {
      expect(r.checked, `${r.report} ${r.id} compared answers`).toBe(1);
      expect(r.engine.n).toBe(0);
      if (r.windowSeries && r.report === 'visibility') expect(Object.keys(r.peers).sort()).toEqual(['arquero', 'polars']);
    }
    const withRows = new Set(run!.reports.filter((r) => r.resultRows > 0).map((r) => r.report));
    expect([...withRows].sort(), 'every report answered rows somewhere').toEqual(reportCases.map((c) => c.report).sort());
    expect(run!.reports.filter((r) => r.kind === 'stream' && r.resultRows > 0).length).toBeGreaterThan(5);

    const md = renderResults([run!], null);
    expect(md).toContain(`## Scale 0.01`);
    expect(evaluateGoals([run!])).toHaveLength(8);
    expect(goalsByReport([run!]).map((g) => g.report)).toEqual(reportCases.map((c) => c.report));
    expect(latencyChart(run!)).toMatch(/^<svg[\s\S]*visibility[\s\S]*engine[\s\S]*floor[\s\S]*arquero[\s\S]*polars[\s\S]*<\/svg>\n$/);
    expect(charts(run!).map(([file]) => file)).toEqual(['latency-scale-0.01.svg', 'reports-scale-0.01.svg', 'ratio-scale-0.01.svg']);
  });

  it('aea bench names an unknown report', async () => {
    const out = await aea(['bench', '--scale', '0.01', '--only', 'nope', '--no-write']);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`aea: no bench case for report(s) nope; known: ${reportCases.map((c) => c.report).join(', ')}`);
  });
});
