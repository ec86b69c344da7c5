import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { AnswerMismatch, firstDifference } from './answers.ts';
import { iterationParams, type BenchDataset } from './dataset.ts';
import { round } from './measure.ts';
import { v2Window } from './requests.ts';
import { rssOf, withPeak, type Served } from './serve.ts';

/**
 * The 30-day visibility request over HTTP at one connection count, against `aea serve` and against a
 * bare node:http server around its expert floor (bench/floors/http-server.ts, its own process and
 * DuckDB), so req/s compare (issue 14: ≥ 100 req/s at 16 connections at scale 1). Both answer the same
 * body first; a difference stops the bench.
 */
export interface HttpSide {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly rssPeakMiB: number;
}

export interface VisibilityHttp {
  readonly label: string;
  readonly connections: number;
  readonly seconds: number;
  readonly engine: HttpSide;
  readonly floor: HttpSide;
  readonly floorStartMs: number;
}

const serverScript = fileURLToPath(new URL('../floors/http-server.ts', import.meta.url));
const path = '/v2/reports/visibility';

function startFloorServer(dir: string, key: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', serverScript, dir, key], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m)
        resolve({
          url: m[1]!,
          pid: child.pid!,
          stop: async () => {
            const killed = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.kill('SIGTERM');
            await new Promise((r) => (child.exitCode !== null ? r(null) : child.on('exit', r)));
            clearTimeout(killed);
          },
        });
    });
    child.on('exit', (code) => reject(new Error(`the floor server exited with ${code} before listening`)));
  });
}

const compared = (json: unknown) => {
  const { info, data } = json as { info: { total_results: number; models: string[] }; data: unknown[] };
  return { total: info.total_results, models: info.models, rows: data };
};

async function load(
  url: string,
  key: string,
  bodies: readonly unknown[],
  connections: number,
  seconds: number,
  rss: () => number,
): Promise<HttpSide> {
  const { value: r, peakMiB } = await withPeak(rss, async () =>
    autocannon({
      url,
      connections,
      duration: seconds,
      timeout: 60,
      requests: bodies.map((b) => ({
        method: 'POST' as const,
        path,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(b),
      })),
    }),
  );
  return {
    requests: r['2xx'] + r.non2xx,
    requestsPerSecond: round(r.requests.average, 1),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors + r.non2xx + r.timeouts,
    rssPeakMiB: round(peakMiB, 1),
  };
}

export async function visibilityHttp(
  dataset: BenchDataset,
  served: Served,
  o: { connections: number; seconds: number; warmupSeconds: number; log: (line: string) => void },
): Promise<VisibilityHttp> {
  const organizationId = dataset.categories[0]!.organizationId;
  const key = served.keys.get(organizationId)!.at(-1)!;
  const bodies = dataset.categories
    .map((_, i) => iterationParams(dataset, 30, i))
    .filter((p) => p.organizationId === organizationId)
    .map((p) => ({ ...v2Window(p), scope: 'all' }));
  const started = performance.now();
  const floor = await startFloorServer(dataset.dir, key);
  const floorStartMs = round(performance.now() - started, 1);
  try {
    for (const body of bodies) {
      const ask = async (url: string) =>
        compared(
          await (
            await fetch(`${url}${path}`, {
              method: 'POST',
              headers: { 'x-api-key': key, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            })
          ).json(),
        );
      const d = firstDifference(await ask(served.url), await ask(floor.url));
      if (d) throw new AnswerMismatch(`visibility over HTTP: aea serve vs the floor server`, d);
    }
    const floorRss = () => rssOf(floor.pid);
    if (o.warmupSeconds > 0) {
      await load(served.url, key, bodies, 4, o.warmupSeconds, served.rssMiB);
      await load(floor.url, key, bodies, 4, o.warmupSeconds, floorRss);
    }
    const engine = await load(served.url, key, bodies, o.connections, o.seconds, served.rssMiB);
    const floorSide = await load(floor.url, key, bodies, o.connections, o.seconds, floorRss);
    o.log(
      `  visibility 30 d over HTTP at ${o.connections} connections: aea serve ${engine.requestsPerSecond} req/s (p99 ${engine.p99Ms} ms), floor server ${floorSide.requestsPerSecond} req/s (p99 ${floorSide.p99Ms} ms)`,
    );
    return {
      label: 'v2 visibility, 30 d, all brands, page 1',
      connections: o.connections,
      seconds: o.seconds,
      engine,
      floor: floorSide,
      floorStartMs,
    };
  } finally {
    await floor.stop();
  }
}
