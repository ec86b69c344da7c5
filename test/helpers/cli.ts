import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const aeaBin = fileURLToPath(new URL('../../src/cli/aea.mjs', import.meta.url));

/** Runs the real `aea` command; resolves with its exit code and output, never rejects on a non-zero exit. */
export function aea(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [aeaBin, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}
