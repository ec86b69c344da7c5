import { expect } from 'vitest';

const chance = 1e-6;

/**
 * Properties draw a fresh seed on every run, so how many drawn cases were interesting varies. The bar is the count
 * that a run at nine tenths of the measured rate falls below with probability under one in a million: the check fails
 * when a property has gone vacuous, and not by chance.
 */
export function expectNotVacuous(count: number, runs: number, measuredRate: number): void {
  expect(count).toBeGreaterThanOrEqual(likelyAtLeast(runs, measuredRate * 0.9));
}

function likelyAtLeast(runs: number, rate: number): number {
  let below = 0;
  for (let k = 0; k <= runs; k++) {
    const p = Math.exp(logChoose(runs, k) + k * Math.log(rate) + (runs - k) * Math.log1p(-rate));
    if (below + p >= chance) return k;
    below += p;
  }
  return runs;
}

function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}
