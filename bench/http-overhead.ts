// The 30-day v2 visibility request over HTTP alone (issue 23): `aea serve` (rate limit and result cache
// off), the bare-library server and the floor server at each connection count, as the bench's server
// runs record it, without the rest of the bench. Usage:
//   node --import tsx bench/http-overhead.ts [--scale 1] [--seconds 10] [--connections 1,16,64] [--result-cache SIZE]
// With `--result-cache 64MiB` both engine servers answer repeats from their cache, so the report's cost
// drops out and what is left beside the bare server is the service's own cost per request.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { openEngine } from '../src/open-engine.ts';
import { benchCategories } from './lib/bench.ts';
import { resolveDataset } from './lib/dataset.ts';
import { visibilityConnections, visibilityHttp } from './lib/floor-http.ts';
import { serve } from './lib/serve.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    'result-cache': { type: 'string' },
  },
});
const found = await resolveDataset(Number(values.scale ?? 1), undefined, false);
const engine = await openEngine({ data: found.dir, resultCache: 0, rollups: false });
const dataset = { ...found, categories: benchCategories(await engine.listOrganizations()) };
await engine.close();
const levels = values.connections ? values.connections.split(',').map(Number) : [...visibilityConnections];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`scale ${dataset.scale}; load average before ${load()}`);
const resultCache = values['result-cache'] ?? '0';
console.log(`result cache ${resultCache === '0' ? 'off' : resultCache}`);
const served = await serve(dataset, 1, [], resultCache);
try {
  await visibilityHttp(dataset, served, {
    connections: 16,
    levels,
    seconds: Number(values.seconds ?? 10),
    warmupSeconds: 3,
    resultCache,
    log: (line) => console.log(line),
  });
} finally {
  await served.stop();
}
console.log(`load average after ${load()}`);
