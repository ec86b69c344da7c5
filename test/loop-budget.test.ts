import { afterEach, describe, expect, it, vi } from 'vitest';
import { sliceMs } from '../src/limits.ts';
import { loopTurn } from '../src/query/loop-turns.ts';

/**
 * The process's loop budget (src/query/loop-turns.ts) on a clock the test sets, so what is asserted is
 * the order of the work, never how long anything took: within the budget a piece goes on at once; once
 * `sliceMs` have passed since the budget opened, it waits for the next turn and opens a new budget.
 */

let now: number;
afterEach(() => {
  vi.restoreAllMocks();
});

/** What ran first: a callback queued for the next turn, or the piece after `loopTurn`. */
async function firstAfter(): Promise<string[]> {
  const order: string[] = [];
  setImmediate(() => order.push('next turn'));
  await loopTurn();
  order.push('piece');
  await new Promise((done) => setImmediate(done));
  return order;
}

describe('loopTurn on a set clock', () => {
  it('goes on at once within the budget, and waits a turn from the moment it is spent', async () => {
    // A budget already open was opened at or before this reading, so it is spent a slice later. The clock stays
    // near the real one: the module's budget is shared by every test file of a process that does not isolate them
    // (Stryker's runner), and a budget opened far in the future would never be spent once the clock is real again.
    now = performance.now() + sliceMs;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    // The first piece waits and opens a budget at this reading.
    expect(await firstAfter()).toEqual(['next turn', 'piece']);
    expect(await firstAfter()).toEqual(['piece', 'next turn']);
    now += sliceMs - 0.001;
    expect(await firstAfter()).toEqual(['piece', 'next turn']);
    now += 0.001;
    expect(await firstAfter()).toEqual(['next turn', 'piece']);
    // That wait opened a new budget at this reading.
    expect(await firstAfter()).toEqual(['piece', 'next turn']);
  });
});
