import { openEngine } from '../../open-engine.ts';
import { defaultHeavyPerKey, defaultMaxStreams, defaultTimeBudgetMs } from '../../engine/limits.ts';
import { createServer } from '../../http/create-server.ts';
import { defaultStatePath } from '../../state/default-path.ts';
import { number, parse, required, UsageError } from '../args.ts';
import { planMemory } from '../../engine/memory-budget.ts';
import type { Command } from './command.ts';
import { backendOf, backendParse, backendUsage } from '../backend-option.ts';

export const serveOptions = {
  data: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  state: { type: 'string' },
  'rate-limit': { type: 'string' },
  verify: { type: 'string' },
  'memory-limit': { type: 'string' },
  'max-streams': { type: 'string' },
  'time-budget': { type: 'string' },
  'heavy-per-key': { type: 'string' },
  quiet: { type: 'boolean' },
  ...backendParse,
} as const;

export const serve: Command = {
  usage: `aea serve --data DIR [--port P] [--host H] [--state FILE] [--rate-limit N] [--verify full] [--memory-limit SIZE]
                 [--max-streams N] [--time-budget SECONDS] [--heavy-per-key N] [--quiet]
                 [--backend duckdb|chdb|clickhouse [--clickhouse-url URL]]

  --port P             port to listen on (default 8787; 0 picks a free one)
  --host H             address to bind (default 127.0.0.1)
  --state FILE         the state store (default: <DIR>.state.duckdb beside the dataset)
  --rate-limit N       requests per hour per API key (default 600; 0 turns limiting off)
  --verify full        check every file against the hashes in dataset.json and read every value at start
  --memory-limit SIZE  memory for DuckDB and stream buffers together, e.g. 4GB (default: 80% of RAM)
  --max-streams N      streams open at once in the process (default ${defaultMaxStreams}); one more is a 503
  --time-budget S      seconds a request (not a stream) may run before it is stopped (default ${defaultTimeBudgetMs / 1000}; 0: none)
  --heavy-per-key N    reports one API key may run at once (default ${defaultHeavyPerKey}; 0: no bound)
${backendUsage}`,
  async run(argv, io) {
    const { values } = parse(argv, serveOptions);
    const data = required(values, 'data');
    const memoryLimit = typeof values['memory-limit'] === 'string' ? values['memory-limit'] : undefined;
    const maxStreams = number(values, 'max-streams', defaultMaxStreams);
    try {
      planMemory(memoryLimit, maxStreams);
    } catch (error) {
      throw new UsageError(`--memory-limit: ${(error as Error).message}`);
    }
    const engine = await openEngine({
      data,
      state: typeof values.state === 'string' ? values.state : defaultStatePath(data),
      verify: values.verify === 'full' ? 'full' : 'footer',
      memoryLimit,
      maxStreams,
      timeBudgetMs: number(values, 'time-budget', defaultTimeBudgetMs / 1000) * 1000,
      ...backendOf(values),
    });
    const limit = number(values, 'rate-limit', 600);
    const app = await createServer({ engine, rateLimit: limit === 0 ? false : { max: limit, windowSeconds: 3600 }, heavyPerKey: number(values, 'heavy-per-key', defaultHeavyPerKey), logger: !values.quiet });
    const address = await app.listen({ port: number(values, 'port', 8787), host: typeof values.host === 'string' ? values.host : '127.0.0.1' });
    io.out(`aea: serving ${data} on ${address}${limit === 0 ? ' (rate limit off)' : ''}; docs at ${address}/docs\n`);
    await io.stopped();
    await app.close();
    await engine.close();
    return 0;
  },
};
