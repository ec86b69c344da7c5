import { listingCacheBytes } from '../limits.ts';
import type { StateStore } from '../state/store.ts';

interface Entry {
  readonly generation: number;
  readonly json: string;
}

/**
 * Listing answers (organization and category listings) in memory, per state store: a listing changes
 * only when a committed edit does, so an answer is served from here until the store's generation moves
 * on, and a listing never waits for a DuckDB connection or thread behind heavy work. At most
 * `listingCacheBytes` of JSON; the oldest answers go first.
 */
class ListingCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly state: StateStore) {}

  async get(key: string, compute: () => Promise<string>): Promise<string> {
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.state.generation) return hit.json;
    const generation = this.state.generation;
    const json = await compute();
    this.put(key, { generation, json });
    return json;
  }

  private put(key: string, entry: Entry): void {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.json.length;
      this.entries.delete(key);
    }
    if (entry.json.length > listingCacheBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.json.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= listingCacheBytes) break;
      this.entries.delete(k);
      this.bytes -= e.json.length;
    }
  }
}

const caches = new WeakMap<StateStore, ListingCache>();

/** The answer of listing `key` for this store: cached while no edit has committed since it was read. */
export function cachedListing(state: StateStore, key: string, compute: () => Promise<string>): Promise<string> {
  let cache = caches.get(state);
  if (!cache) caches.set(state, (cache = new ListingCache(state)));
  return cache.get(key, compute);
}
