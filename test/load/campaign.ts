import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tempFolderSync } from '../../src/engine/temp-paths.ts';
import { ensureSample } from '../../src/generate/sample.ts';
import { runLoad, serve } from './load-core.ts';

/** `npm run load -- [--clients 64] [--seconds 60] [--requests N] [--data DIR]` */
const { values } = parseArgs({
  options: {
    clients: { type: 'string' },
    seconds: { type: 'string' },
    requests: { type: 'string' },
    data: { type: 'string' },
  },
});
const data = values.data ?? (await ensureSample());
const state = join(tempFolderSync('loadrun'), 'state.duckdb');
const served = await serve(data, state);
try {
  const result = await runLoad(served, {
    data,
    state,
    clients: Number(values.clients ?? 64),
    seconds: Number(values.seconds ?? 60),
    maxRequests: Number(values.requests ?? 1_000_000),
  });
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  const fiveXX = Object.entries(result.byStatus).filter(([s]) => Number(s) >= 500);
  process.exitCode =
    fiveXX.length > 0 ||
    result.errors.length > 0 ||
    result.health.active_streams !== 0 ||
    result.health.busy_connections !== 0
      ? 1
      : 0;
} finally {
  await served.stop();
}
