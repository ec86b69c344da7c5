import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface Stats {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly min: number;
  readonly max: number;
}

/** Nearest-rank percentile of milliseconds. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function stats(samples: readonly number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: round(percentile(s, 50)),
    p95: round(percentile(s, 95)),
    min: round(s[0] ?? NaN),
    max: round(s[s.length - 1] ?? NaN),
  };
}

export const round = (x: number, digits = 3) => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : x);

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** The longest the event loop waited while `fn` ran, in ms (perf_hooks at 1 ms resolution). */
export class StallMonitor {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 1 });
  maxMs = 0;

  async around<T>(fn: () => Promise<T>): Promise<T> {
    this.histogram.reset();
    this.histogram.enable();
    try {
      return await fn();
    } finally {
      this.histogram.disable();
      const max = this.histogram.max / 1e6;
      if (Number.isFinite(max) && this.histogram.count > 0) this.maxMs = Math.max(this.maxMs, max);
    }
  }
}

/** Peak resident set growth over a baseline, sampled by the caller as it consumes. */
export class RssPeak {
  private readonly base = process.memoryUsage.rss();
  private peak = this.base;

  sample(): void {
    const now = process.memoryUsage.rss();
    if (now > this.peak) this.peak = now;
  }

  get growthMiB(): number {
    this.sample();
    return (this.peak - this.base) / 2 ** 20;
  }
}

/** Runs the garbage collector when node was started with --expose-gc, so memory baselines are clean. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
