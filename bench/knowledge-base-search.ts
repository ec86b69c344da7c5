import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { openEngine } from '../src/open-engine.ts';
import { ensureSample } from '../src/generate/sample.ts';
import MiniSearch from 'minisearch';
import { SearchIndex } from '../src/knowledge/search-index.ts';

/**
 * Knowledge-base search at scale, on one synthetic corpus: N documents of 60–180 words drawn from a
 * Zipf-like vocabulary of 30,000 words, and 200 two-term queries of mid-frequency words.
 *
 *   npm run bench:kb -- [documents=100000]                  the index alone (what the search worker runs)
 *   npm run bench:kb -- 100000 --e2e                        through the engine: store, worker, library calls,
 *                                                           and the main thread's event-loop delay meanwhile
 *   npm i --no-save @orama/orama@3.1.18 flexsearch@0.8.212 && npm run bench:kb -- 100000 --candidates
 *                                                           ours, MiniSearch, Orama and FlexSearch on the same corpus
 */
const args = process.argv.slice(2);
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
const mode = args.includes('--e2e') ? 'e2e' : args.includes('--candidates') ? 'candidates' : 'index';

let seed = 7;
const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'so', 'vi', 'de', 'pa', 'zu', 'ho', 'ge', 'fi', 'ba', 'xo'];
const vocab = Array.from({ length: 30_000 }, (_, i) => {
  let w = '';
  for (let x = i + 1; x > 0; x = Math.floor(x / 16)) w += syllables[x % 16];
  return w;
});
const cumulative: number[] = [];
vocab.reduce((acc, _, i) => (cumulative.push(acc + 1 / (i + 1) ** 1.05), acc + 1 / (i + 1) ** 1.05), 0);
const word = () => {
  const r = rnd() * cumulative[cumulative.length - 1]!;
  let lo = 0;
  for (let hi = vocab.length - 1; lo < hi; ) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return vocab[lo]!;
};
const docs = Array.from({ length: n }, (_, i) => ({
  path: `f${i % 50}/doc-${i}.md`,
  folder: `f${i % 50}`,
  tags: [] as string[],
  text: Array.from({ length: 60 + Math.floor(rnd() * 120) }, word).join(' '),
}));
const queries = Array.from(
  { length: 200 },
  () => `${vocab[20 + Math.floor(rnd() * 2000)]} ${vocab[20 + Math.floor(rnd() * 2000)]}`,
);
const commonQueries = [vocab[0]!, `${vocab[0]} ${vocab[1]} ${vocab[2]}`];

const pct = (xs: number[], p: number) => +[...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!.toFixed(3);
const ms = (x: number) => +x.toFixed(1);
// The index's postings are typed arrays, outside the JS heap: both are counted.
const heapMb = () => Math.round((process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers) / 2 ** 20);

interface Candidate {
  add(doc: (typeof docs)[number]): unknown;
  search(query: string): unknown;
}

async function timeCandidate(name: string, make: () => Promise<Candidate>) {
  global.gc?.();
  const heap0 = heapMb();
  const index = await make();
  const adds: number[] = [];
  const started = performance.now();
  for (const doc of docs) {
    const t = performance.now();
    await index.add(doc);
    adds.push(performance.now() - t);
  }
  const build = (performance.now() - started) / 1000;
  global.gc?.();
  const heap = heapMb() - heap0;
  const searches: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await index.search(q);
    searches.push(performance.now() - t);
  }
  const common: number[] = [];
  for (const q of commonQueries) {
    const t = performance.now();
    await index.search(q);
    common.push(ms(performance.now() - t));
  }
  return {
    name,
    documents: n,
    load_average: os.loadavg().map((x) => +x.toFixed(1)),
    build_seconds: +build.toFixed(1),
    index_one_ms: { p50: pct(adds, 0.5), p99: pct(adds, 0.99), max: ms(Math.max(...adds)) },
    heap_mb: heap,
    search_ms: { p50: pct(searches, 0.5), p95: pct(searches, 0.95) },
    common_term_search_ms: common,
  };
}

const ourIndex = async (): Promise<Candidate> => {
  const index = new SearchIndex();
  return { add: (d) => index.add([d]), search: (q) => index.search({ query: q, topK: 10, folder: null, tags: null }) };
};

