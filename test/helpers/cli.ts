import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const built = join(root, 'dist', 'aea', 'main.js');
const sources = join(root, 'src', 'cli', 'aea.mjs');

/** Whether dist/ holds a build of the current sources: no file under src/ is newer, as bin/aea.mjs decides. */
export function buildIsCurrent(): boolean {
  if (!existsSync(built)) return false;
  const builtAt = statSync(built).mtimeMs;
  return !readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true }).some(
    (e) => e.isFile() && statSync(join(e.parentPath, e.name)).mtimeMs > builtAt,
  );
}

/**
 * The `aea` the tests spawn: the build when it is current (a clean clone's, which `npm ci` makes), as
 * bin/aea.mjs would run it, else the sources through tsx. The build starts with about a second less CPU
 * than the sources, and the suite spawns it dozens of times. Decided once per worker, so a rebuild
 * during the run (test/package.test.ts builds only a stale dist/) never changes it halfway.
 */
export const aeaBin = buildIsCurrent() ? built : sources;

/** Runs the real `aea` command; resolves with its exit code and output, never rejects on a non-zero exit. */
export function aea(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      // `aea bench` lives beside src/ and is never built: bin/aea.mjs runs it from the sources too.
      [args[0] === 'bench' ? sources : aeaBin, ...args],
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
