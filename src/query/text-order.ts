/**
 * Text in the order SQL sorts it (DuckDB and ClickHouse compare the UTF-8 bytes): code point order.
 * JS's `<` compares UTF-16 units, which differs only where a surrogate meets a unit from U+E000 up.
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

const codePointRank = (unit: number) => (unit < 0xd800 ? unit : unit <= 0xdfff ? unit + 0x2000 : unit - 0x800);

/** Values of one SQL type in `ORDER BY v NULLS LAST` order: text by `compareText`, days and numbers by value. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  const [x, y] = [a instanceof Date ? a.getTime() : Number(a), b instanceof Date ? b.getTime() : Number(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}
