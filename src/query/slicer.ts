import { setImmediate } from 'node:timers/promises';
import { sliceMs } from '../limits.ts';

/** Call `tick()` inside a long loop: once `sliceMs` have passed since the last turn, it yields to the event loop. */
export class Slicer {
  private last = performance.now();

  async tick(): Promise<void> {
    if (performance.now() - this.last < sliceMs) return;
    await setImmediate();
    this.last = performance.now();
  }
}
