import type { IndexedDocument, SearchHit, SearchQuery } from './search-protocol.ts';

/** Relevance scores keep 9 significant digits: the index's running average may differ in its last bits after edits. */
const round = (score: number) => Number(score.toPrecision(9));

const inFolder = (folder: string, within: string) => folder === within || folder.startsWith(`${within}/`);

/** Any run of Unicode spaces, newlines or punctuation separates words (MiniSearch's default, which the scores were first defined by). */
const separator = /[\n\r\p{Z}\p{P}]+/u;

/** BM25+ parameters: term-frequency saturation, length normalization, the lower bound of one occurrence. */
const k = 1.2;
const b = 0.7;
const d = 0.5;

/** The words of a text, lower-cased, and how often each occurs. */
function termCounts(text: string): { terms: Map<string, number>; length: number } {
  // Counted by raw token first (in a box, one hash lookup an occurrence): lower-casing each distinct token once is far cheaper than once per occurrence.
  const raw = new Map<string, { n: number }>();
  for (const token of text.split(separator)) {
    const held = raw.get(token);
    if (held) held.n++;
    else raw.set(token, { n: 1 });
  }
  const terms = new Map<string, number>();
  for (const [token, { n }] of raw) {
    if (token === '') continue;
    const term = token.toLowerCase();
    terms.set(term, (terms.get(term) ?? 0) + n);
  }
  // The length BM25 normalizes by is the count of distinct tokens as written (an empty one included), as MiniSearch counts it.
  return { terms, length: raw.size };
}

/** The words of a text, lower-cased, in order, repeats kept (in a query, a repeated word counts again). */
export function words(text: string): string[] {
  return text
    .split(separator)
    .filter((t) => t !== '')
    .map((t) => t.toLowerCase());
}

interface Doc {
  readonly path: string;
  readonly folder: string;
  readonly tags: readonly string[];
  readonly length: number;
}

/** A growable array of 32-bit integers. */
class Ints {
  values: Int32Array;

  constructor(capacity: number, fill = 0) {
    this.values = new Int32Array(capacity).fill(fill);
  }

  /** Makes room for index `i`, growing by half (as V8 grows arrays); new slots hold `fill`. */
  reach(i: number, fill = 0): void {
    if (i < this.values.length) return;
    const grown = new Int32Array(Math.max(i + 1, Math.ceil(this.values.length * 1.5))).fill(fill);
    grown.set(this.values);
    this.values = grown;
  }
}

/**
 * One knowledge base's full-text index: BM25+ over each document's text, the path as id.
 *
 * The inverted index is a set of linked lists in flat integer arrays: each posting (document, term frequency)
 * is an entry, and a term's entries are chained from its head, newest first. Adding a document appends its
 * postings (no array per term, no per-term allocation); a removed document's entries go to a free list that
 * later adds reuse, and a term left with none gives its id back. Building 10,000 small documents this way takes
 * about half the time of an array per term, and a fraction of MiniSearch's.
 *
 * Its scores are MiniSearch 7's (k 1.2, b 0.7, δ 0.5; a document's score is the sum over query words, in
 * query order, times the count of distinct query words it holds), computed in the same order of floating-point
 * operations, the running average of lengths included; `test/search-index.test.ts` compares them.
 * Removal takes the document as it was indexed, so the index never keeps a stale term.
 */
export class SearchIndex {
  private readonly termIds = new Map<string, number>();
  private readonly freeTermIds: number[] = [];
  /** Per term id: its newest entry (-1: none), and how many documents hold it. */
  private readonly heads = new Ints(1024, -1);
  private readonly holders = new Ints(1024);
  /** Per entry: the document, the term's frequency in it, the term's next entry (or the next free entry). */
  private readonly entryDoc = new Ints(1 << 12);
  private readonly entryCount = new Ints(1 << 12);
  private readonly entryNext = new Ints(1 << 12, -1);
  private entries = 0;
  private free = -1;
  private readonly docs = new Map<number, Doc>();
  private readonly ids = new Map<string, number>();
  private nextId = 1;
  private averageLength = 0;

