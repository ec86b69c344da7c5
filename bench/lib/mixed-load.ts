import { maxRefsPerPrompt } from '../../src/limits.ts';
import { addDays, type BenchDataset } from './dataset.ts';
import { percentile, round } from './measure.ts';
import { sleep, type Served } from './serve.ts';
import { keyTaker } from './slow-streams.ts';

/**
 * Heavy and light requests mixed (issue 13): `heavy` concurrent visibility requests over three years
 * grouped by all six dimensions, each on its own key and category, while one client sends light
 * requests (`GET /v1/org/models`); the light latencies before (baseline) and during the
 * heavy ones, sent every 50 ms. Then a PATCH adding 1,000 new tags while `/healthz` is probed every 10 ms.
 */
export interface Latencies {
  readonly n: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly errors: number;
}

export interface MixedLoad {
  readonly heavyLabel: string;
  readonly heavy: readonly { readonly status: number; readonly ms: number }[];
  readonly lightPath: string;
  readonly baseline: Latencies;
  readonly light: Latencies;
}

export interface PatchRun {
  readonly prompts: number;
  readonly newTags: number;
  readonly status: number;
  readonly ms: number;
  readonly tagsCreated: number | null;
  /** `/healthz` every 10 ms while the PATCH ran. */
  readonly probe: Latencies;
}

const lightPath = '/v1/org/models';
/** Light requests go out every 50 ms (20 a second) whatever the answers' pace. */
const lightEveryMs = 50;
const dimensions = ['date', 'model', 'topic', 'region', 'prompt', 'persona'];

function latencies(samples: readonly { ms: number; ok: boolean }[]): Latencies {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50Ms: round(percentile(sorted, 50), 1),
    p99Ms: round(percentile(sorted, 99), 1),
    maxMs: round(sorted[sorted.length - 1] ?? NaN, 1),
    errors: samples.filter((s) => !s.ok).length,
  };
}

/**
 * Sends `path` every `everyMs` until `until` settles (at least `min` requests), timing each. An open
 * loop: a request that stalls does not hold back the next ones, so a stall counts once per request it
 * delays, not once (no coordinated omission).
 */
async function loop(
  url: string,
  key: string,
  path: string,
  until: Promise<unknown>,
  everyMs: number,
  min = 0,
): Promise<{ ms: number; ok: boolean }[]> {
  let done = false;
  void until.finally(() => (done = true));
  const one = async () => {
    const start = performance.now();
    try {
      const res = await fetch(`${url}${path}`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(600_000) });
      await res.arrayBuffer();
      return { ms: performance.now() - start, ok: res.ok };
    } catch {
      return { ms: performance.now() - start, ok: false };
    }
  };
  const sent: Promise<{ ms: number; ok: boolean }>[] = [];
  while (!done || sent.length < min) {
    sent.push(one());
    await sleep(everyMs);
  }
  return Promise.all(sent);
}

export async function mixedLoad(
  dataset: BenchDataset,
  served: Served,
  heavy: number,
  log: (line: string) => void,
): Promise<MixedLoad> {
  const nextKey = keyTaker();
  const light = dataset.categories[0]!;
  const lightKey = nextKey(served, light.organizationId);
  const baseline = await loop(served.url, lightKey, lightPath, Promise.resolve(), lightEveryMs, 60);
  const requests = Array.from({ length: heavy }, (_, i) => {
    const c = dataset.categories[(i + 1) % dataset.categories.length]!;
    const body = {
      category_id: c.categoryId,
      start_date: addDays(dataset.lastDay, -1095),
      end_date: dataset.lastDay,
      scope: 'all',
      group_by: dimensions,
    };
    return { key: nextKey(served, c.organizationId), body };
  });
  const heavyRuns = Promise.all(
    requests.map(async (r) => {
      const start = performance.now();
      try {
        const res = await fetch(`${served.url}/v2/reports/visibility`, {
          method: 'POST',
          headers: { 'x-api-key': r.key, 'content-type': 'application/json' },
          body: JSON.stringify(r.body),
          signal: AbortSignal.timeout(600_000),
        });
        await res.arrayBuffer();
        return { status: res.status, ms: round(performance.now() - start, 1) };
      } catch {
        return { status: 0, ms: round(performance.now() - start, 1) };
      }
    }),
  );
  const during = await loop(served.url, lightKey, lightPath, heavyRuns, lightEveryMs);
  const result = {
    heavyLabel: `v2 visibility, 1,096 days, group_by ${dimensions.join(' × ')}, scope all`,
    heavy: await heavyRuns,
    lightPath,
    baseline: latencies(baseline),
    light: latencies(during),
  };
  log(
    `  mixed load: ${heavy} heavy (${result.heavy.map((h) => `${h.status} in ${(h.ms / 1000).toFixed(1)} s`).join(', ')}); ${lightPath} p50 ${result.light.p50Ms} ms, p99 ${result.light.p99Ms} ms (baseline p99 ${result.baseline.p99Ms} ms)`,
  );
  return result;
}

export async function patchRun(dataset: BenchDataset, served: Served, log: (line: string) => void): Promise<PatchRun> {
  const c = dataset.categories[0]!;
  const key = keyTaker()(served, c.organizationId);
  const prompts = await served.prompts(c.categoryId, 50);
  const perPrompt = Math.min(maxRefsPerPrompt, Math.ceil(1000 / Math.max(1, prompts.length)));
  let n = 0;
  const entries = prompts.map((id) => ({
    id,
    tags: Array.from({ length: perPrompt }, () => (n < 1000 ? `bench tag ${n++}` : null)).filter((t) => t !== null),
  }));
  const patch = (async () => {
    const start = performance.now();
    const res = await fetch(`${served.url}/v1/org/categories/${c.categoryId}/prompts`, {
      method: 'PATCH',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ prompts: entries, dry_run: false }),
      signal: AbortSignal.timeout(600_000),
    });
    const json = (await res.json().catch(() => null)) as { tags_created?: number } | null;
    return { status: res.status, ms: round(performance.now() - start, 1), tagsCreated: json?.tags_created ?? null };
  })();
  const probe = await loop(served.url, key, '/healthz', patch, 10, 1);
  const r = await patch;
  const result = { prompts: entries.length, newTags: n, ...r, probe: latencies(probe) };
  log(
    `  PATCH ${n} new tags on ${entries.length} prompts: ${r.status} in ${r.ms} ms (${r.tagsCreated ?? '–'} created); /healthz max ${result.probe.maxMs} ms meanwhile`,
  );
  return result;
}
