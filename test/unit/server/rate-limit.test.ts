import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src-main/server/rate-limit';

describe('RateLimiter', () => {
  it('allows the burst, then refills at the rate, per key', () => {
    let now = 0;
    const limiter = new RateLimiter(50, 100, () => now);
    const first = Array.from({ length: 101 }, () => limiter.take('a'));
    expect(first.filter((wait) => wait === 0), 'burst of 100').toHaveLength(100);
    expect(first[100], 'the 101st waits ≥ 1 s (Retry-After is whole seconds)').toBe(1);
    expect(limiter.take('b'), 'another key has its own bucket').toBe(0);
    now += 100; // 0.1 s at 50/s refills 5 tokens
    expect(Array.from({ length: 6 }, () => limiter.take('a'))).toEqual([0, 0, 0, 0, 0, 1]);
  });
});
