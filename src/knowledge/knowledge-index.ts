import type { Worker } from 'node:worker_threads';
import type { DuckDBBlobVector, DuckDBConnection, DuckDBListValue } from '@duckdb/node-api';
import { kbLoadBatchBytes, maxIndexedTextBytes } from '../limits.ts';
import type { StateStore } from '../state/store.ts';
import type {
  IndexedDocument,
  SearchHit,
  SearchQuery,
  SearchReply,
  SearchRequest,
  WireDocument,
} from './search-protocol.ts';
import { startSearchWorker } from './search-worker-start.ts';

export interface KnowledgeChange {
  readonly op: 'add' | 'remove';
  readonly doc: IndexedDocument;
}

/** Documents are sent to the worker this many at a time, at most two batches in flight. */
export const loadBatch = 500;

type Pending = { resolve: (hits: readonly SearchHit[] | undefined) => void; reject: (error: Error) => void };
type Body = SearchRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** One knowledge base's index: every message to it goes through `queue`, so the worker sees them in commit order. */
interface KbIndex {
  queue: Promise<unknown>;
  /** Set inside the transaction that snapshots the documents: edits committed later are sent to the worker. */
  snapshotTaken: boolean;
  /** Bytes of text indexed (UTF-8), counted toward `maxIndexedTextBytes`. */
  bytes: number;
  /** Steps queued or running; only an idle index is dropped to make room (a queued search would find it empty). */
  busy: number;
}

/** Rejects with the signal's reason when it aborts first; the work itself goes on, bounded by the knowledge base's size. */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** The folder of a document path: everything before its last `/` ('' at the root). */
export const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

interface BatchDocument extends WireDocument {
  readonly text: Uint8Array<ArrayBuffer>;
}

/** One batch of a snapshot, its text as UTF-8 bytes: each document's in a buffer of its own, so it can be transferred. */
async function readBatch(conn: DuckDBConnection, table: string, batch: number): Promise<BatchDocument[]> {
  const result = await conn.run(
    `SELECT path, encode(text) AS text, tags FROM ${table} WHERE batch = $batch ORDER BY n`,
    { batch },
  );
  const docs: BatchDocument[] = [];
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const [paths, texts, tags] = [
      chunk.getColumnVector(0),
      chunk.getColumnVector(1) as DuckDBBlobVector,
      chunk.getColumnVector(2),
    ];
    for (let row = 0; row < chunk.rowCount; row++) {
      const path = String(paths.getItem(row));
      // TRICKY: bytes of 12 or fewer are a view into the chunk's shared buffer, which must not be transferred: they are copied.
      const bytes = texts.getItemBytes(row) ?? new Uint8Array();
      const text =
        bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
      docs.push({
        path,
        text: text as Uint8Array<ArrayBuffer>,
        folder: folderOf(path),
        tags: (tags.getItem(row) as DuckDBListValue).items.map(String),
      });
    }
  }
  return docs;
}

/**
 * Full-text search over the knowledge bases, in a worker thread so that neither indexing nor a search
 * holds the event loop. A knowledge base's index is built on its first search: its documents are
 * copied into an in-memory DuckDB table in one state transaction (so the copy is consistent and the
 * writers wait only for the copy), then sent to the worker in batches, two at most in flight. Later
 * edits and searches queue behind the build, in order.
 */
export class KnowledgeIndex {
  private worker: Worker | undefined;
  private nextId = 1;
  private snapshots = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly indexes = new Map<string, KbIndex>();

  constructor(
    private readonly state: StateStore,
    private readonly maxIndexedBytes = maxIndexedTextBytes,
  ) {}

  /**
   * The best documents of a knowledge base for a query, best first. A search whose `signal` aborts
   * (its client left, its time budget ran out) rejects at once, and is skipped if it had not started.
   */
  search(kb: string, query: SearchQuery, signal?: AbortSignal): Promise<readonly SearchHit[]> {
    const index = this.index(kb);
    this.touch(kb, index);
    return abortable(
      this.enqueue(index, async () => {
        signal?.throwIfAborted();
        return (await this.send({ op: 'search', kb, search: query })) ?? [];
      }),
      signal,
    );
  }

  /** Bytes of text indexed in the worker now, over every knowledge base loaded. */
  get indexedBytes(): number {
    let sum = 0;
    for (const index of this.indexes.values()) sum += index.bytes;
    return sum;
  }

  /** Knowledge bases whose index is loaded (or loading), least recently searched first. */
  get loaded(): readonly string[] {
    return [...this.indexes.keys()];
  }

  /** Marks a knowledge base as just searched, and drops the least recently searched idle others past `maxIndexedBytes`. */
  private touch(kb: string, index: KbIndex): void {
    this.indexes.delete(kb);
    this.indexes.set(kb, index);
    let total = this.indexedBytes;
    for (const [other, held] of this.indexes) {
      if (total <= this.maxIndexedBytes) break;
      if (other === kb || held.busy > 0) continue;
      total -= held.bytes;
      this.forget(other, held);
    }
  }

