import { Worker } from 'node:worker_threads';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { StateStore } from '../state/store.ts';
import type { IndexedDocument, SearchHit, SearchQuery, SearchReply, SearchRequest } from './search-protocol.ts';

export interface KnowledgeChange {
  readonly op: 'add' | 'remove';
  readonly doc: IndexedDocument;
}

/** Documents are read from the store and sent to the worker this many at a time. */
export const loadBatch = 500;

type Pending = { resolve: (hits: readonly SearchHit[] | undefined) => void; reject: (error: Error) => void };
type Body = SearchRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** The folder of a document path: everything before its last `/` ('' at the root). */
export const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/**
 * Full-text search over the knowledge bases, in a worker thread so that neither indexing nor a search
 * holds the event loop. A knowledge base's index is built from the state store on its first search
 * (its documents read in one transaction and sent in batches), then kept current by every edit.
 */
export class KnowledgeIndex {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly loads = new Map<string, Promise<void>>();
  /** Knowledge bases whose index snapshot has been taken: edits committed after it are sent to the worker. */
  private readonly indexed = new Set<string>();

  constructor(private readonly state: StateStore) {}

  /** The best documents of a knowledge base for a query, best first. */
  async search(kb: string, query: SearchQuery): Promise<readonly SearchHit[]> {
    await this.load(kb);
    return (await this.send({ op: 'search', kb, search: query })) ?? [];
  }

  /**
   * Runs an edit of a knowledge base in one state transaction, then updates its index when it has one.
   * TRICKY: the changes are sent right after the commit, before any later transaction can start (the store's
   * writer queue resumes a microtask later), so an index snapshot either holds an edit or receives it, never both.
   */
  async edit<T>(kb: string, work: (conn: DuckDBConnection) => Promise<{ result: T; changes: readonly KnowledgeChange[] }>): Promise<T> {
    const { result, changes } = await this.state.transaction(work);
    if (this.indexed.has(kb) && changes.length > 0) {
      const sent = changes.map((c) => this.send({ op: c.op, kb, docs: [c.doc] }));
      await Promise.all(sent);
    }
    return result;
  }

  /** Stops the worker (searches under way fail); undefined when it never started. */
  close(): Promise<void> | undefined {
    const worker = this.worker;
    this.worker = undefined;
    return worker?.terminate().then(() => undefined);
  }

  private load(kb: string): Promise<void> {
    const known = this.loads.get(kb);
    if (known) return known;
    const loading = this.snapshot(kb).catch((error: unknown) => {
      this.loads.delete(kb);
      throw error;
    });
    this.loads.set(kb, loading);
    return loading;
  }

  private async snapshot(kb: string): Promise<void> {
    const sent: Promise<unknown>[] = [];
    await this.state.transaction(async (conn) => {
      this.indexed.add(kb);
      for (let after = ''; ; ) {
        const reader = await conn.runAndReadAll(
          `SELECT path, text, tags FROM state.kb_documents WHERE knowledge_base_id = $kb AND path > $after ORDER BY path LIMIT ${loadBatch}`,
          { kb, after },
        );
        const docs = reader.getRowObjectsJS().map((r) => ({ path: String(r.path), text: String(r.text), folder: folderOf(String(r.path)), tags: (r.tags as string[]).map(String) }));
        if (docs.length > 0) sent.push(this.send({ op: 'add', kb, docs }));
        if (docs.length < loadBatch) break;
        after = docs[docs.length - 1]!.path;
      }
    });
    try {
      await Promise.all(sent);
    } catch (error) {
      this.indexed.delete(kb);
      throw error;
    }
  }

  private send(body: Body): Promise<readonly SearchHit[] | undefined> {
    const id = this.nextId++;
    const worker = this.start();
    // The worker keeps the process alive only while an answer is awaited.
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...body, id });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./search-worker-boot.mjs', import.meta.url), { workerData: { module: new URL('./search-worker.ts', import.meta.url).href } });
    worker.unref();
    worker.on('message', (reply: SearchReply) => {
      const p = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) p?.resolve(reply.hits);
      else p?.reject(new Error(`knowledge-base search: ${reply.error}`));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      this.indexed.clear();
      this.loads.clear();
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('knowledge-base search: the search worker stopped')));
    this.worker = worker;
    return worker;
  }
}
