import { setImmediate } from 'node:timers/promises';
import { sliceMs } from '../limits.ts';

let opened = -Infinity;
let turn = 0;

/**
 * One budget for the whole process. Every long piece of main-thread work (a stream's slice, a DuckDB chunk's
 * conversion, a large page's rows, a long loop over prompts or sections) awaits this first. Together they spend at most
 * `sliceMs` of a turn of the event loop; past it, each waits for the next turn, so sockets are read in between.
 * With a budget per piece instead, a light request beside sixteen exports waited for a slice of each.
 */
export async function loopTurn(): Promise<void> {
  for (;;) {
    if (performance.now() - opened < sliceMs) return;
    const seen = turn;
    await setImmediate();
    // The first piece to wake after a turn opens the next budget; the others woken in the same
    // check phase go on while it lasts, and wait again once it is spent.
    if (turn === seen) {
      turn++;
      opened = performance.now();
      return;
    }
  }
}
