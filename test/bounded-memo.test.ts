import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../src/query/bounded-memo.ts';

describe('boundedMemo', () => {
  it('computes each key once up to its bound, and starts again one past it', () => {
    let computed = 0;
    const twice = boundedMemo(
      3,
      (v: number) => v,
      (v: number) => (computed++, v * 2),
    );
    expect([1, 2, 3, 1, 2, 3].map(twice)).toEqual([2, 4, 6, 2, 4, 6]);
    expect(computed).toBe(3);
    expect(twice(4)).toBe(8);
    expect(computed).toBe(4);
    expect(twice(1)).toBe(2);
    expect(computed).toBe(5);
  });
});
