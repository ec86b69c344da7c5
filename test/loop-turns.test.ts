import { describe, expect, it } from 'vitest';
import { sliceMs } from '../src/limits.ts';
import { loopTurn } from '../src/query/loop-turns.ts';

/** Work that holds the main thread past the process's budget for one turn. */
const pastTheBudget = () => {
  const from = performance.now();
  while (performance.now() - from <= sliceMs);
};

describe('loopTurn: one budget of main-thread work per turn of the event loop, for the whole process', () => {
  it('once the budget is spent, waits for the next turn: what was queued meanwhile runs first', async () => {
    const order: string[] = [];
    await loopTurn();
    pastTheBudget();
    setImmediate(() => order.push('queued meanwhile'));
    await loopTurn();
    order.push('next piece');
    expect(order).toEqual(['queued meanwhile', 'next piece']);
  });

  it('is shared: two producers whose pieces each spend the budget take one piece per turn, with the loop in between', async () => {
    const order: string[] = [];
    let turns = 0;
    let stop = false;
    const count = () => {
      if (stop) return;
      turns++;
      order.push(`turn ${turns}`);
      setImmediate(count);
    };
    const producer = async (name: string) => {
      for (let piece = 1; piece <= 3; piece++) {
        await loopTurn();
        order.push(`${name}${piece}`);
        pastTheBudget();
      }
    };
    setImmediate(count);
    // Each starts from a callback of its own, as a stream's next piece starts from the I/O that brought its rows.
    const started = (name: string) => new Promise<void>((done) => setImmediate(() => void producer(name).then(done)));
    await Promise.all([started('a'), started('b')]);
    stop = true;
    const pieces = order.filter((e) => !e.startsWith('turn'));
    expect(pieces.toSorted()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
    const betweenPieces = order
      .join(' ')
      .split(/ ?(?:a|b)\d ?/)
      .slice(1, -1);
    expect(betweenPieces).toHaveLength(5);
    for (const between of betweenPieces) expect(between).toMatch(/^turn \d+( turn \d+)*$/);
  });
});
