import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { sweepStaleTemp } from '../src/engine/temp-paths.ts';

/** What this code base leaves in the temp directory when it leaks: its own prefixes and chdb's. */
const ours = (): string[] => readdirSync(tmpdir()).filter((n) => /^\.?aea-|^chdb-node-/.test(n));

/**
 * The suite leaves the temp directory as it found it. Every worker removes its registered temp paths
 * when it exits; what children killed on purpose (SIGKILL trials) left is swept as the next start
 * would. Anything else new is a leak: with AEA_TMP_CHECK=1 (CI, whose TMPDIR is a fresh empty folder)
 * the run fails naming it; otherwise (a shared developer temp directory) it is reported.
 * Returns the teardown that checks.
 */
export function watchTemp(): () => void {
  const before = new Set(ours());
  return () => {
    const swept = sweepStaleTemp();
    const left = ours().filter((n) => !before.has(n));
    if (swept.length > 0)
      process.stderr.write(
        `test teardown: swept ${swept.length} temporary paths of killed processes: ${swept.join(', ')}\n`,
      );
    if (left.length === 0) return;
    const message = `the test run left ${left.length} temporary paths in ${tmpdir()}: ${left.join(', ')}`;
    // vitest reports an error thrown here but still exits 0, so the exit code is set as well.
    if (process.env.AEA_TMP_CHECK === '1') process.exitCode = 1;
    process.stderr.write(`${process.env.AEA_TMP_CHECK === '1' ? 'error' : 'warning'}: ${message}\n`);
  };
}
