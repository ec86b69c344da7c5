import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { remember, removeTemp } from '../../src/engine/temp-paths.ts';

const made = new Set<string>();

/**
 * A temporary folder removed after the file's tests (by test/remove-temp-dirs.ts, a setup file that
 * registers its `afterAll` in every test file). Most callers are `beforeAll` hooks, where an `afterAll`
 * is silently ignored: that once left a folder per test file in the temp directory.
 */
export async function tempDir(prefix = 'aea-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.add(dir);
  remember(dir);
  return dir;
}

/** Removes every folder `tempDir` made so far. */
export async function removeTempDirs(): Promise<void> {
  for (const dir of made) await removeTemp(dir);
  made.clear();
}