async function candidates() {
  const load = (name: string): Promise<Record<string, unknown>> => import(name) as Promise<Record<string, unknown>>;
  const orama = await load('@orama/orama');
  const flex = ((await load('flexsearch')).default ?? (await load('flexsearch'))) as {
    Index: new (o: object) => { add(id: number, text: string): void; search(q: string, o: object): unknown };
  };
  const out = [await timeCandidate('SearchIndex (ours)', ourIndex)];
  out.push(
    await timeCandidate('minisearch', async () => {
      const index = new MiniSearch<(typeof docs)[number]>({ idField: 'path', fields: ['text'] });
      return { add: (d) => index.add(d), search: (q) => index.search(q, { combineWith: 'OR' }) };
    }),
  );
  out.push(
    await timeCandidate('@orama/orama', async () => {
      const db = (orama.create as (o: object) => unknown)({ schema: { path: 'string', text: 'string' } });
      return {
        add: (d) => (orama.insert as (db: unknown, d: object) => unknown)(db, { path: d.path, text: d.text }),
        search: (q) =>
          (orama.search as (db: unknown, o: object) => unknown)(db, { term: q, properties: ['text'], limit: 10 }),
      };
    }),
  );
  out.push(
    await timeCandidate('flexsearch', async () => {
      const index = new flex.Index({ tokenize: 'strict', resolution: 9 });
      let id = 0;
      return { add: (d) => index.add(id++, d.text), search: (q) => index.search(q, { limit: 10 }) };
    }),
  );
  for (const r of out) console.log(JSON.stringify(r));
}

/** Through the engine: documents in the state store, the index in the worker, searches and edits as library calls. */
async function endToEnd() {
  const engine = await openEngine({ data: await ensureSample() });
  try {
    const [org] = await engine.listOrganizations();
    const scope = engine.org(org!.id);
    const kb = ((await scope.resources.knowledgeBases({})).data as { id: string }[])[0]!.id;
    await engine.core.state.transaction(async (conn) => {
      for (let i = 0; i < docs.length; i += 1000) {
        const batch = docs.slice(i, i + 1000);
        await conn.run(
          `INSERT INTO state.kb_documents
           SELECT '00000000-0000-4000-8000-' || lpad(CAST($first + o - 1 AS VARCHAR), 12, '0'), $org, $kb, 'bench/' || p, t, []::VARCHAR[], now(), now()
           FROM (SELECT unnest(from_json($paths, '["VARCHAR"]')) AS p, unnest(from_json($texts, '["VARCHAR"]')) AS t, unnest(range(1, $count + 1)) AS o)`,
          {
            first: i,
            count: batch.length,
            org: org!.id,
            kb,
            paths: JSON.stringify(batch.map((d) => d.path)),
            texts: JSON.stringify(batch.map((d) => d.text)),
          },
        );
      }
    });
    // The corpus is in the store now: drop this process's copy, so a collection of it is not counted as the engine's delay.
    const edited = docs.slice(0, 50);
    docs.length = 0;
    global.gc?.();
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    // A control: the same histogram over 5 idle seconds shows what the machine's load alone does to the loop.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const idle = { p99: ms(loop.percentile(99) / 1e6), max: ms(loop.max / 1e6) };
    loop.reset();
    const search = (query: string) =>
      scope.resources.searchKnowledgeBase({ params: { knowledge_base_id: kb }, body: { query, top_k: 10 } });
    let t = performance.now();
    await search(queries[0]!);
    const firstSearch = (performance.now() - t) / 1000;
    const buildLoop = { p99: ms(loop.percentile(99) / 1e6), max: ms(loop.max / 1e6) };
    loop.reset();
    const searches: number[] = [];
    for (const q of queries) {
      t = performance.now();
      await search(q);
      searches.push(performance.now() - t);
    }
    const common: number[] = [];
    for (const q of commonQueries) {
      t = performance.now();
      await search(q);
      common.push(ms(performance.now() - t));
    }
    const edits: number[] = [];
    for (let i = 0; i < 50; i++) {
      t = performance.now();
      await scope.resources.updateKnowledgeBaseDocument({
        params: { knowledge_base_id: kb },
        body: { name: `bench/${edited[i]!.path}`, text: `${edited[i]!.text} ${word()}` },
      });
      edits.push(performance.now() - t);
    }
    console.log(
      JSON.stringify({
        mode: 'e2e',
        documents: n,
        load_average: os.loadavg().map((x) => +x.toFixed(1)),
        first_search_with_build_seconds: +firstSearch.toFixed(1),
        event_loop_delay_ms: {
          idle_control: idle,
          during_build: buildLoop,
          during_searches_and_edits: { p99: ms(loop.percentile(99) / 1e6), max: ms(loop.max / 1e6) },
        },
        search_ms: { p50: pct(searches, 0.5), p95: pct(searches, 0.95) },
        common_term_search_ms: common,
        edit_ms_p50: pct(edits, 0.5),
      }),
    );
  } finally {
    await engine.close();
  }
}

if (mode === 'candidates') await candidates();
else if (mode === 'e2e') await endToEnd();
else {
  const r = await timeCandidate('SearchIndex (ours)', ourIndex);
  console.log(JSON.stringify(r));
}
