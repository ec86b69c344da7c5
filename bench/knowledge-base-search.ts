import { performance } from 'node:perf_hooks';
import { SearchIndex } from '../src/knowledge/search-index.ts';

/**
 * Knowledge-base search at scale: N synthetic documents (Zipf-distributed vocabulary, 60-180 words),
 * indexed one at a time as the search worker does, then 200 two-term queries. Prints JSON figures.
 * Usage: npm run bench:kb -- [documents=100000]
 */
const n = Number(process.argv[2] ?? 100_000);
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
const total = cumulative[cumulative.length - 1]!;
const word = () => {
  const r = rnd() * total;
  let lo = 0;
  for (let hi = vocab.length - 1; lo < hi; ) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return vocab[lo]!;
};
const docs = Array.from({ length: n }, (_, i) => ({ path: `f${i % 50}/doc-${i}.md`, folder: `f${i % 50}`, tags: [], text: Array.from({ length: 60 + Math.floor(rnd() * 120) }, word).join(' ') }));
const queries = Array.from({ length: 200 }, () => `${vocab[20 + Math.floor(rnd() * 2000)]} ${vocab[20 + Math.floor(rnd() * 2000)]}`);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!;

const index = new SearchIndex();
const heap0 = process.memoryUsage().heapUsed;
const adds: number[] = [];
const started = performance.now();
for (const doc of docs) {
  const t = performance.now();
  index.add([doc]);
  adds.push(performance.now() - t);
}
const buildSeconds = (performance.now() - started) / 1000;
const searches: number[] = [];
for (const query of queries) {
  const t = performance.now();
  index.search({ query, topK: 10, folder: null, tags: null });
  searches.push(performance.now() - t);
}
const common: number[] = [];
for (const query of [vocab[0]!, `${vocab[0]} ${vocab[1]} ${vocab[2]}`]) {
  const t = performance.now();
  index.search({ query, topK: 10, folder: null, tags: null });
  common.push(performance.now() - t);
}
const edits: number[] = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  index.remove([docs[i]!]);
  index.add([{ ...docs[i]!, text: `${docs[i]!.text} ${word()}` }]);
  edits.push(performance.now() - t);
}
console.log(
  JSON.stringify({
    documents: n,
    build_seconds: +buildSeconds.toFixed(1),
    index_one_ms: { p50: +pct(adds, 0.5).toFixed(3), p99: +pct(adds, 0.99).toFixed(3) },
    edit_ms_p50: +pct(edits, 0.5).toFixed(3),
    heap_mb: Math.round((process.memoryUsage().heapUsed - heap0) / 2 ** 20),
    search_ms: { p50: +pct(searches, 0.5).toFixed(2), p95: +pct(searches, 0.95).toFixed(2), max: +Math.max(...searches).toFixed(1) },
    common_term_search_ms: common.map((x) => +x.toFixed(0)),
  }),
);
