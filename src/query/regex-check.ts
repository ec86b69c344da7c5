export const maxPatternLength = 256;

/**
 * `matches` runs DuckDB's regexp_matches, which is RE2: linear time, so no pattern can backtrack
 * catastrophically. What is left to bound is the pattern's size, and what RE2 cannot compile
 * (look-around, back-references) is refused here so it never reaches SQL.
 */
export function regexError(pattern: string): string | null {
  if (pattern.length > maxPatternLength)
    return `the pattern is ${pattern.length} characters long; at most ${maxPatternLength} are allowed`;
  if (pattern.includes('\0')) return 'the pattern contains a NUL character';
  // An escaped character (`\(`, `\*`) or a property (`\p{L}`) is one literal item, so `\p{L}+` and `\(?=` pass.
  const bare = pattern.replace(/\\[pP]\{[^}]*\}|\\./gsu, 'e');
  if (/\(\?<?[=!]/.test(bare)) return 'look-around assertions are not supported';
  if (/(?:^|[^\\])(?:\\\\)*\\(?:[1-9]|k<)/.test(pattern)) return 'back-references are not supported';
  if (/\(\?>|[*+?}]\+/.test(bare)) return 'atomic groups and possessive quantifiers are not supported';
  const repeats = [...bare.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].map((m) => Math.max(Number(m[1]), Number(m[2] || 0)));
  if (repeats.some((n) => n > 1000)) return 'a counted repetition is at most 1000';
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    return `invalid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  return null;
}
