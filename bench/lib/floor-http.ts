import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { AnswerMismatch, firstDifference } from './answers.ts';
import { iterationParams, type BenchDataset } from './dataset.ts';
import { round } from './measure.ts';
import { v2Window } from './requests.ts';
import { startChildServer, type ChildServer } from './child-server.ts';
import { cpuMsOf, rssOf, withPeak, type Served } from './serve.ts';

/**
 * The 30-day visibility request over HTTP at 1, 16 and 64 connections against three servers: `aea serve`,
 * a bare node:http server around the library's own call (bench/bare-server.ts: the same engine, no
 * Fastify, no key store, no rate counting, no ETag; issue 23), and a bare node:http server around its
 * expert floor (bench/floors/http-server.ts, its own process and DuckDB). `aea serve` against the bare
 * library server is the service's own overhead; the bare library server against the floor server is the
 * report's. All three answer the same bodies first; a difference stops the bench. At each connection
 * count the three run one after the other, so a change in the machine's load touches all three.
 */
export interface HttpSide {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly rssPeakMiB: number;
  /**
   * The server process's CPU time (every thread, DuckDB's included) per answered request: less swayed
   * by the machine's load than req/s. Absent in runs recorded before issue 23.
   */
  readonly cpuMsPerRequest?: number;
}

export interface VisibilityLevel {
  readonly connections: number;
  readonly engine: HttpSide;
  readonly bare: HttpSide;
  readonly floor: HttpSide;
}

export interface VisibilityHttp {
  readonly label: string;
  readonly seconds: number;
  readonly floorStartMs: number;
  /** The goal's level (16 connections): `engine` and `floor` are its sides. */
  readonly connections: number;
  readonly engine: HttpSide;
  readonly floor: HttpSide;
  /** Every level with the bare-library server; absent in runs recorded before issue 23. */
  readonly levels?: readonly VisibilityLevel[];
  readonly bareStartMs?: number;
}

const floorScript = fileURLToPath(new URL('../floors/http-server.ts', import.meta.url));
const bareScript = fileURLToPath(new URL('../bare-server.ts', import.meta.url));
const path = '/v2/reports/visibility';

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
  pid: number,
): Promise<HttpSide> {
  const cpuBefore = cpuMsOf(pid);
  const { value: r, peakMiB } = await withPeak(
    () => rssOf(pid),
    async () =>
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
    cpuMsPerRequest: round((cpuMsOf(pid) - cpuBefore) / Math.max(1, r['2xx']), 3),
  };
}

export const visibilityConnections = [1, 16, 64] as const;

async function started(start: () => Promise<ChildServer>): Promise<{ server: ChildServer; ms: number }> {
  const t = performance.now();
  const server = await start();
  return { server, ms: round(performance.now() - t, 1) };
}

export async function visibilityHttp(
  dataset: BenchDataset,
  served: Served,
  o: {
    connections: number;
    levels?: readonly number[];
    seconds: number;
    warmupSeconds: number;
    /** The bare-library server's result cache, as `served` was started with (default off). */
    resultCache?: string;
    log: (line: string) => void;
  },
): Promise<VisibilityHttp> {
  const organizationId = dataset.categories[0]!.organizationId;
  const key = served.keys.get(organizationId)!.at(-1)!;
  const bodies = dataset.categories
    .map((_, i) => iterationParams(dataset, 30, i))
    .filter((p) => p.organizationId === organizationId)
    .map((p) => ({ ...v2Window(p), scope: 'all' }));
  const floor = await started(() => startChildServer(floorScript, [dataset.dir, key], 'floor server'));
  let bare: Awaited<ReturnType<typeof started>> | undefined;
  try {
    bare = await started(() =>
      startChildServer(bareScript, [dataset.dir, organizationId, key, o.resultCache ?? '0'], 'bare-library server'),
    );
    const sides = [
      { name: 'aea serve', url: served.url, pid: served.pid },
      { name: 'bare library', url: bare.server.url, pid: bare.server.pid },
      { name: 'floor server', url: floor.server.url, pid: floor.server.pid },
    ] as const;
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
      const engineAnswer = await ask(served.url);
      for (const side of sides.slice(1)) {
        const d = firstDifference(engineAnswer, await ask(side.url));
        if (d) throw new AnswerMismatch(`visibility over HTTP: aea serve vs the ${side.name}`, d);
      }
    }
    if (o.warmupSeconds > 0) for (const side of sides) await load(side.url, key, bodies, 4, o.warmupSeconds, side.pid);
    const levels: VisibilityLevel[] = [];
    for (const connections of o.levels ?? [o.connections]) {
      const [engine, bareSide, floorSide] = [
        await load(sides[0].url, key, bodies, connections, o.seconds, sides[0].pid),
        await load(sides[1].url, key, bodies, connections, o.seconds, sides[1].pid),
        await load(sides[2].url, key, bodies, connections, o.seconds, sides[2].pid),
      ];
      const line = (name: string, x: HttpSide) =>
        `${name} ${x.requestsPerSecond} req/s (p50 ${x.p50Ms} ms, p99 ${x.p99Ms} ms, ${x.cpuMsPerRequest} CPU ms/request, ${x.errors} errors)`;
      o.log(
        `  visibility 30 d over HTTP at ${connections} connections: ${line('aea serve', engine)}, ${line('bare library', bareSide)}, ${line('floor server', floorSide)}`,
      );
      levels.push({ connections, engine, bare: bareSide, floor: floorSide });
    }
    const goal = levels.find((l) => l.connections === o.connections) ?? levels[0]!;
    return {
      label: 'v2 visibility, 30 d, all brands, page 1',
      seconds: o.seconds,
      floorStartMs: floor.ms,
      bareStartMs: bare.ms,
      connections: goal.connections,
      engine: goal.engine,
      floor: goal.floor,
      levels,
    };
  } finally {
    await bare?.server.stop();
    await floor.server.stop();
  }
}
