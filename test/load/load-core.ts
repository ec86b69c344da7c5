import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { openEngine } from '../../src/open-engine.ts';
import { ApiKeys } from '../../src/state/api-keys.ts';
import { aeaBin } from '../helpers/cli.ts';

export interface LoadOptions {
  readonly data: string;
  readonly state: string;
  readonly clients: number;
  readonly seconds: number;
  readonly maxRequests: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly byStatus: Record<string, number>;
  readonly disconnects: number;
  readonly errors: string[];
  readonly rssStartMiB: number;
  readonly rssPeakMiB: number;
  readonly rssEndMiB: number;
  readonly health: { active_streams: number; busy_connections: number };
  readonly seconds: number;
}

export interface Served {
  readonly url: string;
  readonly child: ChildProcess;
  readonly key: string;
  readonly org: { id: string; categories: { id: string }[] };
  stop(): Promise<void>;
}

/** Starts `aea serve` in its own process with a fresh key and no rate limit, as a load test needs. */
export async function serve(data: string, state: string): Promise<Served> {
  const engine = await openEngine({ data, state });
  const orgs = await engine.listOrganizations();
  const key = (
    await ApiKeys.of(engine.core.state).create({
      organizationId: orgs[0]!.id,
      name: 'load test',
      expiresOn: '2099-12-31',
      now: new Date(),
    })
  ).key;
  await engine.close();
  const child = spawn(
    process.execPath,
    [
      aeaBin,
      'serve',
      '--data',
      data,
      '--state',
      state,
      '--port',
      '0',
      '--rate-limit',
      '0',
      '--result-cache',
      '0',
      '--quiet',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /on (http:\/\/[^;\s]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`aea serve exited with ${code}`)));
  });
  return {
    url,
    child,
    key,
    org: orgs[0]!,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/**
 * Clients loop until the time or request budget runs out, mixing pages, grouped reports, streams read
 * whole and streams dropped midway. Afterwards the server must hold no stream and no busy connection.
 */
export async function runLoad(
  s: Served,
  options: LoadOptions,
  extra: ((i: number) => Promise<number>)[] = [],
): Promise<LoadResult> {
  const headers = { 'x-api-key': s.key, 'content-type': 'application/json' };
  const categories = s.org.categories.map((c) => c.id);
  const window = (i: number) => {
    const month = 1 + (i % 10);
    return {
      start_date: `2026-${String(month).padStart(2, '0')}-01`,
      end_date: `2026-${String(month).padStart(2, '0')}-28`,
    };
  };
  const body = (i: number, more: object = {}) =>
    JSON.stringify({ category_id: categories[i % categories.length], ...window(i), scope: 'all', ...more });
  const scenarios: ((i: number) => Promise<number>)[] = [
    async (i) =>
      await fetch(`${s.url}/v2/reports/visibility`, { method: 'POST', headers, body: body(i) }).then(
        async (r) => (await r.arrayBuffer(), r.status),
      ),
    async (i) =>
      await fetch(`${s.url}/v2/reports/visibility`, {
        method: 'POST',
        headers,
        body: body(i, { group_by: ['model', 'date'], interval: 'week', limit: 50 }),
      }).then(async (r) => (await r.arrayBuffer(), r.status)),
    async (i) =>
      await fetch(`${s.url}/v2/reports/visibility/stream`, {
        method: 'POST',
        headers,
        body: body(i, { group_by: ['prompt'] }),
      }).then(async (r) => (await r.text(), r.status)),
    async (i) => {
      const controller = new AbortController();
      const r = await fetch(`${s.url}/v2/reports/visibility/stream`, {
        method: 'POST',
        headers,
        body: body(i, { group_by: ['prompt', 'date'] }),
        signal: controller.signal,
      });
      await r.body?.getReader().read();
      controller.abort();
      return -1;
    },
    async (i) =>
      await fetch(`${s.url}/v2/reports/visibility`, { method: 'POST', headers, body: body(i, { limit: 0 }) }).then(
        async (r) => (await r.arrayBuffer(), r.status),
      ),
    ...extra,
  ];
  const byStatus: Record<string, number> = {};
  const errors: string[] = [];
  let requests = 0;
  let disconnects = 0;
  const rssStart = rssMiB(s.child.pid!);
  let rssPeak = rssStart;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(s.child.pid!))), 250);
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.clients }, async (_, client) => {
      let i = client;
      while (Date.now() < deadline && requests < options.maxRequests) {
        requests++;
        i += options.clients;
        try {
          const status = await scenarios[i % scenarios.length]!(i);
          if (status === -1) disconnects++;
          else byStatus[status] = (byStatus[status] ?? 0) + 1;
        } catch (error) {
          errors.push((error as Error).message);
        }
      }
    }),
  );
  clearInterval(sampler);
  let health = { active_streams: -1, busy_connections: -1 };
  for (let attempt = 0; attempt < 50; attempt++) {
    health = (await (await fetch(`${s.url}/healthz`)).json()) as typeof health;
    if (health.active_streams === 0 && health.busy_connections === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    requests,
    byStatus,
    disconnects,
    errors,
    rssStartMiB: rssStart,
    rssPeakMiB: rssPeak,
    rssEndMiB: rssMiB(s.child.pid!),
    health,
    seconds: (Date.now() - started) / 1000,
  };
}
