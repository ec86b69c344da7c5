import { loopTurn } from '../../query/loop-turns.ts';
import type { Named } from './prompt-set.ts';

/**
 * Names of one vocabulary (topics, tags, …) looked up in constant time, with the rule a scan in table
 * order would give: an exact match first, else the first match ignoring case. Each list holds the
 * items of one name in table order; names rarely collide, so they stay short.
 */
export class NameIndex {
  private readonly exact = new Map<string, Named[]>();
  private readonly folded = new Map<string, Named[]>();
  private readonly order = new Map<string, number>();

  /** The index of a large vocabulary, built a slice at a time. */
  static async build(items: Iterable<Named>): Promise<NameIndex> {
    const index = new NameIndex();
    for (const item of items) {
      index.add(item);
      await loopTurn();
    }
    return index;
  }

  static of(items: Iterable<Named>): NameIndex {
    const index = new NameIndex();
    for (const item of items) index.add(item);
    return index;
  }

  find(name: string): Named | undefined {
    return this.exact.get(name)?.[0] ?? this.folded.get(name.toLowerCase())?.[0];
  }

  /** An item other than `id` whose name equals `name` ignoring case. */
  sameNameOtherThan(name: string, id: string): Named | undefined {
    return this.folded.get(name.toLowerCase())?.find((t) => t.id !== id);
  }

  /** A new item, after every other. */
  add(item: Named): void {
    this.order.set(item.id, this.order.size);
    this.insert(item);
  }

  /** The same item (same id, same place in table order) under another name. */
  replace(old: Named, renamed: Named): void {
    remove(this.exact, old.name, old.id);
    remove(this.folded, old.name.toLowerCase(), old.id);
    this.insert(renamed);
  }

  private insert(item: Named): void {
    const at = this.order.get(item.id)!;
    for (const [map, key] of [
      [this.exact, item.name],
      [this.folded, item.name.toLowerCase()],
    ] as const) {
      const list = map.get(key) ?? map.set(key, []).get(key)!;
      let i = list.length;
      while (i > 0 && this.order.get(list[i - 1]!.id)! > at) i--;
      list.splice(i, 0, item);
    }
  }
}

function remove(map: Map<string, Named[]>, key: string, id: string): void {
  const list = map.get(key);
  if (!list) return;
  const rest = list.filter((t) => t.id !== id);
  if (rest.length > 0) map.set(key, rest);
  else map.delete(key);
}
