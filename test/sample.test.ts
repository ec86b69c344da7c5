import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { generatorFingerprint } from '../src/generate/sample.ts';

describe('the bundled sample', () => {
  it('has one fingerprint under every loader, so tests and the CLI never take turns rebuilding it', () => {
    const script =
      "import('tsx/esm/api').then((m) => { m.register(); return import('./src/generate/sample.ts'); }).then((s) => process.stdout.write(s.generatorFingerprint()))";
    expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })).toBe(generatorFingerprint());
  });
});
