import { parse, UsageError } from '../src/cli/args.ts';
import { defaultOptions, runBench, type BenchOptions } from './lib/bench.ts';
import { writeResults } from './lib/results-files.ts';

export const benchUsage = `aea bench [--scale S]... [--data DIR]... [--only REPORT]... [--request ID]... [--iterations N] [--warmup N]
          [--request-budget SECONDS] [--min-iterations N] [--peer-budget SECONDS] [--no-peers] [--no-old-floors]
          [--http-seconds SECONDS] [--no-http] [--no-server] [--slow-seconds S] [--no-write] [--render-only]
          [--state FILE]

Runs every report's request mix against its expert DuckDB floor (bench/floors, over floor rollups built
before timing), the first round's floor and peers, where a report has them, interleaved on fresh
parameters, and checks that the answers are equal; then the HTTP load and the server runs.

  --scale S          generate bench/data/scale-S, or reuse it (default 1; repeat for several scales)
  --data DIR         bench an existing dataset folder instead (its scale is read from dataset.json)
  --only REPORT      run only this report (repeatable), e.g. visibility
  --request ID       run only this request id (repeatable), e.g. window-30
  --iterations N     timed runs per request and side (default ${defaultOptions.iterations}, at least 10 for recorded results)
  --warmup N         untimed runs first (default ${defaultOptions.warmup})
  --request-budget S seconds of engine and floor runs per request after which it stops at --min-iterations
                     (default ${defaultOptions.requestBudgetSeconds} and ${defaultOptions.minIterations}): long requests at large scales get fewer runs
  --min-iterations N timed runs every request gets (default ${defaultOptions.minIterations})
  --peer-budget S    seconds of timed runs per peer and request after its first 3 (default ${defaultOptions.peerBudgetSeconds})
  --no-peers         skip the peers
  --no-old-floors    skip the first round's floors (run beside the expert floors this round, as "old floor")
  --http-seconds S   seconds per connection count (1, 16, 64) of the HTTP load run against \`aea serve\`, which is
                     started with the rate limit disabled (--rate-limit 0) (default ${defaultOptions.http!.seconds})
  --no-http          skip the HTTP load run
  --no-server        skip the server runs: the 30-day visibility request against bare node:http servers
                     around the library's call and around the floor at 1, 16 and 64 connections (--http-seconds each), every stream read at 5 KB/s, eight
                     slow readers on eight keys, six heavy requests with light ones, a PATCH of 1,000 tags
  --slow-seconds S   seconds each slow reader reads (default ${defaultOptions.server!.slowSeconds}; the eight readers read twice as long)
  --state FILE       open the engine with this state store, so it reads the rollups stored beside it (FILE's
                     name with .rollups for .state.duckdb, built by \`aea rollups build\`) instead of building
                     them in memory, as a restarted server does; one --data only
  --no-write         print the results; do not write bench/results/*.json or bench/RESULTS.md
  --render-only      run nothing: rewrite bench/RESULTS.md and the charts from the recorded results

Writes bench/results/<date>-<scale>.json and regenerates bench/RESULTS.md and its charts.
Exit code 1 when an answer differs between engine, floor and peers.`;

export async function benchMain(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    scale: { type: 'string', multiple: true },
    data: { type: 'string', multiple: true },
    only: { type: 'string', multiple: true },
    request: { type: 'string', multiple: true },
    iterations: { type: 'string' },
    warmup: { type: 'string' },
    'peer-budget': { type: 'string' },
    'no-write': { type: 'boolean' },
    'no-peers': { type: 'boolean' },
    'no-old-floors': { type: 'boolean' },
    'request-budget': { type: 'string' },
    'min-iterations': { type: 'string' },
    'http-seconds': { type: 'string' },
    'no-http': { type: 'boolean' },
    'no-server': { type: 'boolean' },
    'slow-seconds': { type: 'string' },
    'render-only': { type: 'boolean' },
    state: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    process.stdout.write(`${benchUsage}\n`);
    return 0;
  }
  if (values['render-only']) {
    for (const file of writeResults([])) process.stderr.write(`wrote ${file}\n`);
    return 0;
  }
  const strings = (name: string) => (values[name] ?? []) as string[];
  const count = (name: string, v: unknown, fallback: number, min: number) => {
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isFinite(n) || n < min) throw new UsageError(`--${name} must be a number ≥ ${min}, got ${String(v)}`);
    return n;
  };
  const options: BenchOptions = {
    ...defaultOptions,
    scales: (values.scale || values.data ? strings('scale') : ['1']).map((s) => count('scale', s, 1, 0.001)),
    data: strings('data'),
    only: strings('only'),
    requests: strings('request'),
    iterations: count('iterations', values.iterations, defaultOptions.iterations, 1),
    warmup: count('warmup', values.warmup, defaultOptions.warmup, 0),
    peerBudgetSeconds: count('peer-budget', values['peer-budget'], defaultOptions.peerBudgetSeconds, 0),
    peers: !values['no-peers'],
    oldFloors: !values['no-old-floors'],
    requestBudgetSeconds: count('request-budget', values['request-budget'], defaultOptions.requestBudgetSeconds, 0),
    minIterations: count('min-iterations', values['min-iterations'], defaultOptions.minIterations, 1),
    ...(typeof values.state === 'string' ? { state: values.state } : {}),
    http: values['no-http']
      ? null
      : {
          ...defaultOptions.http!,
          seconds: count('http-seconds', values['http-seconds'], defaultOptions.http!.seconds, 1),
        },
    server: values['no-server']
      ? null
      : {
          ...defaultOptions.server!,
          seconds: count('http-seconds', values['http-seconds'], defaultOptions.server!.seconds, 1),
          slowSeconds: count('slow-seconds', values['slow-seconds'], defaultOptions.server!.slowSeconds, 1),
        },
  };
  if (options.state !== undefined && options.data.length !== 1)
    throw new UsageError('--state names the state store of one dataset: give exactly one --data');
  const results = await runBench(options);
  if (values['no-write']) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else for (const file of writeResults(results)) process.stderr.write(`wrote ${file}\n`);
  return 0;
}
