// The `aea` command as one ES module graph of a few chunks (dist/aea/), packages left as imports: Node's
// loader spent about 0.2 s resolving, reading and linking some 180 modules of this package on every call
// (bench/RESULTS.md, CLI start). Commands stay lazy: each is a chunk of its own, loaded on use.
// dist/aea/ sits one folder below dist/, as every source folder does, so a path a module builds from
// its own URL ('../knowledge/…', '../../data/sample') means the same from a chunk.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

const out = new URL('../dist/aea/', import.meta.url).pathname;
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: [new URL('../src/cli/main.ts', import.meta.url).pathname],
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
