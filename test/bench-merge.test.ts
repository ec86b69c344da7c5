import { describe, expect, it } from 'vitest';
import type { ScaleResult } from '../bench/lib/bench.ts';
import { mergeRerun } from '../bench/lib/results-files.ts';

const request = (report: string, id: string, p50: number) =>
  ({ report, id, p50 }) as unknown as ScaleResult['reports'][number];
const run = (commit: string, reports: ScaleResult['reports'], extra: Partial<ScaleResult> = {}) =>
  ({
    date: '2026-11-22',
    commit,
    scale: 1,
    setupMs: { visibility: 10 },
    reports,
    http: null,
    options: { iterations: 15 },
    ...extra,
  }) as unknown as ScaleResult;

describe('bench records', () => {
  it('a partial rerun replaces its reports in place, keeps the others and the HTTP run, and is named', () => {
    const recorded = run(
      'aaa',
      [
        request('visibility', 'w1', 30),
        request('answers', 'w1', 900),
        request('answers', 'w7', 950),
        request('bots', 'w1', 5),
      ],
      {
        http: { runs: [] } as never,
        server: { slowStreams: [] } as never,
        floorSetupMs: { visibility: 900, answers: 80 },
      },
    );
    const rerun = run(
      'bbb',
      [request('answers', 'w1', 90), request('answers', 'w7', 95), request('answers', 'stream', 500)],
      { setupMs: {}, floorSetupMs: { answers: 70 } },
    );
    const merged = mergeRerun(recorded, rerun);
    expect(merged.reports.map((r) => `${r.report}/${r.id}/${(r as unknown as { p50: number }).p50}`)).toEqual([
      'visibility/w1/30',
      'answers/w1/90',
      'answers/w7/95',
      'answers/stream/500',
      'bots/w1/5',
    ]);
    expect(merged.commit).toBe('aaa');
    expect(merged.http).toEqual({ runs: [] });
    expect(merged.setupMs).toEqual({ visibility: 10 });
    expect(merged.floorSetupMs).toEqual({ visibility: 900, answers: 70 });
    expect(merged.server).toEqual({ slowStreams: [] });
    expect(merged.reruns).toEqual([{ date: '2026-11-22', commit: 'bbb', reports: ['answers'] }]);
    expect(mergeRerun(merged, run('ccc', [request('citations', 'w1', 40)])).reports.at(-1)!.report).toBe('citations');
  });
});
