import { UsageError } from '../../src/cli/args.ts';
import { openEngine } from '../../src/open-engine.ts';
import { reportCases } from '../cases/index.ts';
import type { BenchRequest } from './case.ts';
import { resolveDataset, type BenchCategory, type BenchDataset } from './dataset.ts';
import type { OrganizationListing } from '../../src/engine/organizations.ts';
import { commit, machine, type Machine } from './machine.ts';
import { round, timed } from './measure.ts';
import { runHttpLoad, type HttpOptions, type HttpResult } from './http-load.ts';
import { runReport, type RequestResult } from './run-report.ts';
import { defaultServerRunOptions, runServerRuns, type ServerRunOptions, type ServerRuns } from './server-runs.ts';

export interface BenchOptions {
  /** Scales to bench, each generated into (or reused from) bench/data/scale-S. */
  readonly scales: readonly number[];
  /** Existing dataset folders to bench instead; their scale is read from dataset.json. */
  readonly data: readonly string[];
  /** Reports to run (all when empty). */
  readonly only: readonly string[];
  /** Request ids to run (all when empty). */
  readonly requests: readonly string[];
  readonly iterations: number;
  readonly warmup: number;
  readonly peerBudgetSeconds: number;
  /** Seconds of engine and floor runs per request after which it stops at `minIterations` (see RunOptions). */
  readonly requestBudgetSeconds: number;
  readonly minIterations: number;
  readonly planIterations: number;
  /** Run the peers where a request has them. */
  readonly peers: boolean;
  /** Run the first round's floors beside the expert floors (this round only). */
  readonly oldFloors: boolean;
  /** The HTTP load run against `aea serve` (rate limit off); null skips it. */
  readonly http: HttpOptions | null;
  /** The server runs (floor server, slow readers, mixed load, PATCH) against `aea serve`; null skips them. */
  readonly server: Omit<ServerRunOptions, 'log'> | null;
  readonly log: (line: string) => void;
  readonly quiet: boolean;
  /**
   * A state store to open the engine with, so it reads the rollups stored beside it (built by `aea rollups
   * build`) instead of building them in memory: how a restarted server serves. Only with one dataset.
   */
  readonly state?: string;
}

/** One bench run over one dataset. Sections beside `reports` (HTTP load) belong here when they exist. */
export interface ScaleResult {
  readonly date: string;
  readonly commit: string;
  readonly machine: Machine;
  readonly scale: number;
  readonly dataset: {
    readonly dir: string;
    readonly generated: boolean;
    readonly executions: number;
    readonly mentions: number;
  };
  readonly options: {
    readonly iterations: number;
    readonly warmup: number;
    readonly peerBudgetSeconds: number;
    readonly requestBudgetSeconds?: number;
    readonly minIterations?: number;
    readonly peers: boolean;
    /** The reports a partial run (`--only`) ran; its figures replace theirs in the day's record. */
    readonly only?: readonly string[];
  };
  /** Reports whose figures come from a later partial run than the rest of the record. */
  readonly reruns?: readonly { readonly date: string; readonly commit: string; readonly reports: readonly string[] }[];
  readonly openMs: number;
  /** Per report, the time its setup took (building rollups), before any timing. */
  readonly setupMs: Readonly<Record<string, number>>;
  /** Per report, the time its floor rollups took to build, before any timing. */
  readonly floorSetupMs?: Readonly<Record<string, number>>;
  readonly reports: readonly RequestResult[];
  /** The HTTP load run, or null when it was skipped. */
  readonly http?: HttpResult | null;
  /** The server runs of issues 13 and 14, or null when they were skipped. */
  readonly server?: ServerRuns | null;
}

export const defaultOptions: BenchOptions = {
  scales: [],
  data: [],
  only: [],
  requests: [],
  iterations: 15,
  warmup: 2,
  peerBudgetSeconds: 20,
  requestBudgetSeconds: 30,
  minIterations: 5,
  planIterations: 200,
  peers: true,
  oldFloors: true,
  http: { connections: [1, 16, 64], seconds: 10, warmupSeconds: 3, log: () => {} },
  server: defaultServerRunOptions,
  log: (line) => process.stderr.write(`${line}\n`),
  quiet: false,
};

