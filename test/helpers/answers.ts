/**
 * Where two answers differ, ignoring the last bits of floating-point figures: a folder with fewer tables
 * gives DuckDB other statistics, so it may sum a ratio's terms in another order.
 */
export function firstDifference(got: unknown, want: unknown, at = '$'): string | undefined {
  if (typeof got === 'number' && typeof want === 'number')
    return Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(want)) ? undefined : `${at}: ${got} ≠ ${want}`;
  if (Array.isArray(got) && Array.isArray(want)) {
    if (got.length !== want.length) return `${at}: ${got.length} items ≠ ${want.length}`;
    for (let i = 0; i < want.length; i++) {
      const d = firstDifference(got[i], want[i], `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (got && want && typeof got === 'object' && typeof want === 'object') {
    const keys = Object.keys(want);
    if (JSON.stringify(Object.keys(got)) !== JSON.stringify(keys))
      return `${at}: keys ${Object.keys(got).join()} ≠ ${keys.join()}`;
    for (const k of keys) {
      const d = firstDifference(
        (got as Record<string, unknown>)[k],
        (want as Record<string, unknown>)[k],
        `${at}.${k}`,
      );
      if (d) return d;
    }
    return undefined;
  }
  return got === want ? undefined : `${at}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`;
}
