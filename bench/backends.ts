/**
 * DuckDB against chdb on the bench's window series: every report's 30-day and 365-day page requests
 * (bench/cases), interleaved (duckdb, chdb, chdb, duckdb, …) on fresh parameters each iteration, after
 * a warm-up; every answer is compared and a difference stops the run. DuckDB runs with its rollups off
 * and on (built before timing), chdb over Parquet has none. `--loaded chdb:PATH?database=DB` adds chdb reading the
 * MergeTree tables `aea clickhouse load` wrote there (the clickhouse backend over a chdb directory), with
 * the rollups the load keeps by materialized views, and names the rollups each side read (`explain`).
 *
 *   npx tsx bench/backends.ts --data /tmp/scale-1 [--iterations 5] [--reports visibility,citations] [--loaded URL]
 */
import { parseArgs } from 'node:util';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { reportCases } from './cases/index.ts';
import { iterationParams, resolveDataset, type BenchDataset } from './lib/dataset.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    iterations: { type: 'string' },
    reports: { type: 'string' },
    days: { type: 'string' },
    loaded: { type: 'string' },
  },
});
if (!values.data) throw new Error('--data DIR is required');
const iterations = Number(values.iterations ?? 5);
const only = values.reports?.split(',');
const windows = (values.days ?? '30,365').split(',').map(Number);

const found = await resolveDataset(0, values.data, true);
const open = (backend: 'duckdb' | 'chdb', rollups: boolean) =>
  openEngine({ data: found.dir, backend, rollups, cursorSecret: 'bench', resultCache: 0 });
// First: chdb holds one directory per process, which the view-reading chdb engine then shares.
const loaded: Record<string, Engine> = values.loaded
  ? {
      'chdb loaded': await openEngine({
        data: found.dir,
        backend: 'clickhouse',
        clickhouseUrl: values.loaded,
        cursorSecret: 'bench',
        resultCache: 0,
      }),
    }
  : {};
const engines: Record<string, Engine> = {
  duckdb: await open('duckdb', false),
  'duckdb+rollups': await open('duckdb', true),
  chdb: await open('chdb', false),
  ...loaded,
};
const sides = Object.keys(engines);
const orgs = await engines.duckdb!.listOrganizations();
const dataset: BenchDataset = {
  ...found,
  categories: orgs.flatMap((o) =>
    o.categories.map((c, i) => ({
      organizationId: o.id,
      categoryId: c.id,
      asset: o.assets.find((a) => a.category_id === c.id && a.is_owned)?.name ?? '',
      domain: o.domains[i % Math.max(1, o.domains.length)]?.name ?? '',
    })),
  ),
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const extra = values.loaded
  ? [
      'chdb loaded p50 ms',
      'chdb loaded / duckdb',
      'chdb loaded / duckdb + rollups',
      'rollups read (duckdb + rollups / chdb loaded)',
    ]
  : [];
const header = [
  'report',
  'request',
  'duckdb p50 ms',
  'duckdb + rollups p50 ms',
  'chdb p50 ms',
  'chdb / duckdb',
  'chdb / duckdb + rollups',
  ...extra,
];
const rows: string[] = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
for (const rc of reportCases) {
  if (only && !only.includes(rc.report)) continue;
  const name = (await import('../src/registry.ts')).endpoints.find(
    (e) => e.path === rc.path && e.method === 'POST',
  )!.name;
  for (const req of rc
    .requests(dataset)
    .filter((r) => r.kind === 'page' && r.windowSeries && windows.includes(r.windowDays) && (r.page ?? 1) === 1)) {
    const times: Record<string, number[]> = Object.fromEntries(sides.map((side) => [side, []]));
    const call = async (side: string, i: number) => {
      const p = iterationParams(dataset, req.windowDays, i);
      const started = performance.now();
      const answer = await engines[side]!.org(p.organizationId).report(name)(req.body(p));
      return { ms: performance.now() - started, text: JSON.stringify(answer) };
    };
    if (rc.setup) await rc.setup(engines['duckdb+rollups']!, dataset);
    for (let i = -1; i < iterations; i++) {
      const order = i % 2 === 0 ? sides : [...sides].reverse();
      const answers = new Map<string, string>();
      for (const side of order) {
        const r = await call(side, i);
        answers.set(side, r.text);
        if (i >= 0) times[side]!.push(r.ms);
      }
      if (new Set(answers.values()).size !== 1)
        throw new Error(`${rc.report} ${req.id} iteration ${i}: the backends' answers differ`);
    }
    const [d, dr, c] = [median(times.duckdb!), median(times['duckdb+rollups']!), median(times.chdb!)];
    const l = values.loaded ? median(times['chdb loaded']!) : undefined;
    const p0 = iterationParams(dataset, req.windowDays, 0);
    const read = async (side: string) =>
      (
        (await engines[side]!.org(p0.organizationId).report(name)(req.body(p0), { explain: true })) as {
          explain: { rollups: { chosen: string[] } };
        }
      ).explain.rollups.chosen.join('+') || '-';
    const more =
      l === undefined
        ? ''
        : ` ${l.toFixed(1)} | ${(l / d).toFixed(2)} | ${(l / dr).toFixed(2)} | ${await read('duckdb+rollups')} / ${await read('chdb loaded')} |`;
    rows.push(
      `| ${rc.report} | ${req.id} | ${d.toFixed(1)} | ${dr.toFixed(1)} | ${c.toFixed(1)} | ${(c / d).toFixed(2)} | ${(c / dr).toFixed(2)} |${more}`,
    );
    process.stderr.write(`${rows.at(-1)}\n`);
  }
}
for (const e of Object.values(engines)) await e.close();
process.stdout.write(
  `scale ${dataset.scale}, ${iterations} iterations after a warm-up, ${new Date().toISOString().slice(0, 10)}\n\n${rows.join('\n')}\n`,
);
