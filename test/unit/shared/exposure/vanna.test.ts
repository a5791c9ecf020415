import { describe, expect, it } from 'vitest';
import { bsmGreeks } from '../../../../src-shared/exposure/greeks';
import { UnknownExpirationError } from '../../../../src-shared/exposure/expiration-scope';
import { prepareChain } from '../../../../src-shared/exposure/prepare';
import { computeVanna } from '../../../../src-shared/exposure/vanna';
import { contract, EXPIRATION, snapshot, T_WEEK } from '../../../exposure-helpers';

const RATE = 0.04;
const S = 100;
const LATER = '2026-02-27'; // 25 days
const FAR = '2026-03-27'; // 53 days: outside the 0–45 book
const T_LATER = 25 / 365;

const contracts = [
  contract({ strike: 90, right: 'P', openInterest: 4000, iv: 0.3 }),
  contract({ strike: 95, right: 'P', openInterest: 6000, iv: 0.26 }),
  contract({ strike: 100, right: 'P', openInterest: 2000, iv: 0.22 }),
  contract({ strike: 100, right: 'C', openInterest: 2500, iv: 0.21 }),
  contract({ strike: 105, right: 'C', openInterest: 5000, iv: 0.19 }),
  contract({ strike: 110, right: 'C', openInterest: 3000, iv: 0.2 }),
  contract({ strike: 97, right: 'P', openInterest: 3500, iv: 0.24, expiration: LATER }),
  contract({ strike: 104, right: 'C', openInterest: 4500, iv: 0.2, expiration: LATER }),
  contract({ strike: 130, right: 'C', openInterest: 9000, iv: 0.2, expiration: FAR }),
  contract({ strike: 150, right: 'C', openInterest: 9000, iv: 0.3 }), // outside [0.8S, 1.2S]: in totals, not in rows
];
const chain = prepareChain(snapshot(contracts, S), { rate: RATE });

/** VEX and CEX of one contract from the greeks module: s·vanna·OI·m·S·0.01 and s·charm·OI·m·S/365. */
function exposure(c: (typeof contracts)[number]) {
  const tYears = c.expiration === LATER ? T_LATER : c.expiration === FAR ? 53 / 365 : T_WEEK;
  const g = bsmGreeks({ spot: S, forward: S * Math.exp(RATE * tYears), strike: c.strike, tYears, sigma: c.iv, rate: RATE, right: c.right });
  const sign = c.right === 'C' ? 1 : -1;
  return { vex: sign * g.vanna * c.openInterest * 100 * S * 0.01, cex: (sign * g.charm * c.openInterest * 100 * S) / 365 };
}

