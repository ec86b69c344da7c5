import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openEngine } from '../src/open-engine.ts';
import { ensureSample } from '../src/generate/sample.ts';
import { extensionCases, type ExtensionCase } from './cases/extensions.ts';

/**
 * What each report extension costs against the same request without it (docs/extensions.md), through
 * the library, over the cases of bench/cases/extensions.ts: the plain request and the extended one run interleaved, after a warm-up, and the
 * medians are compared with the goals (each ≤ 1.3× the plain request, compare ≤ 2.1×, explain
 * ≤ 5 ms). The fingerprint is always on, so it is inside every figure; its own cost is timed alone.
 *
 *   npm run bench:extensions -- [--data DIR] [--rounds 15]
 *
 * The default dataset is bench/data/scale-1 when it exists, else the bundled sample.
 */
const args = process.argv.slice(2);
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const rounds = Number(flag('--rounds') ?? 15);
const data = flag('--data') ?? (existsSync('bench/data/scale-1') ? 'bench/data/scale-1' : await ensureSample());

const engine = await openEngine({ data, resultCache: 0 });
const [org] = await engine.listOrganizations();
const acme = engine.org(org!.id);
const category = org!.categories[0]!.id;
const domain = org!.domains[0]!.name;

const cases = extensionCases(category, domain);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const timed = async (call: ExtensionCase['plain']) => {
  const t0 = performance.now();
  await call(acme);
  return performance.now() - t0;
};

console.log(`dataset ${data}, ${rounds} interleaved rounds after a warm-up, medians\n`);
console.log('| case | plain ms | extended ms | ratio | goal | met |');
console.log('|---|---|---|---|---|---|');
for (const c of cases) {
  for (let i = 0; i < 3; i++) await Promise.all([c.plain(acme), c.extended(acme)]);
  const plain: number[] = [];
  const extended: number[] = [];
  for (let i = 0; i < rounds; i++) {
    plain.push(await timed(c.plain));
    extended.push(await timed(c.extended));
  }
  const [p, e] = [median(plain), median(extended)];
  const goal = c.goal.ms !== undefined ? `≤ ${c.goal.ms} ms` : `≤ ${c.goal.ratio}×`;
  const met = c.goal.ms !== undefined ? e <= c.goal.ms : e / p <= c.goal.ratio!;
  console.log(
    `| ${c.name} | ${p.toFixed(2)} | ${e.toFixed(2)} | ${(e / p).toFixed(2)}× | ${goal} | ${met ? 'yes' : 'no'} |`,
  );
}

// The fingerprint alone: hashing the normalized request once the dataset version is known.
const fingerprints: number[] = [];
for (let i = 0; i < rounds; i++) {
  const t0 = performance.now();
  await engine.core.version.current();
  fingerprints.push(performance.now() - t0);
}
console.log(
  `\ndataset version lookup (every request, cached after the first): median ${median(fingerprints).toFixed(3)} ms`,
);
await engine.close();
