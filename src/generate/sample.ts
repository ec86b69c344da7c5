import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { manifestFileName } from '../model/layout.ts';
import { generateDataset, type GenerateResult } from './generate.ts';
import type { Progress } from './progress.ts';
import { defaultStatePath } from '../state/default-path.ts';

export const sampleDir = fileURLToPath(new URL('../../data/sample', import.meta.url));
export const sampleSeed = 1;
export const sampleScale = 0.02;

// Paths from the package's source root, so they hold from this module and from the bundled CLI's chunks alike (scripts/bundle-cli.mjs).
const sources = [
  '../model/tables',
  '../model/column',
  '../generate/dims-sql',
  '../generate/facts-sql',
  '../generate/knowledge-sql',
  '../generate/traffic-sql',
  '../generate/vocab',
  '../generate/vocab-tables',
  '../generate/agent-templates',
  '../generate/generate',
  '../generate/jobs',
  '../generate/table-writer',
];
/** `.ts` when run from the sources, `.js` in the built package: the fingerprint reads the modules that run. */
const extension = import.meta.url.slice(import.meta.url.lastIndexOf('.'));

/**
 * A fingerprint of the contract and the generator: their source text, so every loader (tsx, vitest)
 * computes the same value. When it changes, the bundled sample is rebuilt.
 */
export function generatorFingerprint(): string {
  const hash = createHash('sha256');
  for (const file of sources) hash.update(readFileSync(new URL(file + extension, import.meta.url)));
  return hash.digest('hex').slice(0, 16);
}

/** Writes the sample (the same tables as data/sample) into `out`, replacing it. */
export function writeSample(out: string, progress?: Progress): Promise<GenerateResult> {
  return generateDataset({ out, scale: sampleScale, seed: sampleSeed, progress, fingerprint: generatorFingerprint() });
}

/** Builds data/sample when it is missing or was made by another version of the contract or generator. */
export async function ensureSample(progress?: Progress): Promise<string> {
  const manifest = join(sampleDir, manifestFileName);
  if (existsSync(manifest)) {
    const current = JSON.parse(readFileSync(manifest, 'utf8')) as { fingerprint?: string };
    if (current.fingerprint === generatorFingerprint()) return sampleDir;
  }
  await writeSample(sampleDir, progress);
  // The CLI's default state store copied the old sample's prompts; it would refuse to open over the new one.
  for (const f of [defaultStatePath(sampleDir), `${defaultStatePath(sampleDir)}.wal`]) rmSync(f, { force: true });
  return sampleDir;
}
