import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openEngine } from '../src/open-engine.ts';
import { ensureSample } from '../src/generate/sample.ts';
import type { OrgScope } from '../src/engine/org-scope.ts';

/**
 * What each report extension costs against the same request without it (docs/extensions.md), through
 * the library: the plain request and the extended one run interleaved, after a warm-up, and the
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

const engine = await openEngine({ data });
const [org] = await engine.listOrganizations();
const acme = engine.org(org!.id);
const category = org!.categories[0]!.id;
const domain = org!.domains[0]!.name;

type Call = (scope: OrgScope) => Promise<unknown>;
interface Case {
  readonly name: string;
  readonly goal: { readonly ratio?: number; readonly ms?: number };
  readonly plain: Call;
  readonly extended: Call;
}

const v2 = { category_id: category, start_date: '2026-09-01', end_date: '2026-09-30', scope: 'all', limit: 10 };
const v2Days = { ...v2, group_by: ['date', 'model'], limit: 50 };
const v1 = { category_id: category, start_date: '2026-09-01', end_date: '2026-10-01', metrics: ['visibility_score', 'share_of_voice', 'executions'], dimensions: ['model', 'date'], date_interval: 'day', pagination: { limit: 1000, offset: 0 } };
const traffic = { domain, start_date: '2026-09-01', end_date: '2026-10-01', metrics: ['visits'], dimensions: ['date', 'referral_source'], date_interval: 'day', pagination: { limit: 1000, offset: 0 } };

const cases: Case[] = [
  { name: 'explain: v2 visibility page', goal: { ms: 5 }, plain: (s) => s.reports.visibility!(v2), extended: (s) => s.reports.visibility!(v2, { explain: true }) },
  { name: 'explain: v1 visibility page', goal: { ms: 5 }, plain: (s) => s.reports.visibilityV1!(v1), extended: (s) => s.reports.visibilityV1!(v1, { explain: true }) },
  { name: 'fill=zero: v1 visibility, model × day', goal: { ratio: 1.3 }, plain: (s) => s.reports.visibilityV1!(v1), extended: (s) => s.reports.visibilityV1!(v1, { fill: 'zero' }) },
  { name: 'fill=zero: referrals, day × source', goal: { ratio: 1.3 }, plain: (s) => s.reports.referrals!(traffic), extended: (s) => s.reports.referrals!(traffic, { fill: 'zero' }) },
  { name: 'compare=previous_period: v1 visibility', goal: { ratio: 2.1 }, plain: (s) => s.reports.visibilityV1!(v1), extended: (s) => s.reports.visibilityV1!(v1, { compare: 'previous_period' }) },
  { name: 'compare=previous_year: referrals', goal: { ratio: 2.1 }, plain: (s) => s.reports.referrals!(traffic), extended: (s) => s.reports.referrals!(traffic, { compare: 'previous_year' }) },
  { name: 'fill=zero: v2 visibility by day', goal: { ratio: 1.3 }, plain: (s) => s.reports.visibility!(v2Days), extended: (s) => s.reports.visibility!(v2Days, { fill: 'zero' }) },
  { name: 'compare=previous_period: v2 visibility by day', goal: { ratio: 2.1 }, plain: (s) => s.reports.visibility!(v2Days), extended: (s) => s.reports.visibility!(v2Days, { compare: 'previous_period' }) },
  { name: 'components: v1 visibility', goal: { ratio: 1.3 }, plain: (s) => s.reports.visibilityV1!(v1), extended: (s) => s.reports.visibilityV1!(v1, { components: true }) },
  { name: 'components: v2 visibility page', goal: { ratio: 1.3 }, plain: (s) => s.reports.visibility!(v2), extended: (s) => s.reports.visibility!(v2, { components: true }) },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const timed = async (call: Call) => {
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
  console.log(`| ${c.name} | ${p.toFixed(2)} | ${e.toFixed(2)} | ${(e / p).toFixed(2)}× | ${goal} | ${met ? 'yes' : 'no'} |`);
}

// The fingerprint alone: hashing the normalized request once the dataset version is known.
const fingerprints: number[] = [];
for (let i = 0; i < rounds; i++) {
  const t0 = performance.now();
  await engine.core.version.current();
  fingerprints.push(performance.now() - t0);
}
console.log(`\ndataset version lookup (every request, cached after the first): median ${median(fingerprints).toFixed(3)} ms`);
await engine.close();
