import { describe, expect, it } from 'vitest';
import { compareText, compareValues } from '../src/query/text-order.ts';

/** The order SQL sorts text in (UTF-8 bytes: code points) and values in (NULLS LAST), checked exactly. */

describe('text in code point order', () => {
  it('is 0 for equal text, the length difference for a prefix, the unit difference below the surrogates', () => {
    expect(compareText('abc', 'abc')).toBe(0);
    expect(compareText('', '')).toBe(0);
    expect(compareText('ab', 'abcd')).toBe(-2);
    expect(compareText('abcd', 'ab')).toBe(2);
    expect(compareText('abd', 'abc')).toBe(1);
    expect(compareText('a', 'c')).toBe(-2);
    expect(compareText('é', 'e')).toBe(0xe9 - 0x65);
  });

  it('puts a character past U+FFFF after U+E000–U+FFFF, where UTF-16 units would not', () => {
    const astral = '😀'; // U+1F600, surrogates D83D DE00
    const privateUse = '\ue000';
    const last = '\uffff';
    expect('\ud83d' < privateUse).toBe(true);
    expect(compareText(astral, privateUse)).toBe(0xd83d + 0x2000 - (0xe000 - 0x800));
    expect(compareText(privateUse, astral)).toBeLessThan(0);
    expect(compareText(last, astral)).toBeLessThan(0);
    expect(compareText(astral, 'z')).toBeGreaterThan(0);
    expect(compareText('\ud7ff', astral)).toBeLessThan(0);
    expect(compareText('\udbff\udfff', '\ud800\udc00')).toBe(0xdbff - 0xd800);
    expect(compareText('x\udfff', 'x\ud800')).toBe(0xdfff - 0xd800);
    expect(compareText('\ud800', '\ud7ff')).toBe(0xd800 + 0x2000 - 0xd7ff);
    expect(compareText('\ue000', '\ud7ff')).toBe(0xe000 - 0x800 - 0xd7ff);
    expect(compareText('\udfff', '\ue000')).toBe(0xdfff + 0x2000 - (0xe000 - 0x800));
  });

  it('sorts a mixed list as the bytes of its UTF-8 sort', () => {
    const words = ['z', '\uffff', '😀', 'über', 'uber', '\ue000', 'Ab', 'ab', '', '中文', '𝄞'];
    const bytes = [...words].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect([...words].sort(compareText)).toEqual(bytes);
  });
});

describe('values of one SQL type, NULLS LAST', () => {
  it('puts null and undefined last and equal to each other', () => {
    expect(compareValues(null, null)).toBe(0);
    expect(compareValues(undefined, null)).toBe(0);
    expect(compareValues(null, undefined)).toBe(0);
    expect(compareValues(null, 1)).toBe(1);
    expect(compareValues(undefined, 'a')).toBe(1);
    expect(compareValues(1, null)).toBe(-1);
    expect(compareValues('a', undefined)).toBe(-1);
    expect([3, null, 1, undefined, 2].sort(compareValues)).toEqual([1, 2, 3, null, undefined]);
  });

  it('compares text in code point order, numbers and bigints by value, dates by instant', () => {
    expect(compareValues('😀', '\ue000')).toBeGreaterThan(0);
    expect(compareValues('10', '9')).toBeLessThan(0);
    expect(compareValues(10, 9)).toBe(1);
    expect(compareValues(9, 10)).toBe(-1);
    expect(compareValues(2.5, 2.5)).toBe(0);
    expect(compareValues(10n, 9n)).toBe(1);
    expect(compareValues(-1n, 0)).toBe(-1);
    expect(compareValues(new Date('2026-01-02'), new Date('2026-01-01'))).toBe(1);
    expect(compareValues(new Date('2026-01-01'), new Date('2026-01-02'))).toBe(-1);
    expect(compareValues(new Date('2026-01-01'), new Date('2026-01-01'))).toBe(0);
    expect(compareValues(new Date(5), 6)).toBe(-1);
    expect(compareValues(7, new Date(6))).toBe(1);
  });
});
