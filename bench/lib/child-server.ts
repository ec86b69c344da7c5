import { spawn } from 'node:child_process';

/** A bench server running as its own process (the floor server, the bare-library server). */
export interface ChildServer {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `tsx SCRIPT ...args` and resolves once it prints `listening on http://…`; `stop` sends SIGTERM
 * and kills it after 10 s, so a run never hangs on a server that does not exit.
 */
export function startChildServer(script: string, args: readonly string[], name: string): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m)
        resolve({
          url: m[1]!,
          pid: child.pid!,
          stop: async () => {
            const killed = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.kill('SIGTERM');
            await new Promise((r) => (child.exitCode !== null ? r(null) : child.on('exit', r)));
            clearTimeout(killed);
          },
        });
    });
    child.on('exit', (code) => reject(new Error(`the ${name} exited with ${code} before listening`)));
  });
}
