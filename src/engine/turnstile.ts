/** At most `max` holders at once; the others wait in arrival order. A wait ends early when its signal aborts. */
export class Turnstile {
  private used = 0;
  private readonly waiting: { admit: () => void }[] = [];

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a turnstile admits at least 1, not ${max}`);
  }

  get inUse(): number {
    return this.used;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `fn` once admitted, and lets the next in when it settles. */
  async through<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.enter(signal);
    try {
      return await fn();
    } finally {
      this.leave();
    }
  }

  private enter(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
    if (this.used < this.max) {
      this.used++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        admit: () => {
          signal?.removeEventListener('abort', quit);
          this.used++;
          resolve();
        },
      };
      const quit = () => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(signal!.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', quit, { once: true });
      this.waiting.push(waiter);
    });
  }

  private leave(): void {
    this.used--;
    this.waiting.shift()?.admit();
  }
}
