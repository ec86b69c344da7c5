import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepStaleTemp } from '../src/engine/temp-paths.ts';

/** What this code base leaves in the temp directory when it leaks: its own prefixes and chdb's. */
const ours = (): string[] => readdirSync(tmpdir()).filter((n) => /^\.?aea-|^chdb-node-/.test(n));

/**
 * tsx keeps its compile cache in `tsx-<uid>` under the temp directory. The suite's children run through
 * tsx and share that cache (a child compiles the sources once, not once per spawn), so the run creates it
 * and removes it at the end, when no child is left to read it.
 */
const tsxCache = (): string => join(tmpdir(), `tsx-${process.getuid?.() ?? 0}`);

/**
 * The suite leaves the temp directory as it found it. Every worker removes its registered temp paths
 * when it exits; what children killed on purpose (SIGKILL trials) left is swept as the next start
 * would. Anything else new is a leak: with AEA_TMP_CHECK=1 (CI, whose TMPDIR is a fresh empty folder)
 * every new entry counts and the run fails naming it; otherwise (a shared developer temp directory,
 * where other programs come and go) this code base's own prefixes are reported.
 * `runnerOwn` names what the test runner itself keeps there until it exits. Returns the teardown that checks.
 */
export function watchTemp(runnerOwn: readonly string[] = []): () => void {
  const strict = process.env.AEA_TMP_CHECK === '1';
  const listed = (): string[] => (strict ? readdirSync(tmpdir()) : ours());
  const before = new Set(listed());
  const cacheBefore = existsSync(tsxCache());
  return () => {
    if (!cacheBefore) rmSync(tsxCache(), { recursive: true, force: true });
    const swept = sweepStaleTemp();
    const left = listed().filter((n) => !before.has(n) && !runnerOwn.includes(n));
    if (swept.length > 0)
      process.stderr.write(
        `test teardown: swept ${swept.length} temporary paths of killed processes: ${swept.join(', ')}\n`,
      );
    if (left.length === 0) return;
    const message = `the test run left ${left.length} temporary paths in ${tmpdir()}: ${left.join(', ')}`;
    // vitest reports an error thrown here but still exits 0, so the exit code is set as well.
    if (strict) process.exitCode = 1;
    process.stderr.write(`${strict ? 'error' : 'warning'}: ${message}\n`);
  };
}
