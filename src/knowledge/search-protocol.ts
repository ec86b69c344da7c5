/** A document as the search index holds it: its path (the id), text, folder ('' at the root) and tags. */
export interface IndexedDocument {
  readonly path: string;
  readonly text: string;
  readonly folder: string;
  readonly tags: readonly string[];
}

/**
 * A document on its way to the worker. An index build sends its text as UTF-8 bytes in an ArrayBuffer of its
 * own, transferred (not copied) and decoded in the worker, so the main thread never holds it as a string.
 */
export interface WireDocument {
  readonly path: string;
  readonly text: string | Uint8Array;
  readonly folder: string;
  readonly tags: readonly string[];
}

export interface SearchQuery {
  readonly query: string;
  readonly topK: number;
  /** Keeps documents in this folder or below it. */
  readonly folder: string | null;
  /** Keeps documents carrying any of these tags. */
  readonly tags: readonly string[] | null;
}

export interface SearchHit {
  readonly path: string;
  readonly score: number;
}

/** Messages to the search worker; each is answered `{id, ok, hits?}` or `{id, ok: false, error}` in order. */
export type SearchRequest =
  | { readonly id: number; readonly op: 'add'; readonly kb: string; readonly docs: readonly WireDocument[] }
  | { readonly id: number; readonly op: 'remove'; readonly kb: string; readonly docs: readonly WireDocument[] }
  | { readonly id: number; readonly op: 'search'; readonly kb: string; readonly search: SearchQuery }
  | { readonly id: number; readonly op: 'drop'; readonly kb: string };

export type SearchReply =
  | { readonly id: number; readonly ok: true; readonly hits?: readonly SearchHit[] }
  | { readonly id: number; readonly ok: false; readonly error: string };
