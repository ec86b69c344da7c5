import { beforeAll, describe, expect, it } from 'vitest';
import { reportCases } from '../bench/cases/index.ts';
import { defaultOptions, runBench } from '../bench/lib/bench.ts';
import { evaluateGoals, goalNames, goalsByReport } from '../bench/lib/goals.ts';
import { reportFloors } from '../bench/floors/index.ts';
import { defaultServerRunOptions } from '../bench/lib/server-runs.ts';
import { charts, latencyChart, renderResults } from '../bench/lib/results-md.ts';
import { aea } from './helpers/cli.ts';

/**
 * One bench run serves the two tests below, every report case and then the server runs: a run of its own
 * for the server would open the dataset and run a case again.
 */
let run: Awaited<ReturnType<typeof runBench>>[number] | undefined;
beforeAll(async () => {
  // One warm-up run per side and no timed runs: every answer is compared, nothing is timed.
  [run] = await runBench({
    ...defaultOptions,
    scales: [0.01],
    iterations: 0,
    warmup: 1,
    peerBudgetSeconds: 0,
    planIterations: 2,
    http: null,
    server: {
      ...defaultServerRunOptions,
      seconds: 0.5,
      warmupSeconds: 0,
      // Two counts prove the levels loop; the bench itself loads 1, 16 and 64 connections.
      levels: [1, 16],
      // Half a second still reads each stream past its first row (about 300 ms at 5 KB/s).
      slowSeconds: 0.5,
      // Four readers and three heavy requests run the same code as the bench's eight and six.
      readers: 4,
      heavy: 3,
      afterSeconds: 0,
      settleSeconds: 0,
    },
    quiet: true,
    log: () => {},
  });
}, 300_000);

describe('bench smoke run (scale 0.01)', () => {
  it('runs every request of every report case once, engine, floor and peers giving equal answers', async () => {
    const expected = reportCases.flatMap((c) =>
      c
        .requests({ dir: '', scale: 0, rows: {}, firstDay: '', lastDay: '', categories: [], generated: false })
        .map((r) => `${c.report} ${r.id}`),
    );
    expect(run!.reports.map((r) => `${r.report} ${r.id}`)).toEqual(expected);
    for (const r of run!.reports) {
      expect(r.checked, `${r.report} ${r.id} compared answers`).toBe(1);
      expect(r.engine.n).toBe(0);
      expect(r.oldFloor, `${r.report} ${r.id} ran the old floor beside the expert one`).not.toBeNull();
      if (r.windowSeries && r.report === 'visibility')
        expect(Object.keys(r.peers).sort()).toEqual(['arquero', 'polars']);
    }
    const withRows = new Set(run!.reports.filter((r) => r.resultRows > 0).map((r) => r.report));
    expect([...withRows].sort(), 'every report answered rows somewhere').toEqual(
      reportCases.map((c) => c.report).sort(),
    );
    expect(run!.reports.filter((r) => r.kind === 'stream' && r.resultRows > 0).length).toBeGreaterThan(5);

    const md = renderResults([run!], null);
    expect(md).toContain(`## Scale 0.01`);
    expect(evaluateGoals([run!]).map((g) => g.goal)).toEqual(Object.values(goalNames));
    expect(Object.keys(run!.floorSetupMs ?? {}).sort()).toEqual(
      reportFloors
        .filter((f) => (f.rollups ?? []).length > 0)
        .map((f) => f.report)
        .sort(),
    );
    expect(md).toContain('## Floor rollups');
    for (const f of reportFloors) for (const r of f.rollups ?? []) expect(md).toContain(`\`${r.name}\``);
    expect(goalsByReport([run!]).map((g) => g.report)).toEqual(reportCases.map((c) => c.report));
    expect(latencyChart(run!)).toMatch(
      /^<svg[\s\S]*visibility[\s\S]*engine[\s\S]*floor[\s\S]*arquero[\s\S]*polars[\s\S]*<\/svg>\n$/,
    );
    expect(charts(run!).map(([file]) => file)).toEqual([
      'latency-scale-0.01.svg',
      'reports-scale-0.01.svg',
      'ratio-scale-0.01.svg',
    ]);
  });

  it('runs the server runs against aea serve: the floor server, every stream read slowly, slow readers, mixed load and a PATCH', () => {
    const s = run!.server!;
    expect(s.visibilityHttp.engine.requests).toBeGreaterThan(0);
    expect(s.visibilityHttp.floor.requests).toBeGreaterThan(0);
    expect([s.visibilityHttp.engine.errors, s.visibilityHttp.floor.errors]).toEqual([0, 0]);
    const levels = s.visibilityHttp.levels!;
    expect(levels.map((l) => l.connections)).toEqual([1, 16]);
    for (const l of levels)
      for (const side of [l.engine, l.bare, l.floor]) {
        expect(side.requests, `${l.connections} connections`).toBeGreaterThan(0);
        expect(side.errors, `${l.connections} connections`).toBe(0);
        expect(side.cpuMsPerRequest, `${l.connections} connections`).toBeGreaterThan(0);
      }
    expect(s.visibilityHttp.engine).toEqual(levels.find((l) => l.connections === 16)!.engine);
    const streams = reportCases.flatMap((c) =>
      c
        .requests({ dir: '', scale: 0, rows: {}, firstDay: '', lastDay: '', categories: [], generated: false })
        .filter((r) => r.kind === 'stream')
        .map((r) => `${c.report} ${r.id}`),
    );
    expect(s.slowStreams.map((x) => `${x.report} ${x.id}`)).toEqual(streams);
    for (const x of s.slowStreams) expect(x.status, `${x.report} ${x.id}`).toBe(200);
    expect(s.slowReaders.statuses).toEqual(Array(4).fill(200));
    expect(s.mixed.heavy.map((h) => h.status)).toEqual(Array(3).fill(200));
    expect(s.mixed.light.n).toBeGreaterThan(0);
    expect(s.mixed.light.errors).toBe(0);
    expect(s.patch.newTags).toBeGreaterThan(0);
    expect([s.patch.status, s.patch.tagsCreated]).toEqual([200, s.patch.newTags]);
    const md = renderResults([run!], null);
    for (const part of [
      '**Server runs**',
      '| 1 | aea serve |',
      '| 16 | bare library |',
      '| 16 | floor server |',
      'slow readers on 4 keys',
      '**Mixed load**',
      '**PATCH**',
    ])
      expect(md).toContain(part);
    expect(evaluateGoals([run!]).find((g) => g.goal === goalNames.http)!.status).not.toBe('not measured');
  });

  it('aea bench names an unknown report', async () => {
    const out = await aea(['bench', '--scale', '0.01', '--only', 'nope', '--no-write']);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(
      `aea: no bench case for report(s) nope; known: ${reportCases.map((c) => c.report).join(', ')}`,
    );
  });
});
