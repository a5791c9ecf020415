/**
 * Issue 21, the whole chain picture, on small hand-made chains: per-expiration statistics (ATM strike and IV,
 * straddle, max pain, OI and volume by side, 25-delta skew), delta exposure, every flip root and the flip status, the
 * strike × expiration grid, and the sweep's exp against Math.exp. Expected figures are worked by hand (in the
 * comments) or by an independent Python computation with math.erf (the numbers quoted), never by the engine.
 */
import { describe, expect, it } from 'vitest';
import { maxPain, SKEW_DELTA_TOLERANCE } from '../../../../src-shared/exposure/expiration-stats';
import { deltaAt } from '../../../../src-shared/exposure/dex';
import { expNeg } from '../../../../src-shared/exposure/fast-exp';
import { computeGex, computeGexProfile, usableContracts } from '../../../../src-shared/exposure/gex';
import { computeGexGrid } from '../../../../src-shared/exposure/grid';
import { expirationDetails, termStructure } from '../../../../src-shared/exposure/chain-reads';
import { prepareChain } from '../../../../src-shared/exposure/prepare';
import { sweepProfile, SWEEP_POINTS } from '../../../../src-shared/exposure/sweep';
import type { OptionContract } from '../../../../src-shared/exposure/model';
import { contract, EXPIRATION, snapshot, T_WEEK } from '../../../exposure-helpers';

const RATE = 0.04;
const relative = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), Number.MIN_VALUE);

/** Three strikes with quotes, IVs, open interest and volume: the forward by parity at 100 (|3.0 − 2.0| is smallest). */
const SMALL: OptionContract[] = [
  contract({ strike: 95, right: 'C', bid: 6.4, ask: 6.6, iv: 0.24, openInterest: 100, volume: 10 }),
  contract({ strike: 95, right: 'P', bid: 0.5, ask: 0.7, iv: 0.26, openInterest: 900, volume: 50 }),
  contract({ strike: 100, right: 'C', bid: 2.9, ask: 3.1, iv: 0.2, openInterest: 1000, volume: 300 }),
  contract({ strike: 100, right: 'P', bid: 1.9, ask: 2.1, iv: 0.22, openInterest: 800, volume: 200 }),
  contract({ strike: 105, right: 'C', bid: 0.8, ask: 1.0, iv: 0.18, openInterest: 1200, volume: 120 }),
  contract({ strike: 105, right: 'P', bid: 4.7, ask: 4.9, iv: 0.21, openInterest: 300, volume: 30 }),
];

describe('per-expiration statistics, by hand on three strikes', () => {
  const chain = prepareChain(snapshot(SMALL), { rate: RATE });
  const [detail] = expirationDetails(chain);
  const forward = 100 + Math.exp(RATE * T_WEEK) * 1.0;

  it('ATM strike, ATM IV and the straddle (= expected move)', () => {
    expect(chain.expirations[0]?.groups[0]?.forward, 'F = 100 + e^{rT}·(3.0 − 2.0)').toBeCloseTo(forward, 12);
    expect(detail?.atmStrike, 'F = 101.0008: 100 is the listed strike nearest it').toBe(100);
    expect(detail?.atmIV, '(0.20 + 0.22) / 2').toBeCloseTo(0.21, 15);
    expect(detail?.straddle, 'call mid 3.0 + put mid 2.0').toBeCloseTo(5, 12);
    expect(detail?.expectedMove).toBe(detail?.straddle);
    expect(detail?.expectedMovePct, '5.0 / S = 5.0 / 100').toBeCloseTo(0.05, 15);
  });

  it('max pain: Σ OI·100 of intrinsic value at each listed strike, the least wins', () => {
    // K = 95: puts 800·5 + 300·10 = 7000; K = 100: calls 100·5 + puts 300·5 = 2000; K = 105: calls 100·10 + 1000·5 = 6000.
    expect(detail?.maxPain).toBe(100);
  });

  it('open interest and volume by side, and the put/call open interest ratio', () => {
    expect(detail).toMatchObject({ callOI: 2300, putOI: 2000, callVolume: 430, putVolume: 280 });
    expect(detail?.putCallOIRatio, '2000 / 2300').toBeCloseTo(2000 / 2300, 15);
    const noVolume = expirationDetails(prepareChain(snapshot(SMALL.map(({ volume: _volume, ...rest }) => rest)), { rate: RATE }))[0];
    expect(noVolume, 'a source without volume: null, not 0').toMatchObject({ callVolume: null, putVolume: null, callOI: 2300 });
    const callsOnly = expirationDetails(prepareChain(snapshot(SMALL.filter((c) => c.right === 'C')), { rate: RATE }))[0];
    expect(callsOnly, 'no put: ratio 0 and no ATM pair').toMatchObject({ putOI: 0, putCallOIRatio: 0, atmStrike: null, atmIV: null, straddle: null });
    const putsOnly = expirationDetails(prepareChain(snapshot(SMALL.filter((c) => c.right === 'P')), { rate: RATE }))[0];
    expect(putsOnly?.putCallOIRatio, 'no call open interest: no ratio').toBeNull();
  });

  it('a 25-delta skew needs a call and a put within 0.10 of ±0.25: here the nearest call is 0.0617 and the nearest put −0.3695', () => {
    expect(detail?.skew25).toBeNull();
  });

  it('the term structure lists each expiration with its ATM IV', () => {
    expect(termStructure(chain)).toEqual([{ expiration: EXPIRATION, dte: 7, atmIV: detail?.atmIV }]);
  });
});

