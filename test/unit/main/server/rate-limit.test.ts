import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../../src-main/server/rate-limit';

describe('RateLimiter', () => {
  it('allows the burst, then refills at the rate, per key', () => {
    let now = 0;
    const limiter = new RateLimiter(() => ({ perSecond: 50, burst: 100 }), () => now);
    const first = Array.from({ length: 101 }, () => limiter.take('a'));
    expect(first.filter((wait) => wait === 0), 'burst of 100').toHaveLength(100);
    expect(first[100], 'the 101st waits ≥ 1 s (Retry-After is whole seconds)').toBe(1);
    expect(limiter.take('b'), 'another key has its own bucket').toBe(0);
    now += 100; // 0.1 s at 50/s refills 5 tokens
    expect(Array.from({ length: 6 }, () => limiter.take('a'))).toEqual([0, 0, 0, 0, 0, 1]);
  });

  it('applies changed limits at once (Settings)', () => {
    let limits = { perSecond: 1, burst: 2 };
    const limiter = new RateLimiter(() => limits, () => 0);
    expect([limiter.take('k'), limiter.take('k'), limiter.take('k')]).toEqual([0, 0, 1]);
    limits = { perSecond: 1, burst: 5 };
    expect(limiter.take('k'), 'a larger burst does not refill by itself: the bucket is still empty').toBe(1);
  });
});
