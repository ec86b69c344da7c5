/**
 * `compute` remembered for at most `size` distinct keys: at the bound the memory is dropped whole and
 * starts again, so a long input costs a recomputation per key past it, never unbounded memory.
 */
export function boundedMemo<In, Key, Out>(size: number, key: (v: In) => Key, compute: (v: In) => Out): (v: In) => Out {
  const kept = new Map<Key, Out>();
  return (v) => {
    const k = key(v);
    let out = kept.get(k);
    if (out === undefined) {
      out = compute(v);
      if (kept.size >= size) kept.clear();
      kept.set(k, out);
    }
    return out;
  };
}
