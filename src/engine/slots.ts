/** A counted bound: at most `max` holders at once. `take` answers a release function, or undefined when full. */
export class Slots {
  private used = 0;

  constructor(readonly max: number) {}

  get inUse(): number {
    return this.used;
  }

  take(): (() => void) | undefined {
    if (this.used >= this.max) return undefined;
    this.used++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used--;
    };
  }
}

/** A bound per key (an API key, say); a key without holders takes no memory. `max` 0 means unbounded. */
export class KeyedSlots {
  private readonly used = new Map<string, number>();

  constructor(readonly max: number) {}

  take(key: string): (() => void) | undefined {
    const n = this.used.get(key) ?? 0;
    if (this.max > 0 && n >= this.max) return undefined;
    this.used.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.used.get(key) ?? 1) - 1;
      if (left > 0) this.used.set(key, left);
      else this.used.delete(key);
    };
  }
}
