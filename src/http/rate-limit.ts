export interface RateLimitOptions {
  /** Requests per window per API key. */
  readonly max: number;
  readonly windowSeconds: number;
}

export const defaultRateLimit: RateLimitOptions = { max: 600, windowSeconds: 3600 };

/** Above this wait the 429 also says `x-should-retry: false`, so the official client fails fast instead of sleeping. */
export const maxClientWaitSeconds = 60;

export interface RateState {
  readonly limit: number;
  readonly remaining: number;
  /** Unix seconds when the window resets. */
  readonly reset: number;
  readonly allowed: boolean;
  /** Seconds until a request is allowed again. */
  readonly retryAfter: number;
}

/**
 * Fixed windows per key, starting at the key's first request in a window, as GitHub's and
 * @fastify/rate-limit's are. Every request counts, whatever its outcome. Memory holds one entry per
 * active key (or client address, for requests without a valid key).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly options: RateLimitOptions) {}

  hit(key: string, now: Date): RateState {
    const t = now.getTime();
    const span = this.options.windowSeconds * 1000;
    let w = this.windows.get(key);
    if (!w || t >= w.start + span) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 100_000) this.evict(t, span);
    }
    w.count++;
    const resetMs = w.start + span;
    const allowed = w.count <= this.options.max;
    return {
      limit: this.options.max,
      remaining: Math.max(0, this.options.max - w.count),
      reset: Math.ceil(resetMs / 1000),
      allowed,
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((resetMs - t) / 1000)),
    };
  }

  private evict(t: number, span: number): void {
    for (const [k, w] of this.windows) if (t >= w.start + span) this.windows.delete(k);
  }
}
