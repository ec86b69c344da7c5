import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEngine } from '../../src/open-engine.ts';
import { ApiKeys } from '../../src/state/api-keys.ts';
import type { BenchDataset } from './dataset.ts';
import { round } from './measure.ts';

/**
 * The real `aea serve` as a child process (rate limit off, result cache off unless asked, a fresh state file), with API keys made
 * beforehand, and its resident memory read from /proc. The HTTP load, the slow readers and the mixed
 * load all drive one of these over loopback.
 */
export interface Served {
  readonly url: string;
  readonly pid: number;
  readonly startMs: number;
  /** Keys by organization, `perOrganization` each, in dataset order. */
  readonly keys: ReadonlyMap<string, readonly string[]>;
  /** Category ids → prompt ids of the dataset (for the PATCH run). */
  readonly prompts: (categoryId: string, n: number) => Promise<string[]>;
  /** The category ids each of `categorySql` (one `category_id` column) answered before the server started. */
  readonly categories: ReadonlyMap<string, readonly string[]>;
  rssMiB(): number;
  stop(): Promise<void>;
}

/** The `aea` a user runs: bin/aea.mjs starts the build when it is current, else the sources through tsx. */
const aeaBin = fileURLToPath(new URL('../../bin/aea.mjs', import.meta.url));

export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const ticksPerSecond = 100;

/** CPU time (user and system, every thread) a process has used, in ms; Linux counts it in ticks of 10 ms. */
export function cpuMsOf(pid: number): number {
  // The command name (field 2) may hold spaces: the fields after it are counted from its closing parenthesis.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

export function listen(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /on (http:\/\/[^;\s]+)/.exec(out);
      if (!m) return;
      if (!out.includes('(rate limit off)'))
        reject(new Error(`aea serve did not turn the rate limit off: ${out.trim()}`));
      resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`aea serve exited with ${code} before listening`)));
  });
}

export async function serve(
  dataset: BenchDataset,
  perOrganization: number,
  categorySql: readonly string[] = [],
  resultCache = '0',
): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'aea-bench-serve-'));
  const state = join(dir, 'state.duckdb');
  const organizations = [...new Set(dataset.categories.map((c) => c.organizationId))];
  const engine = await openEngine({ data: dataset.dir, state, rollups: false, resultCache: 0 });
  const keys = new Map<string, string[]>();
  const promptIds = new Map<string, string[]>();
  const categories = new Map<string, string[]>();
  try {
    const store = ApiKeys.of(engine.core.state);
    for (const organizationId of organizations) {
      const list: string[] = [];
      for (let i = 0; i < perOrganization; i++)
        list.push(
          (await store.create({ organizationId, name: `bench ${i}`, expiresOn: '2099-12-31', now: new Date() })).key,
        );
      keys.set(organizationId, list);
    }
    await engine.core.pool.use(async (conn) => {
      const rows = (
        await conn.runAndReadAll('SELECT category_id, id FROM prompts ORDER BY category_id, id')
      ).getRowsJS();
      for (const [c, id] of rows) promptIds.set(String(c), [...(promptIds.get(String(c)) ?? []), String(id)]);
      for (const q of categorySql)
        categories.set(
          q,
          (await conn.runAndReadAll(q)).getRowsJS().map((r) => String(r[0])),
        );
    });
  } finally {
    await engine.close();
  }
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      aeaBin,
      'serve',
      '--data',
      dataset.dir,
      '--state',
      state,
      '--port',
      '0',
      '--rate-limit',
      '0',
      '--heavy-per-key',
      '0',
      '--result-cache',
      resultCache,
      '--quiet',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let url: string;
  try {
    url = await listen(child);
  } catch (e) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url,
    pid: child.pid!,
    startMs: round(performance.now() - started, 1),
    keys,
    categories,
    prompts: async (categoryId, n) => (promptIds.get(categoryId) ?? []).slice(0, n),
    rssMiB: () => rssOf(child.pid!),
    stop: async () => {
      // aea serve drains before it exits; a server that does not within 60 s is killed, so a run never hangs.
      const killed = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve)));
      clearTimeout(killed);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Samples a process's RSS every 100 ms while `fn` runs; resolves with fn's value and the peak. */
export async function withPeak<T>(rss: () => number, fn: () => Promise<T>): Promise<{ value: T; peakMiB: number }> {
  let peak = rss();
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 100);
  try {
    const value = await fn();
    return { value, peakMiB: Math.max(peak, rss()) };
  } finally {
    clearInterval(timer);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
