import { defaultRateLimit as defaults, maxRateWindows, rateFlushMs } from '../limits.ts';
import type { RateWindow, RateWindowStore } from '../state/rate-windows.ts';

export interface RateLimitOptions {
  /** Requests per window per API key. */
  readonly max: number;
  readonly windowSeconds: number;
}

export const defaultRateLimit: RateLimitOptions = defaults;

export interface RateState {
  readonly limit: number;
  readonly remaining: number;
  /** Unix seconds when the window resets. */
  readonly reset: number;
  readonly allowed: boolean;
  /** Seconds until a request is allowed again. */
  readonly retryAfter: number;
  /** This request is the window's first refusal: persist it before answering, so a crash cannot forget it. */
  readonly firstRefusal: boolean;
}

type Window = { start: number; count: number };

/**
 * Fixed windows per key, starting at the key's first request in a window, as GitHub's and
 * @fastify/rate-limit's are. Every request counts, whatever its outcome. Memory holds one entry per
 * active key (or client address, for requests without a valid key), at most `maxWindows`: past it the
 * least recently seen window is forgotten, in O(1) (a Map keeps insertion order, and a hit moves its
 * window to the end). With a store, windows survive a restart: changed ones are written every
 * `rateFlushMs` and on close, a window's first refusal at once. `prefix` names the windows this
 * limiter owns in a store shared with another limiter.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly options: RateLimitOptions,
    private readonly store: RateWindowStore | undefined,
    private readonly clock: () => Date,
    private readonly maxWindows: number,
  ) {}

  static async open(
    options: RateLimitOptions,
    clock: () => Date,
    store?: RateWindowStore,
    prefix = '',
    maxWindows = maxRateWindows,
  ): Promise<RateLimiter> {
    const limiter = new RateLimiter(options, store, clock, maxWindows);
    if (store) {
      for (const w of await store.load(clock().getTime(), limiter.span))
        if (w.key.startsWith(prefix)) limiter.remember(w.key, { start: w.start, count: w.count });
      // A failed write keeps its windows dirty, so the next tick retries it.
      limiter.timer = setInterval(() => limiter.flush().catch(() => undefined), rateFlushMs);
      limiter.timer.unref();
    }
    return limiter;
  }

  /** Windows held in memory; never more than `maxWindows`. */
  get size(): number {
    return this.windows.size;
  }

  private get span(): number {
    return this.options.windowSeconds * 1000;
  }

  hit(key: string, now: Date): RateState {
    const t = now.getTime();
    const span = this.span;
    let w = this.windows.get(key);
    if (!w || t >= w.start + span) w = { start: t, count: 0 };
    this.remember(key, w);
    w.count++;
    if (this.store) this.dirty.add(key);
    const resetMs = w.start + span;
    const allowed = w.count <= this.options.max;
    return {
      limit: this.options.max,
      remaining: Math.max(0, this.options.max - w.count),
      reset: Math.ceil(resetMs / 1000),
      allowed,
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((resetMs - t) / 1000)),
      firstRefusal: w.count === this.options.max + 1,
    };
  }

  /** Writes the windows changed since the last flush; one flush at a time, in call order. */
  flush(): Promise<void> {
    const next = this.flushing.then(() => this.write());
    this.flushing = next.catch(() => undefined);
    return next;
  }

  /** Stops the timer and writes what is left: after a clean stop nothing is lost. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.store) await this.flush();
  }

  private async write(): Promise<void> {
    if (!this.store || this.dirty.size === 0) return;
    const keys = [...this.dirty];
    this.dirty.clear();
    const batch: RateWindow[] = [];
    for (const key of keys) {
      const w = this.windows.get(key);
      if (w) batch.push({ key, start: w.start, count: w.count });
    }
    try {
      await this.store.save(batch, this.clock().getTime(), this.span);
    } catch (error) {
      for (const key of keys) this.dirty.add(key);
      throw error;
    }
  }

  private remember(key: string, w: Window): void {
    this.windows.delete(key);
    this.windows.set(key, w);
    if (this.windows.size <= this.maxWindows) return;
    const oldest = this.windows.keys().next().value;
    if (oldest !== undefined) {
      this.windows.delete(oldest);
      this.dirty.delete(oldest);
    }
  }
}