describe('delta exposure (the open interest’s own delta, Δ·OI·m in shares)', () => {
  const chain = prepareChain(snapshot(SMALL), { rate: RATE });
  const gex = computeGex(chain, { expirations: [], formula: 'per_1pct' });

  it('per strike and in total, against Δ computed in Python (math.erf) for each contract', () => {
    // BSM on F = 101.00076741760199 with e^{−qT} = e^{−rT}F/S = 1.0092331708761733:
    // 95 C 0.97746542597749, 95 P −0.04318973089214, 100 C 0.65152765233025, 100 P −0.36952610873750,
    // 105 C 0.06169446070196, 105 P −0.91507662930109.
    const python: Record<number, [number, number]> = {
      95: [9774.654259774938, -3887.0757802923918],
      100: [65152.76523302515, -29562.088699000094],
      105: [7403.335284234983, -27452.298879032696],
    };
    for (const row of gex.data) {
      const [call, put] = python[row.strike] ?? [Number.NaN, Number.NaN];
      expect(relative(row.callDEX, call), `call DEX at ${row.strike}`).toBeLessThan(1e-12);
      expect(relative(row.putDEX, put), `put DEX at ${row.strike}`).toBeLessThan(1e-12);
      expect(row.netDEX).toBeCloseTo(row.callDEX + row.putDEX, 9);
    }
    const total = Object.values(python).reduce((sum, [call, put]) => sum + call + put, 0);
    expect(relative(gex.totalDEX, total), 'totalDEX = Σ netDEX').toBeLessThan(1e-12);
    expect(gex.totalDEXNotional, 'DEX × S').toBeCloseTo(gex.totalDEX * 100, 6);
    expect(computeGex(chain, { expirations: [], formula: 'nominal' }).totalDEX, 'DEX is in shares whatever the formula').toBe(gex.totalDEX);
  });

  it('d(DEX)/dS = Σ Γ·OI·m: central differences of deltaAt against the nominal GEX with the put sign undone', () => {
    const contracts = usableContracts(chain, chain.expirations);
    const nominal = computeGex(chain, { expirations: [], formula: 'nominal' });
    expect(relative(deltaAt(chain, contracts, 100), nominal.totalDEX), 'deltaAt(S) is /gex totalDEX').toBeLessThan(1e-12);
    const h = 1e-4;
    const slope = (deltaAt(chain, contracts, 100 + h) - deltaAt(chain, contracts, 100 - h)) / (2 * h);
    // Dealers are long calls (callGEX ≥ 0) and short puts (putGEX ≤ 0); the open interest's own gamma is positive on both.
    const gammaShares = nominal.data.reduce((sum, row) => sum + row.callGEX - row.putGEX, 0);
    expect(relative(slope, gammaShares)).toBeLessThan(1e-6);
  });
});

