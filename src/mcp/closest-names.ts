/** Levenshtein distance, two rows at a time; names here are short (names of models, topics, brands). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** The `count` known names nearest to `name`, case ignored, nearest first, ties by name. */
export function closestNames(name: string, known: readonly string[], count = 3): string[] {
  const target = name.toLowerCase().slice(0, 200);
  return [...new Set(known)]
    .map((k) => ({ k, d: editDistance(target, k.toLowerCase().slice(0, 200)) }))
    .sort((x, y) => x.d - y.d || x.k.localeCompare(y.k))
    .slice(0, count)
    .map((x) => x.k);
}
