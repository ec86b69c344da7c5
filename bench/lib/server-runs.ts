import { reportCases } from '../cases/index.ts';
import type { BenchDataset } from './dataset.ts';
import { visibilityConnections, visibilityHttp, type VisibilityHttp } from './floor-http.ts';
import { mixedLoad, patchRun, type MixedLoad, type PatchRun } from './mixed-load.ts';
import { serve } from './serve.ts';
import { slowReaders, slowStreams, type SlowReaders, type SlowStream } from './slow-streams.ts';

/**
 * The runs against a real `aea serve` beside the HTTP load (issues 13 and 14): the 30-day visibility
 * request against the floor server, every stream read at 5 KB/s, eight slow readers on eight keys, six
 * heavy requests with light ones, and a PATCH of 1,000 new tags. Each part gets a fresh server.
 */
export interface ServerRuns {
  readonly visibilityHttp: VisibilityHttp;
  readonly slowStreams: readonly SlowStream[];
  readonly slowReaders: SlowReaders;
  readonly mixed: MixedLoad;
  readonly patch: PatchRun;
}

export interface ServerRunOptions {
  /** Seconds of load per side of the visibility HTTP comparison, and of its warm-up. */
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** The goal's connection count, and every count the visibility request is loaded at. */
  readonly connections: number;
  readonly levels: readonly number[];
  /** Seconds each slow reader reads, and its rate. */
  readonly slowSeconds: number;
  readonly bytesPerSecond: number;
  readonly readers: number;
  /** Seconds after the slow readers left before the server's RSS is read again (the 10 s). */
  readonly afterSeconds: number;
  /** Seconds after each single slow reader left before its server RSS is read again. */
  readonly settleSeconds: number;
  readonly heavy: number;
  readonly log: (line: string) => void;
}

export const defaultServerRunOptions: Omit<ServerRunOptions, 'log'> = {
  seconds: 10,
  warmupSeconds: 3,
  connections: 16,
  levels: visibilityConnections,
  slowSeconds: 10,
  bytesPerSecond: 5 * 1024,
  readers: 8,
  afterSeconds: 10,
  settleSeconds: 2,
  heavy: 6,
};

const keysPerOrganization = 8;

async function withServer<T>(
  dataset: BenchDataset,
  fn: (served: Awaited<ReturnType<typeof serve>>) => Promise<T>,
): Promise<T> {
  const served = await serve(
    dataset,
    keysPerOrganization,
    reportCases.flatMap((c) => (c.categories ? [c.categories] : [])),
  );
  try {
    return await fn(served);
  } finally {
    await served.stop();
  }
}

export async function runServerRuns(dataset: BenchDataset, o: ServerRunOptions): Promise<ServerRuns> {
  const log = o.log;
  log('server runs: aea serve with the rate limit disabled (--rate-limit 0), a fresh server per part');
  const http = await withServer(dataset, (s) =>
    visibilityHttp(dataset, s, {
      connections: o.connections,
      levels: o.levels,
      seconds: o.seconds,
      warmupSeconds: o.warmupSeconds,
      log,
    }),
  );
  const slow = { bytesPerSecond: o.bytesPerSecond, seconds: o.slowSeconds, settleSeconds: o.settleSeconds, log };
  const streams = await withServer(dataset, (s) =>
    slowStreams(
      dataset,
      s,
      (report) => {
        const sql = reportCases.find((c) => c.report === report)?.categories;
        return sql ? (s.categories.get(sql) ?? null) : null;
      },
      slow,
    ),
  );
  const readers = await withServer(dataset, (s) =>
    slowReaders(dataset, s, o.readers, { ...slow, seconds: o.slowSeconds * 2, afterSeconds: o.afterSeconds }),
  );
  const mixed = await withServer(dataset, (s) => mixedLoad(dataset, s, o.heavy, log));
  const patch = await withServer(dataset, (s) => patchRun(dataset, s, log));
  return { visibilityHttp: http, slowStreams: streams, slowReaders: readers, mixed, patch };
}