  /**
   * Runs an edit of a knowledge base in one state transaction, then queues its changes for the index.
   * TRICKY: the changes are queued right after the commit, before any later transaction can start (the store's
   * writer queue resumes a microtask later), so a snapshot either holds an edit or receives it, never both.
   */
  async edit<T>(
    kb: string,
    work: (conn: DuckDBConnection) => Promise<{ result: T; changes: readonly KnowledgeChange[] }>,
  ): Promise<T> {
    const { result, changes } = await this.state.transaction(work);
    const index = this.indexes.get(kb);
    if (index?.snapshotTaken && changes.length > 0) {
      for (const c of changes) index.bytes += (c.op === 'add' ? 1 : -1) * Buffer.byteLength(c.doc.text);
      this.enqueue(index, () => Promise.all(changes.map((c) => this.send({ op: c.op, kb, docs: [c.doc] })))).catch(() =>
        this.forget(kb, index),
      );
    }
    return result;
  }

  /** Stops the worker (searches under way fail); undefined when it never started. */
  close(): Promise<void> | undefined {
    const worker = this.worker;
    this.worker = undefined;
    return worker?.terminate().then(() => undefined);
  }

  private enqueue<T>(index: KbIndex, step: () => Promise<T>): Promise<T> {
    index.busy++;
    const done = index.queue.then(step).finally(() => index.busy--);
    index.queue = done.catch(() => undefined);
    return done;
  }

  private index(kb: string): KbIndex {
    const known = this.indexes.get(kb);
    if (known) return known;
    const index: KbIndex = { queue: Promise.resolve(), snapshotTaken: false, bytes: 0, busy: 1 };
    this.indexes.set(kb, index);
    index.queue = this.build(kb, index)
      .catch((error: unknown) => {
        this.forget(kb, index);
        throw error;
      })
      .finally(() => index.busy--);
    return index;
  }

  /** A failed build or edit leaves no half index: the next search builds it again from the store. */
  private forget(kb: string, index: KbIndex): void {
    if (this.indexes.get(kb) === index) this.indexes.delete(kb);
    if (this.worker) void this.send({ op: 'drop', kb }).catch(() => undefined);
  }

  /**
   * Batches hold at most `loadBatch` documents and about `kbLoadBatchBytes` of text (one longer document
   * goes alone). A batch's text is read as UTF-8 bytes and transferred to the worker, which decodes it: the
   * main thread never turns it into strings, so neither reading a batch nor posting it holds the event loop.
   */
  private async build(kb: string, index: KbIndex): Promise<void> {
    const table = `kb_snapshot_${++this.snapshots}`;
    // A read-only snapshot of a store another process holds (`aea query` beside `aea serve`) never changes, so a read is as consistent as a transaction.
    const consistent = <T>(fn: (conn: DuckDBConnection) => Promise<T>) =>
      this.state.readOnly ? this.state.read(fn) : this.state.transaction(fn);
    const batches = await consistent(async (conn) => {
      index.snapshotTaken = true;
      // TRICKY: both terms grow with n, so their sum does too: a batch number changes when either bound is crossed.
      await conn.run(
        `CREATE TABLE ${table} AS SELECT n, path, text, tags, (n - 1) // ${loadBatch} + (upto - strlen(text)) // ${kbLoadBatchBytes} AS batch
         FROM (SELECT row_number() OVER (ORDER BY path) AS n, sum(strlen(text)) OVER (ORDER BY path) AS upto, path, text, tags FROM state.kb_documents WHERE knowledge_base_id = $kb) ORDER BY n`,
        { kb },
      );
      return (await conn.runAndReadAll(`SELECT DISTINCT batch FROM ${table} ORDER BY batch`))
        .getRowsJS()
        .map((r) => Number(r[0]));
    });
    try {
      await this.send({ op: 'drop', kb });
      let inFlight: Promise<unknown> = Promise.resolve();
      for (const batch of batches) {
        const docs = await this.state.read((conn) => readBatch(conn, table, batch));
        index.bytes += docs.reduce((sum, d) => sum + d.text.byteLength, 0);
        const sent = this.send(
          { op: 'add', kb, docs },
          docs.map((d) => d.text.buffer),
        );
        await inFlight;
        inFlight = sent;
      }
      await inFlight;
    } finally {
      await this.state.read((conn) => conn.run(`DROP TABLE IF EXISTS ${table}`));
    }
  }

  /** `transfer`: buffers the message holds that move to the worker (they are unusable here afterwards). */
  private send(body: Body, transfer: readonly ArrayBuffer[] = []): Promise<readonly SearchHit[] | undefined> {
    const id = this.nextId++;
    const worker = this.start();
    // The worker keeps the process alive only while an answer is awaited.
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...body, id }, transfer);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startSearchWorker();
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
      this.indexes.clear();
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('knowledge-base search: the search worker stopped')));
    this.worker = worker;
    return worker;
  }
}
