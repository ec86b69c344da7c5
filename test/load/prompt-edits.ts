import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openEngine } from '../../src/open-engine.ts';
import { ensureSample } from '../../src/generate/sample.ts';
import { startServer } from '../helpers/server.ts';

/**
 * `npx tsx test/load/prompt-edits.ts [--data DIR] [--tags 1000,10000] [--vocabulary 30000]`: PATCHes
 * that add N new tag names (100 per prompt) to one category, timing each PATCH, the longest event-loop
 * stall during it, and the slowest /openapi.json and /docs asked for while it runs; then the same with the
 * category holding `--vocabulary` tags.
 */
const { values } = parseArgs({
  options: { data: { type: 'string' }, tags: { type: 'string' }, vocabulary: { type: 'string' } },
});
const data = values.data ?? (await ensureSample());
const sizes = (values.tags ?? '1000,10000').split(',').map(Number);
const vocabulary = Number(values.vocabulary ?? 30_000);
const engine = await openEngine({ data });
const server = await startServer(engine, { rateLimit: false, heavyPerKey: 0 });
const [org] = await engine.listOrganizations();
const key = await server.key(org!.id);
const headers = { 'x-api-key': key, 'content-type': 'application/json' };
const categoryId = org!.categories[0]!.id;
const url = `${server.url}/v1/org/categories/${categoryId}/prompts`;

async function json(path: string, init?: RequestInit): Promise<{ status: number; body: unknown; ms: number }> {
  const t = performance.now();
  const r = await fetch(path, { ...init, headers });
  const body = await r.json();
  return { status: r.status, body, ms: performance.now() - t };
}

async function promptIds(count: number): Promise<string[]> {
  const listed = (await json(`${url}?limit=1`)).body as {
    data: { id: string; topic: { id: string }; platforms: { id: string }[]; regions: { id: string }[] }[];
  };
  const seed = listed.data[0]!;
  const ids: string[] = [];
  for (let cursor: string | null = null; ; ) {
    const page = (await json(`${url}?limit=1000${cursor ? `&cursor=${cursor}` : ''}`)).body as {
      data: { id: string }[];
      pagination?: { next_cursor: string | null };
    };
    ids.push(...page.data.map((p) => p.id));
    cursor = page.pagination?.next_cursor ?? null;
    if (!cursor) break;
  }
  while (ids.length < count) {
    const n = Math.min(1000, count - ids.length);
    const prompts = Array.from({ length: n }, (_, i) => ({
      prompt: `Load prompt ${ids.length + i}`,
      language: 'en-US',
      topic: { id: seed.topic.id },
      platforms: [seed.platforms[0]!.id],
      regions: [seed.regions[0]!.id],
    }));
    const created = (await json(url, { method: 'POST', body: JSON.stringify({ prompts }) })).body as {
      prompts: { id: string }[];
    };
    ids.push(...created.prompts.map((p) => p.id));
  }
  return ids.slice(0, count);
}

let run = 0;
async function patch(newTags: number): Promise<Record<string, number>> {
  run++;
  const ids = await promptIds(Math.ceil(newTags / 100));
  const prompts = ids.map((id, p) => ({
    id,
    tags: Array.from({ length: Math.min(100, newTags - p * 100) }, (_, t) => `run ${run} tag ${p * 100 + t}`),
  }));
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let finished = false;
  const edit = json(url, { method: 'PATCH', body: JSON.stringify({ prompts }) }).finally(() => (finished = true));
  // /openapi.json and /docs asked for over and over while the PATCH runs: the slowest answer of each.
  let openapi = 0;
  let docs = 0;
  while (!finished) {
    const t = performance.now();
    await json(`${server.url}/openapi.json`);
    openapi = Math.max(openapi, performance.now() - t);
    const d = performance.now();
    await (await fetch(`${server.url}/docs`)).text();
    docs = Math.max(docs, performance.now() - d);
  }
  const done = await edit;
  loop.disable();
  if (done.status !== 200) throw new Error(`PATCH answered ${done.status}: ${JSON.stringify(done.body).slice(0, 300)}`);
  return {
    new_tags: newTags,
    patch_ms: Math.round(done.ms),
    max_stall_ms: Math.round(loop.max / 1e6),
    openapi_max_ms: Math.round(openapi),
    docs_max_ms: Math.round(docs),
  };
}

const results = [];
for (const n of sizes) results.push(await patch(n));
const have = ((await json(`${server.url}/v1/org/categories/${categoryId}/tags`)).body as unknown[]).length;
if (have < vocabulary) await patch(vocabulary - have);
const big = {
  vocabulary: ((await json(`${server.url}/v1/org/categories/${categoryId}/tags`)).body as unknown[]).length,
  ...(await patch(1000)),
};
const t = performance.now();
await fetch(`${server.url}/docs`).then((r) => r.text());
const docsMs = performance.now() - t;
process.stdout.write(
  JSON.stringify({ data, results, with_vocabulary: big, docs_ms_after: Math.round(docsMs) }, null, 2) + '\n',
);
await server.close();
await engine.close();
