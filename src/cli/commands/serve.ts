import { openEngine } from '../../open-engine.ts';
import {
  defaultFailedAuthLimit,
  defaultFirstRowSeconds,
  defaultHeavyPerKey,
  defaultMaxStreams,
  defaultTimeBudgetMs,
} from '../../limits.ts';
import { createServer } from '../../http/create-server.ts';
import { defaultStatePath } from '../../state/default-path.ts';
import { number, parse, required, UsageError } from '../args.ts';
import { planMemory } from '../../engine/memory-budget.ts';
import { tempLimits } from '../temp-limits.ts';
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
  'result-cache': { type: 'string' },
  'time-budget': { type: 'string' },
  'heavy-per-key': { type: 'string' },
  'failed-auth-limit': { type: 'string' },
  quiet: { type: 'boolean' },
  'mcp-allow-writes': { type: 'boolean' },
  'export-temp-limit': { type: 'string' },
  'temp-limit': { type: 'string' },
  'first-row-budget': { type: 'string' },
  ...backendParse,
} as const;

export const serve: Command = {
  usage: `aea serve --data DIR [--port P] [--host H] [--state FILE] [--rate-limit N] [--verify full] [--memory-limit SIZE]
                 [--max-streams N] [--result-cache SIZE] [--time-budget SECONDS] [--heavy-per-key N] [--failed-auth-limit N] [--quiet] [--mcp-allow-writes]
                 [--export-temp-limit SIZE] [--temp-limit SIZE] [--first-row-budget SECONDS]
                 [--backend duckdb|chdb|clickhouse [--clickhouse-url URL]]

  --port P             port to listen on (default 8787; 0 picks a free one)
  --host H             address to bind (default 127.0.0.1)
  --state FILE         the state store (default: <DIR>.state.duckdb beside the dataset)
  --rate-limit N       requests per hour per API key (default 600; 0 turns limiting off)
  --verify full        check every file against the hashes in dataset.json and read every value at start
  --memory-limit SIZE  memory for DuckDB and stream buffers together, e.g. 4GB (default: half of RAM)
  --max-streams N      streams open at once in the process (default ${defaultMaxStreams}); one more is a 503
  --result-cache SIZE  report pages kept by fingerprint, so a repeated request reads no data (default 64MiB,
                       at most an eighth of --memory-limit; 0: off); part of the memory budget
  --time-budget S      seconds a request (not a stream) may run before it is stopped (default ${defaultTimeBudgetMs / 1000}; 0: none)
  --heavy-per-key N    reports one API key may run at once (default ${defaultHeavyPerKey}; 0: no bound)
  --mcp-allow-writes   /mcp (MCP for AI agents, docs/mcp.md) also offers the tools that change data
  --export-temp-limit SIZE  temporary disk one export may take (Parquet goes through a temporary file),
                       e.g. 512MiB (default 1GiB); past it the export is a 413
  --temp-limit SIZE    temporary disk of all exports together (default 4GiB); past it a new one is a 503
  --first-row-budget S seconds a stream or table-format answer may take to its first piece (a stream's
                       summary or first row, a whole Parquet file) before it is stopped with a 503
                       (default ${defaultFirstRowSeconds}; 0: none); the status waits for that piece
  --failed-auth-limit N  requests per hour per client address without a valid key (default: --rate-limit's,
                       or ${defaultFailedAuthLimit.max} when it is 0; 0 turns it off)
${backendUsage}`,
  async run(argv, io) {
    const { values } = parse(argv, serveOptions);
    const data = required(values, 'data');
    const memoryLimit = typeof values['memory-limit'] === 'string' ? values['memory-limit'] : undefined;
    const maxStreams = number(values, 'max-streams', defaultMaxStreams);
    const resultCache = typeof values['result-cache'] === 'string' ? values['result-cache'] : undefined;
    try {
      planMemory(memoryLimit, maxStreams, resultCache);
    } catch (error) {
      throw new UsageError(
        `${resultCache === undefined ? '--memory-limit' : '--memory-limit, --result-cache'}: ${(error as Error).message}`,
      );
    }
    const engine = await openEngine({
      data,
      state: typeof values.state === 'string' ? values.state : defaultStatePath(data),
      verify: values.verify === 'full' ? 'full' : 'footer',
      memoryLimit,
      maxStreams,
      resultCache,
      timeBudgetMs: number(values, 'time-budget', defaultTimeBudgetMs / 1000) * 1000,
      ...tempLimits(values),
      ...backendOf(values),
    });
    const limit = number(values, 'rate-limit', 600);
    const failedAuth = number(values, 'failed-auth-limit', limit === 0 ? defaultFailedAuthLimit.max : limit);
    const app = await createServer({
      engine,
      rateLimit: limit === 0 ? false : { max: limit, windowSeconds: 3600 },
      failedAuthLimit: failedAuth === 0 ? false : { max: failedAuth, windowSeconds: 3600 },
      heavyPerKey: number(values, 'heavy-per-key', defaultHeavyPerKey),
      streams: { firstRowSeconds: number(values, 'first-row-budget', defaultFirstRowSeconds) },
      logger: !values.quiet,
      mcp: { allowWrites: values['mcp-allow-writes'] === true },
    });
    const address = await app.listen({
      port: number(values, 'port', 8787),
      host: typeof values.host === 'string' ? values.host : '127.0.0.1',
    });
    io.out(`aea: serving ${data} on ${address}${limit === 0 ? ' (rate limit off)' : ''}; docs at ${address}/docs\n`);
    await io.stopped();
    await app.close();
    await engine.close();
    return 0;
  },
};
