import { createRequire } from 'node:module';
import type cliProgressModule from 'cli-progress';

/** What the generator reports: an estimate of the rows it will write, then rows as each step writes them. */
export interface Progress {
  start(estimatedRows: number): void;
  /** `rows` more rows are written (0 for a step that writes none); `label` names the step that just ended. */
  advance(rows: number, label: string): void;
  /** The estimate, replaced once the generator knows how many executions it drew. */
  estimate(estimatedRows: number): void;
  stop(): void;
}

export const silentProgress: Progress = { start() {}, advance() {}, estimate() {}, stop() {} };

const millions = (n: number) => `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)} M`;

/** Time left at the average rate since the first row, e.g. "about 2m 05s left". */
export function timeLeft(written: number, total: number, elapsedMs: number): string {
  if (written <= 0 || elapsedMs <= 0) return 'time left unknown until the first rows';
  const seconds = Math.max(0, Math.round(((total - written) / written) * (elapsedMs / 1000)));
  const m = Math.floor(seconds / 60);
  return `about ${m > 0 ? `${m}m ${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`} left`;
}

/**
 * A progress bar on stderr: rows written, the estimate, and the time left at the rate so far.
 * On a non-TTY it prints a line every few seconds instead of redrawing.
 */
export function stderrProgress(title: string): Progress {
  // Required on first use, like the other CLI-only modules: `aea` commands that never generate skip loading it.
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
  const bar = new cliProgress.SingleBar(
    {
      format: `${title} [{bar}] {percentage}% | {rows} of about {estimate} rows | {left} | {step}`,
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 5000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let written = 0;
  let total = 1;
  // The rate counts from the estimate (the writing starts there), so the setup's seconds without rows do not skew it.
  let since = performance.now();
  const payload = (step: string) => ({
    step,
    rows: millions(written),
    estimate: millions(total),
    left: timeLeft(written, total, performance.now() - since),
  });
  return {
    start: (estimatedRows) => {
      since = performance.now();
      total = Math.max(1, Math.round(estimatedRows));
      bar.start(total, 0, payload('starting'));
    },
    advance: (rows, label) => {
      written += rows;
      // The estimate can fall short; the bar then waits at 99% rather than passing 100%.
      if (written >= total) bar.setTotal((total = Math.ceil(written / 0.99)));
      bar.update(written, payload(label));
    },
    estimate: (estimatedRows) => {
      since = performance.now();
      total = Math.max(written + 1, Math.round(estimatedRows));
      bar.setTotal(total);
      bar.update(written, payload('estimate from the executions drawn'));
    },
    stop: () => {
      bar.setTotal((total = Math.max(1, written)));
      bar.update(written, payload('done'));
      bar.stop();
    },
  };
}
