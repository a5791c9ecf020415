/**
 * Token bucket per API key: `perSecond` refill, `burst` capacity (docs/conventions.md §HTTP API: 50/s, burst 100). The limits
 * are read on every call, so a change in Settings applies at once.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedMs: number }>();

  constructor(
    private readonly limits: () => { perSecond: number; burst: number },
    /** A monotonic clock (the context's). */
    private readonly nowMs: () => number,
  ) {}

  /** 0 when allowed, else the whole seconds to wait (for Retry-After). */
  take(key: string): number {
    const { perSecond, burst } = this.limits();
    const now = this.nowMs();
    const bucket = this.buckets.get(key) ?? { tokens: burst, updatedMs: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedMs) / 1000) * perSecond);
    bucket.updatedMs = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  }
}
