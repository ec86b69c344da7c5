import cliProgress from 'cli-progress';

export interface Progress {
  start(total: number): void;
  tick(label: string): void;
  stop(): void;
}

export const silentProgress: Progress = { start() {}, tick() {}, stop() {} };

/** A progress bar on stderr; on a non-TTY it prints a line every few seconds instead of redrawing. */
export function stderrProgress(title: string): Progress {
  const bar = new cliProgress.SingleBar(
    {
      format: `${title} [{bar}] {percentage}% | {value}/{total} | {step}`,
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 5000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  return {
    start: (total) => bar.start(total, 0, { step: 'starting' }),
    tick: (label) => bar.increment(1, { step: label }),
    stop: () => bar.stop(),
  };
}
