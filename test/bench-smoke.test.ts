import { describe, expect, it } from 'vitest';
import { reportCases } from '../bench/cases/index.ts';
import { defaultOptions, runBench } from '../bench/lib/bench.ts';
import { evaluateGoals } from '../bench/lib/goals.ts';
import { latencyChart, renderResults } from '../bench/lib/results-md.ts';
import { aea } from './helpers/cli.ts';

describe('bench smoke run (scale 0.01)', () => {
  it('runs every report case with engine, floor and peers giving equal answers', async () => {
    const [run] = await runBench({ ...defaultOptions, scales: [0.01], iterations: 2, warmup: 1, peerBudgetSeconds: 0, planIterations: 5, quiet: true, log: () => {} });
    const expected = reportCases.flatMap((c) => c.requests({ dir: '', scale: 0, rows: {}, firstDay: '', lastDay: '', categories: [], generated: false }).map((r) => `${c.report} ${r.id}`));
    expect(run!.reports.map((r) => `${r.report} ${r.id}`)).toEqual(expected);
    for (const r of run!.reports) {
      expect(r.checked, `${r.id} compared answers`).toBeGreaterThanOrEqual(r.kind === 'page' ? 3 : 1);
      expect(r.engine.n).toBe(2);
      expect(r.floor.n).toBe(2);
      if (r.windowSeries) expect(Object.keys(r.peers).sort()).toEqual(['arquero', 'polars']);
    }
    const stream = run!.reports.find((r) => r.kind === 'stream')!;
    expect(stream.stream!.rows).toBeGreaterThan(0);
    expect(run!.reports.some((r) => r.kind === 'page' && r.resultRows > 0)).toBe(true);

    const md = renderResults([run!], null);
    expect(md).toContain(`## Scale 0.01`);
    expect(evaluateGoals([run!]).map((g) => g.goal)).toHaveLength(8);
    expect(latencyChart(run!)).toMatch(/^<svg[\s\S]*engine[\s\S]*floor[\s\S]*arquero[\s\S]*polars[\s\S]*<\/svg>\n$/);
  });

  it('aea bench names an unknown report', async () => {
    const out = await aea(['bench', '--scale', '0.01', '--only', 'nope', '--no-write']);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('aea: no bench case for report(s) nope; known: visibility');
  });
});
