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

/** The documents holding a term and how often; unordered (a removal moves the last entry into the gap). */
interface Posting {
  readonly ids: number[];
  readonly counts: number[];
}

interface Doc {
  readonly path: string;
  readonly folder: string;
  readonly tags: readonly string[];
  readonly length: number;
}

/**
 * One knowledge base's full-text index: BM25+ over each document's text, the path as id. An inverted index
 * (term → documents and frequencies), so adding a document costs a hash lookup per word and one per distinct word.
 *
 * Its scores are MiniSearch 7's (k 1.2, b 0.7, δ 0.5; a document's score is the sum over query words, in
 * query order, times the count of distinct query words it holds), computed in the same order of floating-point
 * operations, the running average of lengths included; `test/search-index.test.ts` compares them.
 * Removal takes the document as it was indexed, so the index never keeps a stale term.
 */
export class SearchIndex {
  private readonly postings = new Map<string, Posting>();
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
      for (const [term, n] of terms) {
        const held = this.postings.get(term);
        if (held) {
          held.ids.push(id);
          held.counts.push(n);
        } else this.postings.set(term, { ids: [id], counts: [n] });
      }
    }
  }

  remove(docs: readonly IndexedDocument[]): void {
    for (const doc of docs) {
      const id = this.ids.get(doc.path);
      if (id === undefined) continue;
      const { terms, length } = termCounts(doc.text);
      const count = this.docs.size;
      this.averageLength = count === 1 ? 0 : (this.averageLength * count - length) / (count - 1);
      for (const term of terms.keys()) {
        const held = this.postings.get(term);
        const at = held ? held.ids.indexOf(id) : -1;
        if (!held || at < 0) continue;
        const lastId = held.ids.pop()!;
        const lastCount = held.counts.pop()!;
        if (at < held.ids.length) {
          held.ids[at] = lastId;
          held.counts[at] = lastCount;
        }
        if (held.ids.length === 0) this.postings.delete(term);
      }
      this.docs.delete(id);
      this.ids.delete(doc.path);
    }
  }

  get size(): number {
    return this.docs.size;
  }

  /** The best documents for the query, best first; equal scores by path. */
  search(q: SearchQuery): SearchHit[] {
    const tags = q.tags && q.tags.length > 0 ? new Set(q.tags) : null;
    const folder = q.folder;
    const keep = (doc: Doc) => (folder === null || inFolder(doc.folder, folder)) && (tags === null || doc.tags.some((t) => tags.has(t)));
    const total = this.docs.size;
    const scores = new Map<number, { score: number; matched: Set<string> }>();
    for (const term of words(q.query)) {
      const held = this.postings.get(term);
      if (!held) continue;
      const matching = held.ids.length;
      const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
      for (let i = 0; i < matching; i++) {
        const id = held.ids[i]!;
        const tf = held.counts[i]!;
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
}
