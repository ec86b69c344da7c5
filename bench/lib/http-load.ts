import autocannon from 'autocannon';
import { serve, withPeak } from './serve.ts';
import type { IterationParams } from './case.ts';
import { addDays, iterationParams, type BenchDataset } from './dataset.ts';
import { round } from './measure.ts';
import { trafficWindow, v1Window, v2Window } from './requests.ts';

/**
 * The HTTP load run: the real `aea serve` (a child process, rate limit off, a key made on a fresh state
 * file beforehand) driven over loopback by autocannon at each connection count with a mix of report
 * requests, while the server's resident memory is read from /proc.
 */

export interface HttpLevel {
  readonly connections: number;
  readonly seconds: number;
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Connection errors and timeouts, and responses other than 2xx. */
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  /** The server's resident set at the start of the level and its peak during it. */
  readonly rssStartMiB: number;
  readonly rssPeakMiB: number;
}

export interface HttpResult {
  /** Always false: the run starts the server with `--rate-limit 0`. */
  readonly rateLimit: false;
  readonly serverStartMs: number;
  readonly warmupSeconds: number;
  readonly mix: readonly string[];
  readonly levels: readonly HttpLevel[];
}

export interface HttpOptions {
  readonly connections: readonly number[];
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly log: (line: string) => void;
}

/** The requests the load cycles through, for the categories of one organization. */
function mix(
  dataset: BenchDataset,
  organizationId: string,
): { label: string; path: string; body: Record<string, unknown> }[] {
  const params = dataset.categories
    .map((_, i) => iterationParams(dataset, 30, i))
    .filter((p) => p.organizationId === organizationId);
  const week = (p: IterationParams) => ({ ...p, startDate: addDays(p.endDate, -6) });
  return params.flatMap((p) => [
    { label: 'v2 visibility, 30 d', path: '/v2/reports/visibility', body: { ...v2Window(p) } },
    { label: 'v2 citations, 30 d', path: '/v2/reports/citations', body: { ...v2Window(p) } },
    { label: 'v2 sentiment, 30 d', path: '/v2/reports/sentiment', body: { ...v2Window(p), asset: p.asset } },
    { label: 'v2 query fan-outs, 30 d', path: '/v2/reports/query-fanouts', body: { ...v2Window(p) } },
    {
      label: 'v2 prompt answers, 7 d',
      path: '/v2/prompts/answers',
      body: { ...v2Window(week(p)), include: ['run_id', 'date', 'model', 'prompt', 'mentions'] },
    },
    {
      label: 'v1 citations, 30 d by domain',
      path: '/v1/reports/citations',
      body: { ...v1Window(p), metrics: ['count', 'citation_share'], dimensions: ['root_domain'] },
    },
    {
      label: 'v2 bots, 30 d by bot',
      path: '/v2/reports/bots',
      body: { ...trafficWindow(p), metrics: ['count', 'citations'], dimensions: ['bot_name'] },
    },
  ]);
}

export async function runHttpLoad(dataset: BenchDataset, options: HttpOptions): Promise<HttpResult> {
  const organizationId = dataset.categories[0]!.organizationId;
  const server = await serve(dataset, 1);
  const key = server.keys.get(organizationId)![0]!;
  try {
    const { url, startMs: serverStartMs } = server;
    options.log(
      `  aea serve (pid ${server.pid}, rate limit disabled) listening on ${url} after ${serverStartMs.toFixed(0)} ms`,
    );
    const requests = mix(dataset, organizationId);
    const load = (connections: number, seconds: number) =>
      autocannon({
        url,
        connections,
        duration: seconds,
        timeout: 60,
        requests: requests.map((r) => ({
          method: 'POST',
          path: r.path,
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify(r.body),
        })),
      });
    if (options.warmupSeconds > 0) await load(4, options.warmupSeconds);
    const levels: HttpLevel[] = [];
    for (const connections of options.connections) {
      const rssStart = server.rssMiB();
      const { value: r, peakMiB: peak } = await withPeak(server.rssMiB, async () => load(connections, options.seconds));
      const level: HttpLevel = {
        connections,
        seconds: r.duration,
        requests: r['2xx'] + r.non2xx,
        requestsPerSecond: round(r.requests.average, 1),
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        maxMs: r.latency.max,
        errors: r.errors + r.non2xx,
        timeouts: r.timeouts,
        non2xx: r.non2xx,
        rssStartMiB: round(rssStart, 1),
        rssPeakMiB: round(peak, 1),
      };
      options.log(
        `  http ${String(connections).padStart(2)} connections: ${level.requestsPerSecond} req/s, p50 ${level.p50Ms} ms, p99 ${level.p99Ms} ms, ${level.errors} errors, server RSS ${level.rssStartMiB.toFixed(0)} → ${level.rssPeakMiB.toFixed(0)} MiB`,
      );
      levels.push(level);
    }
    return {
      rateLimit: false,
      serverStartMs,
      warmupSeconds: options.warmupSeconds,
      mix: [...new Set(requests.map((r) => r.label))],
      levels,
    };
  } finally {
    await server.stop();
  }
}