describe('the ATM strike when the forward lies between strikes', () => {
  /** r = 0 and quotes in quarters: F = K* + (C_mid − P_mid) exactly; strike 100 has the smallest |C − P|. */
  const chainWithForward = (callMid: number) =>
    prepareChain(
      snapshot([
        contract({ strike: 95, right: 'C', bid: callMid + 4.75, ask: callMid + 5.25, iv: 0.25 }),
        contract({ strike: 95, right: 'P', bid: 0.25, ask: 0.5, iv: 0.27 }),
        contract({ strike: 100, right: 'C', bid: callMid - 0.25, ask: callMid + 0.25, iv: 0.2 }),
        contract({ strike: 100, right: 'P', bid: 0.75, ask: 1.25, iv: 0.3 }),
        contract({ strike: 105, right: 'C', bid: 0.25, ask: 0.75, iv: 0.17 }),
        contract({ strike: 105, right: 'P', bid: 3.75, ask: 4.25, iv: 0.19 }),
      ]),
      { rate: 0 },
    );

  it('takes the nearer listed strike: F = 102 → 100, F = 103 → 105', () => {
    const low = chainWithForward(3);
    expect(low.expirations[0]?.groups[0]?.forward, 'F = 100 + (3 − 1)').toBe(102);
    expect(expirationDetails(low)[0], 'IV (0.2 + 0.3)/2, straddle 3 + 1').toMatchObject({ atmStrike: 100, atmIV: 0.25, straddle: 4 });
    const high = chainWithForward(4);
    expect(high.expirations[0]?.groups[0]?.forward, 'F = 100 + (4 − 1)').toBe(103);
    const detail = expirationDetails(high)[0];
    expect(detail?.atmStrike).toBe(105);
    expect(detail?.atmIV, '(0.17 + 0.19) / 2').toBeCloseTo(0.18, 15);
    expect(detail?.straddle, '0.5 + 4.0').toBe(4.5);
  });

  it('halfway (F = 102.5) goes to the lower strike', () => {
    const half = chainWithForward(3.5);
    expect(half.expirations[0]?.groups[0]?.forward).toBe(102.5);
    expect(expirationDetails(half)[0]?.atmStrike).toBe(100);
  });
});

describe('the 25-delta skew on a smile of one-point strikes', () => {
  // Strikes 90..110, IV 0.20 + 0.004·(100 − K), no quotes (F = S·e^{rT} = 100.0767, e^{−qT} = 1). Python (math.erf):
  // nearest call delta 0.24115 at 102 (IV 0.192), nearest put delta −0.22892 at 98 (IV 0.208); skew 0.016.
  const smile: OptionContract[] = [];
  for (let strike = 90; strike <= 110; strike += 1) {
    const iv = 0.2 + 0.004 * (100 - strike);
    smile.push(contract({ strike, right: 'C', iv }), contract({ strike, right: 'P', iv }));
  }
  it('is the put’s IV minus the call’s', () => {
    const detail = expirationDetails(prepareChain(snapshot(smile), { rate: RATE }))[0];
    expect(detail?.skew25).toBeCloseTo(0.208 - 0.192, 14);
    expect(detail?.straddle, 'no quotes: no straddle').toBeNull();
  });
  it(`is null when the nearest delta is more than ${SKEW_DELTA_TOLERANCE} away (strikes 90, 100, 110)`, () => {
    const sparse = smile.filter((c) => c.strike % 10 === 0);
    expect(expirationDetails(prepareChain(snapshot(sparse), { rate: RATE }))[0]?.skew25).toBeNull();
  });
});

/** Σ OI·m·intrinsic at K, the definition, scanned over every listed strike. */
function bruteMaxPain(contracts: readonly OptionContract[], spot: number): { strike: number; pain: number } | null {
  const strikes = [...new Set(contracts.map((c) => c.strike))].sort((a, b) => a - b);
  const pain = (k: number) => contracts.reduce((sum, c) => sum + c.openInterest * c.multiplier * (c.right === 'C' ? Math.max(k - c.strike, 0) : Math.max(c.strike - k, 0)), 0);
  let best: { strike: number; pain: number } | null = null;
  for (const strike of strikes) {
    const value = pain(strike);
    if (best === null || value < best.pain || (value === best.pain && Math.abs(strike - spot) < Math.abs(best.strike - spot))) best = { strike, pain: value };
  }
  return best;
}

