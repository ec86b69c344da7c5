// A repeated report request answered from the result cache, timed inside the process: validation,
// planning, authorization, the fingerprint, the cache lookup and the JSON text, as `engine.org(id).call`
// gives the REST face. Beside it the same request with the cache off. Usage:
//   node --import tsx bench/result-cache.ts [--data DIR] [--n 500]
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { openEngine } from '../src/open-engine.ts';
import { sampleDir } from '../src/generate/sample.ts';

const { values } = parseArgs({ options: { data: { type: 'string' }, n: { type: 'string' } } });
const data = values.data ?? sampleDir;
const n = Number(values.n ?? 500);

async function timings(resultCache: 0 | undefined): Promise<number[]> {
  const engine = await openEngine({ data, resultCache, rollups: false });
  try {
    const [org] = await engine.listOrganizations();
    const body = { category_id: org!.categories[0]!.id, start_date: '2026-10-01', end_date: '2026-10-30', limit: 10 };
    const scope = engine.org(org!.id);
    const once = await scope.call('POST', '/v2/reports/visibility', { body });
    if (once.kind !== 'json' || once.status !== 200) throw new Error('the request failed');
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      const r = await scope.call('POST', '/v2/reports/visibility', { body });
      ms.push(performance.now() - started);
      if (r.kind !== 'json' || r.json !== once.json) throw new Error('a different answer');
    }
    return ms.sort((a, b) => a - b);
  } finally {
    await engine.close();
  }
}

const at = (ms: number[], q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(3);
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${n} repeats of a 30-day v2 visibility page (limit 10)`,
);
for (const [label, cache] of [
  ['cache on (default)', undefined],
  ['cache off', 0],
] as const) {
  const ms = await timings(cache);
  console.log(`${label.padEnd(20)} p50 ${at(ms, 0.5)} ms  p90 ${at(ms, 0.9)} ms  p99 ${at(ms, 0.99)} ms`);
}