  add(docs: readonly IndexedDocument[]): void {
    for (const doc of docs) {
      if (this.ids.has(doc.path)) throw new Error(`${doc.path} is indexed already`);
      const { terms, length } = termCounts(doc.text);
      const id = this.nextId++;
      this.ids.set(doc.path, id);
      this.docs.set(id, { path: doc.path, folder: doc.folder, tags: doc.tags, length });
      const before = this.docs.size - 1;
      this.averageLength = (this.averageLength * before + length) / (before + 1);
      terms.forEach((n, term) => this.post(term, id, n));
    }
  }

  remove(docs: readonly IndexedDocument[]): void {
    for (const doc of docs) {
      const id = this.ids.get(doc.path);
      if (id === undefined) continue;
      const { terms, length } = termCounts(doc.text);
      const count = this.docs.size;
      this.averageLength = count === 1 ? 0 : (this.averageLength * count - length) / (count - 1);
      for (const term of terms.keys()) this.unpost(term, id);
      this.docs.delete(id);
      this.ids.delete(doc.path);
    }
  }

  get size(): number {
    return this.docs.size;
  }

  /** Posting entries ever allocated, and term ids: removals free theirs for later adds, so edits never grow them. */
  get allocated(): { entries: number; terms: number } {
    return { entries: this.entries, terms: this.termIds.size + this.freeTermIds.length };
  }

  /** The best documents for the query, best first; equal scores by path. */
  search(q: SearchQuery): SearchHit[] {
    const tags = q.tags && q.tags.length > 0 ? new Set(q.tags) : null;
    const folder = q.folder;
    const keep = (doc: Doc) =>
      (folder === null || inFolder(doc.folder, folder)) && (tags === null || doc.tags.some((t) => tags.has(t)));
    const total = this.docs.size;
    const scores = new Map<number, { score: number; matched: Set<string> }>();
    const [entryDoc, entryCount, entryNext] = [this.entryDoc.values, this.entryCount.values, this.entryNext.values];
    for (const term of words(q.query)) {
      const t = this.termIds.get(term);
      if (t === undefined) continue;
      const matching = this.holders.values[t]!;
      const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
      for (let e = this.heads.values[t]!; e >= 0; e = entryNext[e]!) {
        const id = entryDoc[e]!;
        const tf = entryCount[e]!;
        const length = this.docs.get(id)!.length;
        const score = idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * length) / this.averageLength)));
        const acc = scores.get(id);
        if (acc) {
          acc.score = acc.score + score;
          acc.matched.add(term);
        } else scores.set(id, { score, matched: new Set([term]) });
      }
    }
    const hits: SearchHit[] = [];
    for (const [id, { score, matched }] of scores) {
      const doc = this.docs.get(id)!;
      if (keep(doc)) hits.push({ path: doc.path, score: round(score * matched.size) });
    }
    return hits.sort((x, y) => y.score - x.score || (x.path < y.path ? -1 : x.path > y.path ? 1 : 0)).slice(0, q.topK);
  }

  private post(term: string, id: number, n: number): void {
    let t = this.termIds.get(term);
    if (t === undefined) {
      t = this.freeTermIds.pop() ?? this.termIds.size;
      this.termIds.set(term, t);
      this.heads.reach(t, -1);
      this.holders.reach(t);
    }
    let e = this.free;
    if (e >= 0) this.free = this.entryNext.values[e]!;
    else {
      e = this.entries++;
      this.entryDoc.reach(e);
      this.entryCount.reach(e);
      this.entryNext.reach(e, -1);
    }
    this.entryDoc.values[e] = id;
    this.entryCount.values[e] = n;
    this.entryNext.values[e] = this.heads.values[t]!;
    this.heads.values[t] = e;
    this.holders.values[t]!++;
  }

  private unpost(term: string, id: number): void {
    const t = this.termIds.get(term);
    if (t === undefined) return;
    const next = this.entryNext.values;
    let before = -1;
    let e = this.heads.values[t]!;
    while (e >= 0 && this.entryDoc.values[e] !== id) [before, e] = [e, next[e]!];
    if (e < 0) return;
    if (before < 0) this.heads.values[t] = next[e]!;
    else next[before] = next[e]!;
    next[e] = this.free;
    this.free = e;
    if (--this.holders.values[t]! === 0) {
      this.termIds.delete(term);
      this.freeTermIds.push(t);
    }
  }
}