describe('vanna and charm', () => {
  const aggregate = computeVanna(chain, { expiration: null });

  it('aggregates the 0–45 dte book', () => {
    const inBook = contracts.filter((c) => c.expiration !== FAR);
    const vex = inBook.reduce((sum, c) => sum + exposure(c).vex, 0);
    const cex = inBook.reduce((sum, c) => sum + exposure(c).cex, 0);
    expect(aggregate.totalVanna / vex, 'ΣVEX over the 7- and 25-dte books, not the 53-dte one').toBeCloseTo(1, 10);
    expect(aggregate.totalCharm / cex, 'ΣCEX').toBeCloseTo(1, 10);
    expect(aggregate).toMatchObject({ mode: 'aggregate', expiration: null, minDte: 0, maxDte: 45, availableExpirations: [EXPIRATION, LATER, FAR] });
    expect(aggregate.keyLevels.vannaRegime).toBe(vex >= 0 ? 'positive' : 'negative');
  });

  it('gives rows within [0.8S, 1.2S] with bull = VEX − CEX and bear = −VEX − CEX', () => {
    expect(aggregate.data.map((r) => r.strike), '150 is beyond 1.2 × 100; 130 belongs to the 53-dte book').toEqual([90, 95, 97, 100, 104, 105, 110]);
    const row100 = aggregate.data.find((r) => r.strike === 100);
    const at100 = contracts.filter((c) => c.strike === 100).map(exposure);
    expect(row100?.vanna).toBeCloseTo(at100.reduce((s, e) => s + e.vex, 0), 4);
    expect(row100?.charm).toBeCloseTo(at100.reduce((s, e) => s + e.cex, 0), 4);
    for (const row of aggregate.data) {
      expect(row.bull, `bull at ${row.strike}`).toBeCloseTo(row.vanna - row.charm, 6);
      expect(row.bear, `bear at ${row.strike}`).toBeCloseTo(-row.vanna - row.charm, 6);
    }
  });

  it('derives the key levels from the rows', () => {
    const above = aggregate.data.filter((r) => r.strike > S);
    const below = aggregate.data.filter((r) => r.strike < S);
    const argBest = (rows: typeof above, value: (r: (typeof above)[number]) => number) =>
      rows.length === 0 ? null : rows.reduce((best, r) => (value(r) > value(best) ? r : best)).strike;
    const bullRows = above.filter((r) => r.bull > 0);
    expect(aggregate.keyLevels.bullDriftTarget, 'strike > S with the largest bull > 0').toBe(argBest(bullRows, (r) => r.bull));
    expect(aggregate.keyLevels.bearMaxDanger, 'strike < S with the most negative bear').toBe(argBest(below.filter((r) => r.bear < 0), (r) => -r.bear));
    expect(aggregate.keyLevels.bearDeceleration, 'strike < S with the largest bear > 0').toBe(argBest(below.filter((r) => r.bear > 0), (r) => r.bear));
    const bullSum = aggregate.data.reduce((s, r) => s + Math.max(r.bull, 0), 0);
    const bearSum = aggregate.data.reduce((s, r) => s + Math.max(-r.bear, 0), 0);
    expect(aggregate.keyLevels.bullBearRatio).toBeCloseTo(bullSum / bearSum, 10);
  });

  it('puts vannaFlip where V(x) = Σ s·vanna(x)·OI·m·x·0.01 recomputed from the greeks is zero', () => {
    const flip = aggregate.keyLevels.vannaFlip;
    const V = (x: number) =>
      contracts
        .filter((c) => c.expiration !== FAR)
        .reduce((sum, c) => {
          const tYears = c.expiration === LATER ? T_LATER : T_WEEK;
          const g = bsmGreeks({ spot: x, forward: S * Math.exp(RATE * tYears) * (x / S), strike: c.strike, tYears, sigma: c.iv, rate: RATE, right: c.right });
          return sum + (c.right === 'C' ? 1 : -1) * g.vanna * c.openInterest * 100 * x * 0.01;
        }, 0);
    // Scan independently: is there a sign change in [80, 120]?
    let changes = 0;
    for (let x = 80; x < 120; x += 0.1) if (Math.sign(V(x)) !== Math.sign(V(x + 0.1))) changes += 1;
    expect(changes, 'this book has vanna sign changes in range').toBeGreaterThan(0);
    expect(flip).not.toBeNull();
    if (flip === null) return;
    expect(Math.sign(V(flip - 0.01)) * Math.sign(V(flip + 0.01)), 'V changes sign at vannaFlip').toBe(-1);
  });

  it('pins one expiration', () => {
    const pinned = computeVanna(chain, { expiration: LATER });
    expect(pinned).toMatchObject({ mode: 'expiration', expiration: LATER, minDte: 25, maxDte: 25 });
    const only = contracts.filter((c) => c.expiration === LATER).map(exposure);
    expect(pinned.totalVanna).toBeCloseTo(only.reduce((s, e) => s + e.vex, 0), 4);
    expect(pinned.meta.contracts).toBe(2);
    const far = computeVanna(chain, { expiration: FAR });
    expect(far.maxDte, 'a pinned expiration may lie beyond 45 days').toBe(53);
    expect(() => computeVanna(chain, { expiration: '2026-02-10' })).toThrow(UnknownExpirationError);
  });
});
