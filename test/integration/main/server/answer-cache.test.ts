/**
 * The exposure answer cache is bounded (issue 8): a client cycling through `expirations=` subsets evicts the least
 * recently used answers, and answers expire after `cacheSeconds`. An answer served from the cache carries the
 * `asOf` of its computation, so a changed `asOf` shows a recomputation. The server's clock is a manual one: `asOf`
 * and the answers' lifetimes move only when the test moves it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChainSnapshot, OptionContract } from '../../../../src-shared/exposure/model';
import { manualClock } from '../../../clock';
import { buildTestApp, storeChain, type TestApp } from '../../../helper';

const EXPIRATIONS = Array.from({ length: 12 }, (_, month) => `2099-${String(month + 1).padStart(2, '0')}-16`);

function chain(): ChainSnapshot {
  const contracts: OptionContract[] = EXPIRATIONS.flatMap((expiration) =>
    [95, 100, 105].flatMap((strike) => (['C', 'P'] as const).map((right) => ({ root: 'LRU', expiration, strike, right, openInterest: 1000 + strike, iv: 0.3, bid: 1, ask: 1.2, multiplier: 100 }))),
  );
  return { symbol: 'LRU', spot: 100, quoteTime: '2099-01-02T15:00:00Z', source: 'generic', contracts };
}

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function asOf(app: TestApp, expirations: string[]): Promise<string> {
  const answer = await app.get<{ asOf: string }>(`/v1/gex?symbol=LRU&expirations=${expirations.join(',')}`);
  expect(answer.status).toBe(200);
  return answer.body.asOf;
}

const clock = manualClock('2099-01-02T16:00:00Z');
/** Time passes: an answer computed from now on has another asOf. */
const tick = () => clock.advance(5);

describe('exposure answer cache', () => {
  it('keeps at most 256 answers: cycling through 298 subsets evicts the oldest, the most recent stay', async () => {
    t = await buildTestApp({ clock });
    storeChain(t.ctx, chain());
    const subsets = EXPIRATIONS.flatMap((a, i) => [[a], ...EXPIRATIONS.slice(i + 1).flatMap((b, j) => [[a, b], ...EXPIRATIONS.slice(i + j + 2).map((c) => [a, b, c])])]);
    expect(subsets.length).toBe(298);
    const first = subsets[0] ?? [];
    const firstAsOf = await asOf(t, first);
    tick();
    expect(await asOf(t, first), 'a repeated request is served from the cache').toBe(firstAsOf);
    for (const subset of subsets.slice(1)) await asOf(t, subset);
    const last = subsets[subsets.length - 1] ?? [];
    const lastAsOf = await asOf(t, last);
    tick();
    expect(await asOf(t, first), 'the least recently used answer was evicted and is recomputed').not.toBe(firstAsOf);
    expect(await asOf(t, last), 'a recent one is still cached').toBe(lastAsOf);
  });

  it('recomputes an answer after cacheSeconds, and caches nothing with cacheSeconds 0', async () => {
    t = await buildTestApp({ overrides: { cacheSeconds: 1 }, clock });
    storeChain(t.ctx, chain());
    const subset = EXPIRATIONS.slice(0, 2);
    const computed = await asOf(t, subset);
    clock.advance(999);
    expect(await asOf(t, subset), 'still fresh 999 ms later').toBe(computed);
    clock.advance(2);
    expect(await asOf(t, subset), 'expired after 1 s').toBe(new Date(clock.nowMs()).toISOString());
    await t.close();

    // The test overrides win over stored settings: a fresh app, where the setting itself is changed.
    t = await buildTestApp({ clock });
    storeChain(t.ctx, chain());
    const put = await t.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: '{"cacheSeconds": 0}' });
    expect(put.statusCode).toBe(200);
    const uncached = await asOf(t, EXPIRATIONS.slice(3, 5));
    tick();
    expect(await asOf(t, EXPIRATIONS.slice(3, 5))).not.toBe(uncached);
  });
});
