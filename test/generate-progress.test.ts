import { describe, expect, it } from 'vitest';
import { timeLeft } from '../src/generate/progress.ts';

describe('generator progress', () => {
  it('estimates the time left from the average rate so far', () => {
    expect(timeLeft(0, 100, 5_000)).toBe('time left unknown until the first rows');
    expect(timeLeft(25, 100, 10_000)).toBe('about 30s left');
    expect(timeLeft(10, 100, 15_000)).toBe('about 2m 15s left');
    expect(timeLeft(120, 100, 1_000)).toBe('about 0s left');
  });
});