describe('max pain against the brute-force scan', () => {
  it('on 200 random chains (including ties and one-sided strikes)', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let trial = 0; trial < 200; trial += 1) {
      const contracts: OptionContract[] = [];
      const count = 1 + Math.floor(random() * 30);
      for (let k = 0; k < count; k += 1) {
        const strike = 80 + 2.5 * Math.floor(random() * 17);
        for (const right of ['C', 'P'] as const) {
          if (random() < 0.2) continue;
          if (contracts.some((c) => c.strike === strike && c.right === right)) continue;
          contracts.push(contract({ strike, right, openInterest: Math.floor(random() * 4) * 250 }));
        }
      }
      const rows = contracts.map((c) => ({ contract: c, settlement: 'PM' as const }));
      const brute = bruteMaxPain(contracts, 100);
      const total = contracts.reduce((sum, c) => sum + c.openInterest, 0);
      const found = maxPain(rows, 100);
      if (total === 0) {
        expect(found, 'no open interest: no max pain').toBeNull();
        continue;
      }
      expect(found, `trial ${trial}`).toBe(brute?.strike);
    }
  });
});

describe('every flip root and the flip status', () => {
  // Puts at 90 and 110 around calls at 100: dealer gamma is negative near 90, positive near 100, negative near 110.
  const twice = [contract({ strike: 90, right: 'P', openInterest: 4000 }), contract({ strike: 100, right: 'C', openInterest: 3000 }), contract({ strike: 110, right: 'P', openInterest: 4000 })];
  const chain = prepareChain(snapshot(twice), { rate: RATE });
  /** P(x) = Σ s·Γ(x)·OI·m from the definition (Math.exp, every term), forward F·x/S with F = S·e^{rT}. */
  const P = (x: number) =>
    twice.reduce((sum, c) => {
      const forward = x * Math.exp(RATE * T_WEEK);
      const sigmaSqrtT = c.iv * Math.sqrt(T_WEEK);
      const d1 = (Math.log(forward / c.strike) + (c.iv * c.iv * T_WEEK) / 2) / sigmaSqrtT;
      const gamma = Math.exp((-d1 * d1) / 2) / Math.sqrt(2 * Math.PI) / (x * sigmaSqrtT);
      return sum + (c.right === 'C' ? 1 : -1) * gamma * c.openInterest * 100;
    }, 0);
  /** The root of P in [a, b] by 200 halvings. */
  const root = (a: number, b: number) => {
    let [low, high] = [a, b];
    for (let i = 0; i < 200; i += 1) {
      const mid = (low + high) / 2;
      if (Math.sign(P(mid)) === Math.sign(P(low))) low = mid;
      else high = mid;
    }
    return (low + high) / 2;
  };

  it('a profile that crosses zero twice: status multiple, both roots ascending, the inflection the nearer to S', () => {
    const gex = computeGex(chain, { expirations: [], formula: 'nominal' });
    const expected = [root(90, 100), root(100, 110)];
    expect(gex.flipStatus).toBe('multiple');
    expect(gex.flipRoots).toHaveLength(2);
    gex.flipRoots.forEach((found, index) => expect(Math.abs(found - (expected[index] ?? 0)), `root ${index} within the bisection width 1e−6·S`).toBeLessThanOrEqual(1e-6 * 100));
    const nearest = expected.reduce((a, b) => (Math.abs(b - 100) < Math.abs(a - 100) ? b : a));
    expect(Math.abs((gex.gammaInflection ?? 0) - nearest)).toBeLessThanOrEqual(1e-6 * 100);
    const profile = computeGexProfile(chain, { expirations: [], formula: 'nominal' });
    expect(profile.flipRoots, '/gex/profile carries the same roots').toEqual(gex.flipRoots);
    expect(profile.flipStatus).toBe('multiple');
  });

  it('one sign change is ok, none is none', () => {
    const once = prepareChain(snapshot(twice.slice(0, 2)), { rate: RATE });
    const one = computeGex(once, { expirations: [], formula: 'nominal' });
    expect(one.flipStatus).toBe('ok');
    expect(one.flipRoots).toEqual([one.gammaInflection]);
    const calls = computeGex(prepareChain(snapshot([twice[1] ?? contract({ strike: 100, right: 'C' })]), { rate: RATE }), { expirations: [], formula: 'nominal' });
    expect(calls).toMatchObject({ flipStatus: 'none', flipRoots: [], gammaInflection: null });
  });
});

