import { basename } from 'node:path';
import { ensureSample } from '../src/generate/sample.ts';
import { watchTemp } from './temp-watch.ts';

/**
 * The suite's setup: data/sample built (or rebuilt when the generator changed), then the temp directory
 * watched. vitest keeps a folder of its own run there (`tmpDir`), removed when it closes, after this
 * teardown: it is vitest's, not the suite's.
 */
export default async function setup(project: { readonly tmpDir?: string }): Promise<() => void> {
  await ensureSample();
  return watchTemp(project.tmpDir === undefined ? [] : [basename(project.tmpDir)]);
}
