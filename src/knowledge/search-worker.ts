import { parentPort } from 'node:worker_threads';
import { SearchIndex } from './search-index.ts';
import type { IndexedDocument, SearchReply, SearchRequest, WireDocument } from './search-protocol.ts';

/** Holds every loaded knowledge base's index off the main thread, so indexing and searching never block requests. */
const indexes = new Map<string, SearchIndex>();
const port = parentPort!;
const utf8 = new TextDecoder();
const decoded = (docs: readonly WireDocument[]): IndexedDocument[] =>
  docs.map((d) => (typeof d.text === 'string' ? (d as IndexedDocument) : { ...d, text: utf8.decode(d.text) }));

port.on('message', (m: SearchRequest) => {
  let reply: SearchReply;
  try {
    if (m.op === 'drop') {
      indexes.delete(m.kb);
      port.postMessage({ id: m.id, ok: true } satisfies SearchReply);
      return;
    }
    const index = indexes.get(m.kb) ?? indexes.set(m.kb, new SearchIndex()).get(m.kb)!;
    if (m.op === 'add') index.add(decoded(m.docs));
    else if (m.op === 'remove') index.remove(decoded(m.docs));
    reply = m.op === 'search' ? { id: m.id, ok: true, hits: index.search(m.search) } : { id: m.id, ok: true };
  } catch (error) {
    reply = { id: m.id, ok: false, error: (error as Error).message };
  }
  port.postMessage(reply);
});
