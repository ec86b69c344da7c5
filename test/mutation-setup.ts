import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifestFileName } from '../src/model/layout.ts';
import { generatorFingerprint, sampleDir } from '../src/generate/sample.ts';
import { watchTemp } from './temp-watch.ts';

/**
 * The setup of mutation mode (vitest.mutation.config.ts): data/sample must already be built from clean
 * sources (`npm run mutation` builds it before Stryker starts). It is never rebuilt here: a rebuild
 * would run inside Stryker's sandbox on instrumented code, for every test run.
 */
export default function setup(): () => void {
  const manifest = join(sampleDir, manifestFileName);
  const built = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { fingerprint?: string }).fingerprint
    : undefined;
  if (built !== generatorFingerprint())
    throw new Error(
      `${sampleDir} is ${built === undefined ? 'missing' : 'stale'}: run \`npm run mutation\`, which builds it before Stryker starts`,
    );
  return watchTemp();
}
