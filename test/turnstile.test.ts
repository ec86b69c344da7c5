import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Turnstile } from '../src/engine/turnstile.ts';

describe('Turnstile', () => {
  it('admits at most its bound at once, the others in arrival order', async () => {
    const gate = new Turnstile(2);
    let inside = 0;
    let most = 0;
    const admitted: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        gate.through(async () => {
          admitted.push(i);
          most = Math.max(most, ++inside);
          await sleep(2);
          inside--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(admitted).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect([gate.inUse, gate.queued]).toEqual([0, 0]);
  });

  it('lets the next in when a holder fails, and passes the failure on', async () => {
    const gate = new Turnstile(1);
    const failing = gate.through(async () => {
      throw new Error('statement failed');
    });
    const next = gate.through(async () => 'ran');
    await expect(failing).rejects.toThrow('statement failed');
    await expect(next).resolves.toBe('ran');
  });

  it('stops a wait when its signal aborts, without taking a place or running', async () => {
    const gate = new Turnstile(1);
    let release!: () => void;
    const holder = gate.through(() => new Promise<void>((r) => (release = r)));
    const abort = new AbortController();
    let ran = false;
    const waiting = gate.through(async () => void (ran = true), abort.signal);
    const after = gate.through(async () => 'after');
    expect(gate.queued).toBe(2);
    abort.abort(new Error('client left'));
    await expect(waiting).rejects.toThrow('client left');
    expect(gate.queued).toBe(1);
    release();
    await holder;
    await expect(after).resolves.toBe('after');
    expect(ran).toBe(false);
    await expect(gate.through(async () => 1, abort.signal)).rejects.toThrow('client left');
    expect([gate.inUse, gate.queued]).toEqual([0, 0]);
  });

  it('refuses a bound below 1', () => {
    expect(() => new Turnstile(0)).toThrow('at least 1');
    expect(() => new Turnstile(1.5)).toThrow('at least 1');
  });
});
