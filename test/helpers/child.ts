import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./state-child.ts', import.meta.url));

export interface Child {
  readonly process: ChildProcess;
  /** Every line printed so far. */
  readonly lines: string[];
  /** Resolves with the first line that satisfies `test`. */
  waitFor(test: (line: string) => boolean): Promise<string>;
  /** SIGKILL, then resolves when the process is gone. */
  kill(): Promise<void>;
}

/** Starts test/helpers/state-child.ts through tsx. */
export function startChild(args: string[]): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { test: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  let stderr = '';
  let rest = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on('data', (d: Buffer) => {
    const parts = (rest + d.toString()).split('\n');
    rest = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const w of [...waiters]) if (w.test(line)) waiters.splice(waiters.indexOf(w), 1) && w.resolve(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    process: child,
    lines,
    waitFor(test) {
      const seen = lines.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ test, resolve });
        void exited.then(() =>
          reject(new Error(`child exited before the expected line; stderr: ${stderr.slice(-2000)}`)),
        );
      });
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