export async function runBench(options: BenchOptions): Promise<ScaleResult[]> {
  const unknown = options.only.filter((r) => !reportCases.some((c) => c.report === r));
  if (unknown.length > 0)
    throw new UsageError(
      `no bench case for report(s) ${unknown.join(', ')}; known: ${reportCases.map((c) => c.report).join(', ')}`,
    );
  const targets =
    options.data.length > 0
      ? options.data.map((dir) => ({ scale: NaN, dir }))
      : options.scales.map((scale) => ({ scale, dir: undefined }));
  const results: ScaleResult[] = [];
  for (const target of targets) results.push(await benchDataset(target.scale, target.dir, options));
  return results;
}

async function benchDataset(scale: number, dir: string | undefined, options: BenchOptions): Promise<ScaleResult> {
  const found = await resolveDataset(scale, dir, options.quiet);
  options.log(`bench scale ${found.scale} on ${found.dir}`);
  const { ms: openMs, value: engine } = await timed(() =>
    openEngine({ data: found.dir, resultCache: 0, ...(options.state ? { state: options.state } : {}) }),
  );
  let dataset: BenchDataset;
  let duckdb: string;
  const reports: RequestResult[] = [];
  const setupMs: Record<string, number> = {};
  const floorSetupMs: Record<string, number> = {};
  try {
    dataset = { ...found, categories: benchCategories(await engine.listOrganizations()) };
    duckdb = await engine.core.pool.use(async (conn) =>
      String((await conn.runAndReadAll('SELECT version()')).getRows()[0]![0]),
    );
    const wanted = (r: BenchRequest) => options.requests.length === 0 || options.requests.includes(r.id);
    for (const rc of reportCases.filter((c) => options.only.length === 0 || options.only.includes(c.report))) {
      options.log(`report ${rc.report}`);
      if (rc.setup) {
        setupMs[rc.report] = round((await timed(() => rc.setup!(engine, dataset))).ms, 1);
        options.log(`  setup ${setupMs[rc.report]} ms`);
      }
      const run = await runReport(engine, dataset, rc, { ...options }, wanted);
      if (run.floorSetupMs > 0) floorSetupMs[rc.report] = run.floorSetupMs;
      reports.push(...run.results);
    }
  } finally {
    await engine.close();
  }
  let http: HttpResult | null = null;
  if (options.http) {
    options.log('http load: aea serve with the rate limit disabled (--rate-limit 0)');
    http = await runHttpLoad(dataset, { ...options.http, log: options.log });
  }
  const server = options.server ? await runServerRuns(dataset!, { ...options.server, log: options.log }) : null;
  return {
    date: new Date().toISOString().slice(0, 10),
    commit: commit(),
    machine: machine(duckdb),
    scale: found.scale,
    dataset: {
      dir: found.dir,
      generated: found.generated,
      executions: found.rows.executions ?? 0,
      mentions: found.rows.mentions ?? 0,
    },
    options: {
      iterations: options.iterations,
      warmup: options.warmup,
      peerBudgetSeconds: options.peerBudgetSeconds,
      requestBudgetSeconds: options.requestBudgetSeconds,
      minIterations: options.minIterations,
      peers: options.peers,
      ...(options.only.length > 0 ? { only: options.only } : {}),
    },
    openMs: round(openMs, 1),
    setupMs,
    floorSetupMs,
    reports,
    http,
    server,
  };
}

/** Every category with its first owned brand and, in turn, one of its organization's domains. */
export function benchCategories(orgs: readonly OrganizationListing[]): BenchCategory[] {
  return orgs.flatMap((o) =>
    o.categories.map((c, i) => ({
      organizationId: o.id,
      categoryId: c.id,
      asset: o.assets.find((a) => a.category_id === c.id && a.is_owned)?.name ?? '',
      domain: o.domains[i % Math.max(1, o.domains.length)]?.name ?? '',
    })),
  );
}
