import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const aeaBin = fileURLToPath(new URL('../../src/cli/aea.mjs', import.meta.url));

/** Runs the real `aea` command; resolves with its exit code and output, never rejects on a non-zero exit. */
export function aea(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [aeaBin, ...args],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Runs an `aea` command line in this process through the same entry point, capturing its output. */
export async function aeaInProcess(
  args: string[],
  input = '',
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { runCli } = await import('../../src/cli/run-cli.ts');
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    out: (t) => void (stdout += t),
    err: (t) => void (stderr += t),
    stdin: async () => input,
    stopped: () => new Promise(() => undefined),
  });
  return { code, stdout, stderr };
}
