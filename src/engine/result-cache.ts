import type { ColumnBatch, RowShape } from '../query/row-shape.ts';

/** A page read to its end: what a face needs to encode it again, in any format. */
export interface KeptPage {
  readonly shape: RowShape;
  readonly head: Record<string, unknown>;
  readonly batches: readonly ColumnBatch[];
}

/**
 * Answers kept by their fingerprint, least recently used dropped first, within a byte bound. A
 * fingerprint hashes the request, the organization, the dataset's and state store's content, the
 * engine and the format (src/reports/extensions/fingerprint.ts), so an entry is never stale: an edit
 * changes the fingerprint of every answer it could change, and the old entry is simply never asked for
 * again. One entry holds at most an eighth of the bound, so one large page cannot empty the cache.
 */
export class ResultCache {
  private readonly entries = new Map<string, { readonly value: KeptPage; readonly bytes: number }>();
  private held = 0;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): KeptPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps the value when it fits an eighth of the bound; says whether it did. */
  set(key: string, value: KeptPage, bytes: number): boolean {
    if (!this.enabled || bytes > this.maxBytes / 8) return false;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.held -= old.bytes;
    }
    while (this.held + bytes > this.maxBytes) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
    }
    this.entries.set(key, { value, bytes });
    this.held += bytes;
    return true;
  }
}