describe('the strike × expiration grid', () => {
  const second = '2026-03-20';
  const chain = prepareChain(
    snapshot([...SMALL, contract({ strike: 100, right: 'C', expiration: second, openInterest: 500 }), contract({ strike: 130, right: 'P', expiration: second, openInterest: 700 }), contract({ strike: 110, right: 'P', expiration: second, openInterest: 0 })]),
    { rate: RATE },
  );
  it('rows sum to /gex per expiration over the strikes within [0.8S, 1.2S]; 0 where an expiration has no open interest', () => {
    const all = chain.expirations.map((e) => e.expiration);
    const grid = computeGexGrid(chain, { expirations: all, formula: 'per_1pct' });
    expect(grid.expirations).toEqual([EXPIRATION, second]);
    expect(grid.strikes, '130 is above 1.2S; 110 has no open interest').toEqual([95, 100, 105]);
    for (const [index, expiration] of grid.expirations.entries()) {
      const gex = computeGex(chain, { expirations: [expiration], formula: 'per_1pct' });
      const row = grid.netGEX[index] ?? [];
      grid.strikes.forEach((strike, k) => {
        const expected = gex.data.find((r) => r.strike === strike)?.netGEX ?? 0;
        expect(Math.abs((row[k] ?? Number.NaN) - expected), `${expiration} ${strike}`).toBeLessThanOrEqual(1e-12 * Math.abs(expected));
      });
    }
    expect(grid.netGEX[1]?.[0], 'the second expiration lists nothing at 95').toBe(0);
  });
});

describe('the sweep’s exp', () => {
  it('agrees with Math.exp to 1e−15 relative over [−708, 0], is exactly 1 at 0 and 0 below −745.2', () => {
    let worst = 0;
    for (let i = 0; i <= 200_000; i += 1) {
      const q = -708 * (i / 200_000) ** 2;
      worst = Math.max(worst, relative(expNeg(q), Math.exp(q)));
    }
    expect(worst).toBeLessThan(1e-15);
    expect(expNeg(0)).toBe(1);
    expect(expNeg(-746)).toBe(0);
  });

  it('the 201-point gamma and vanna profiles equal the definition (Math.exp, no cut-off) to 1e−9 relative, and so does at(x)', () => {
    const contracts: OptionContract[] = [];
    for (let strike = 70; strike <= 130; strike += 2.5) {
      for (const [expiration, iv] of [[EXPIRATION, 0.3], ['2026-02-03', 0.6], ['2026-06-19', 0.22]] as const) {
        contracts.push(contract({ strike, right: 'C', expiration, iv: iv + (100 - strike) / 1000, openInterest: 1000 + 37 * strike }));
        contracts.push(contract({ strike, right: 'P', expiration, iv: iv + (100 - strike) / 800, openInterest: 3000 - 11 * strike }));
      }
    }
    const chain = prepareChain(snapshot(contracts), { rate: RATE });
    const indices = usableContracts(chain, chain.expirations);
    for (const kind of ['gamma', 'vanna'] as const) {
      const sweep = sweepProfile(chain, indices, kind);
      expect(sweep.values).toHaveLength(SWEEP_POINTS);
      for (let p = 0; p < SWEEP_POINTS; p += 1) {
        const x = sweep.levels[p] ?? 0;
        let definition = 0;
        for (const i of indices) {
          const d = (chain.d1[i] ?? 0) + Math.log(x / chain.spot) * (chain.invSigmaSqrtT[i] ?? 0);
          const bell = (kind === 'gamma' ? (chain.gammaCoef[i] ?? 0) : (chain.vannaCoef[i] ?? 0)) * Math.exp(-0.5 * d * d);
          definition += kind === 'gamma' ? bell : bell * (d - (chain.sigmaSqrtT[i] ?? 0));
        }
        definition = kind === 'gamma' ? definition / x : definition * x * 0.01;
        expect(relative(sweep.values[p] ?? 0, definition), `${kind} at x = ${x}`).toBeLessThan(1e-9);
        // Between the points (the bisection's midpoints) the sweep answers from the same interpolants.
        if (p > 0) expect(relative(sweep.at(x), definition), `${kind}: at(x) at the point ${x}`).toBeLessThan(1e-9);
      }
    }
  });
});
