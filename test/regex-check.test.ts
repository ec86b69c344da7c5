import { describe, expect, it } from 'vitest';
import { maxPatternLength, regexError } from '../src/query/regex-check.ts';

/** What a `matches` pattern may be before it reaches RE2, with each refusal's exact words. */

describe('a matches pattern', () => {
  it(`is at most ${maxPatternLength} characters`, () => {
    expect(maxPatternLength).toBe(256);
    expect(regexError('a'.repeat(256))).toBeNull();
    expect(regexError('a'.repeat(257))).toBe('the pattern is 257 characters long; at most 256 are allowed');
  });

  it('holds no NUL character (an escaped \\0 is text)', () => {
    expect(regexError('a\0')).toBe('the pattern contains a NUL character');
    expect(regexError('\\0')).toBeNull();
  });

  it('has no look-around, back-reference, atomic group or possessive quantifier', () => {
    for (const p of ['(?=a)b', 'a(?!b)', '(?<=a)b', '(?<!a)b'])
      expect(regexError(p)).toBe('look-around assertions are not supported');
    for (const p of ['(a)\\1', '(a)(b)\\9', '(?<n>a)\\k<n>'])
      expect(regexError(p)).toBe('back-references are not supported');
    for (const p of ['(?>a)', 'a*+', 'a++', 'a?+', 'a{2}+'])
      expect(regexError(p)).toBe('atomic groups and possessive quantifiers are not supported');
    for (const p of ['(?<n>a)', '(?:a)', 'a+?', 'a{2,3}?', 'a\\0']) expect(regexError(p)).toBe(null);
  });

  it('reads an escaped character or a Unicode property as one item, never as syntax', () => {
    for (const p of ['\\p{L}+', '\\(?=', '\\(?<!', '\\*+', '\\++', '\\\\1', '\\\\k<n>', 'a\\}+'])
      expect([p, regexError(p)]).toEqual([p, null]);
    expect(regexError('\\p{Lu}+')).toBeNull();
    expect(regexError('(\\d?=)')).toBeNull();
    expect(regexError('\\\\\\1')).toBe('back-references are not supported');
    expect(regexError('\\p{L}(?=a)')).toBe('look-around assertions are not supported');
    expect(regexError('\\p{L}{1001}')).toBe('a counted repetition is at most 1000');
    expect(regexError('(a)\\\\\\1')).toBe('back-references are not supported');
  });

  it('repeats at most 1000 times, either bound counted', () => {
    expect(regexError('a{1000}')).toBeNull();
    expect(regexError('a{2,1000}')).toBeNull();
    expect(regexError('a{1000,}')).toBeNull();
    expect(regexError('a{3,}b{1,2}')).toBeNull();
    expect(regexError('a{1001}')).toBe('a counted repetition is at most 1000');
    expect(regexError('a{1001,}')).toBe('a counted repetition is at most 1000');
    expect(regexError('a{2,1001}')).toBe('a counted repetition is at most 1000');
    expect(regexError('a{1}b{1001}')).toBe('a counted repetition is at most 1000');
  });

  it('compiles as a Unicode regular expression, or is refused with the compiler’s words', () => {
    expect(regexError('^[a-z]+\\d*$')).toBeNull();
    expect(regexError('\\p{L}+')).toBeNull();
    expect(regexError('(')).toBe('invalid regular expression: /(/u: Unterminated group');
    expect(regexError('a**')).toBe('invalid regular expression: /a**/u: Nothing to repeat');
    expect(regexError('\\-')).toBe('invalid regular expression: /\\-/u: Invalid escape');
  });
});
