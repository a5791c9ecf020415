/**
 * What is the source's failure and what is a symbol's (issue 30, item 4), and the backoff: 30 s, doubling, at most 30
 * minutes; the line logged once per reason.
 */
import { describe, expect, it } from 'vitest';
import { MAX_RETRY_MS, SourceHealth, unreachableProblem } from '../../../../src-main/services/source-health';
import { manualClock } from '../../../clock';

const URL_ = 'https://cdn.cboe.com/api/global/delayed_quotes/options';
const failed = (code: string, wrapped = false) => {
  const cause = Object.assign(new Error(`${code} something`), { code });
  return wrapped ? new TypeError('fetch failed', { cause }) : cause;
};

describe('unreachableProblem', () => {
  it('names the host and the reason in one line', () => {
    expect(unreachableProblem(failed('ENOTFOUND'), URL_)?.message).toBe('cannot reach cdn.cboe.com: the name does not resolve (DNS lookup failed)');
    expect(unreachableProblem(failed('EAI_AGAIN', true), URL_)?.message).toBe('cannot reach cdn.cboe.com: no network (the name could not be looked up)');
    expect(unreachableProblem(failed('ENETUNREACH'), URL_)).toMatchObject({ reason: 'no-network', message: 'cannot reach cdn.cboe.com: no network' });
    expect(unreachableProblem(failed('ECONNREFUSED'), 'http://127.0.0.1:9/x')?.message).toBe('cannot reach 127.0.0.1:9: connection refused (nothing answers on port 9)');
    expect(unreachableProblem(failed('ECONNREFUSED'), URL_)?.message).toContain('port 443');
    expect(unreachableProblem(failed('ETIMEDOUT'), URL_, 20_000)?.message).toBe('cannot reach cdn.cboe.com: no connection within 20 s');
    expect(unreachableProblem(failed('ECONNRESET'), URL_)?.reason).toBe('reset');
    expect(unreachableProblem(failed('CERT_HAS_EXPIRED'), URL_)?.message).toBe('cannot reach cdn.cboe.com: the secure connection failed (CERT_HAS_EXPIRED)');
  });

  it('a symbol’s own failure is not the source’s', () => {
    expect(unreachableProblem(new Error('HTTP 404'), URL_)).toBeNull();
    expect(unreachableProblem(new DOMException('The operation was aborted due to timeout', 'TimeoutError'), URL_, 20_000), 'a connected server slow to answer').toBeNull();
  });
});

describe('SourceHealth', () => {
  it('backs off 30 s, doubling, up to 30 minutes; logs a reason once; clears when the source answers', () => {
    const clock = manualClock('2026-01-05T15:00:00Z');
    const log: string[] = [];
    const health = new SourceHealth(clock, (line) => log.push(line));
    const problem = unreachableProblem(failed('ENOTFOUND'), URL_);
    if (problem === null) throw new Error('a DNS failure is the source’s');
    const waits: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      health.unreachable(problem);
      waits.push((health.retryAtEpochMs() ?? 0) - clock.nowMs());
      expect(health.waiting()).toBe(true);
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 960, 1800, 1800, 1800].map((s) => s * 1000));
    expect(Math.max(...waits)).toBe(MAX_RETRY_MS);
    expect(log).toHaveLength(1);
    expect(health.status()).toMatchObject({ state: 'unreachable', failures: 9, host: 'cdn.cboe.com', since: '2026-01-05T15:00:00.000Z' });
    clock.advance(MAX_RETRY_MS);
    expect(health.waiting()).toBe(false);
    health.reachable();
    expect(health.status()).toMatchObject({ state: 'ok', message: null, retryAt: null, failures: 0, lastOkAt: new Date(clock.nowMs()).toISOString() });
    expect(log).toEqual([expect.stringContaining('cannot reach cdn.cboe.com'), '[online] cdn.cboe.com answers again']);
  });
});
