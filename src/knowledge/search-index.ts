import MiniSearch, { type SearchResult } from 'minisearch';
import type { IndexedDocument, SearchHit, SearchQuery } from './search-protocol.ts';

/** Relevance scores keep 9 significant digits: the index's running averages may differ in their last bits after edits. */
const round = (score: number) => Number(score.toPrecision(9));

const inFolder = (folder: string, within: string) => folder === within || folder.startsWith(`${within}/`);

/**
 * One knowledge base's full-text index: BM25 over each document's text (MiniSearch), the path as id.
 * Removal takes the document as it was indexed, so the index never keeps a stale term.
 */
export class SearchIndex {
  private readonly index = new MiniSearch<IndexedDocument>({ idField: 'path', fields: ['text'], storeFields: ['folder', 'tags'] });

  add(docs: readonly IndexedDocument[]): void {
    for (const doc of docs) {
      if (this.index.has(doc.path)) throw new Error(`${doc.path} is indexed already`);
      this.index.add(doc);
    }
  }

  remove(docs: readonly IndexedDocument[]): void {
    for (const doc of docs) if (this.index.has(doc.path)) this.index.remove(doc);
  }

  get size(): number {
    return this.index.documentCount;
  }

  /** The best documents for the query, best first; equal scores by path. */
  search(q: SearchQuery): SearchHit[] {
    const tags = q.tags && q.tags.length > 0 ? new Set(q.tags) : null;
    const folder = q.folder;
    const filter =
      folder === null && tags === null
        ? undefined
        : (r: SearchResult) => (folder === null || inFolder(String(r.folder), folder)) && (tags === null || (r.tags as string[]).some((t) => tags.has(t)));
    const results = this.index.search(q.query, { combineWith: 'OR', filter });
    return results
      .map((r) => ({ path: String(r.id), score: round(r.score) }))
      .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .slice(0, q.topK);
  }
}
