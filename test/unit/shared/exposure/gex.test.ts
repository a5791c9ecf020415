import { describe, expect, it } from 'vitest';
import { bsmGreeks } from '../../../../src-shared/exposure/greeks';
import { UnknownExpirationError } from '../../../../src-shared/exposure/expiration-scope';
import { computeGex, formulaFactor, pickLevel, usableContracts } from '../../../../src-shared/exposure/gex';
import { availableExpirations, expirationDetails } from '../../../../src-shared/exposure/chain-reads';
import { prepareChain } from '../../../../src-shared/exposure/prepare';
import { profileAt } from '../../../../src-shared/exposure/sweep';
import { contract, EXPIRATION, snapshot, T_WEEK } from '../../../exposure-helpers';

const RATE = 0.04;
const settings = { rate: RATE };

describe('time to expiry, dte and settlement', () => {
  it('uses 16:00 New York for PM roots and T in years of 365 days', () => {
    const chain = prepareChain(snapshot([contract({ strike: 100, right: 'C' })]), settings);
    const [expiration] = chain.expirations;
    expect(expiration?.dte, 'quote Monday 2026-02-02, expiry Monday 2026-02-09: 7 calendar days').toBe(7);
    expect(expiration?.groups[0]?.tYears, '7 × 24 × 60 minutes / (365 × 24 × 60)').toBeCloseTo(T_WEEK, 15);
    expect(expiration?.settlement).toBe('PM');
  });

  it('settles SPX (not SPXW) at 09:30 and drops contracts expired at quote time', () => {
    // 2026-02-20 10:00 New York = 15:00Z: the AM-settled SPX monthly expired at 09:30, SPXW runs to 16:00.
    const chain = prepareChain(
      snapshot(
        [contract({ root: 'SPX', expiration: '2026-02-20', strike: 100, right: 'C' }), contract({ root: 'SPXW', expiration: '2026-02-20', strike: 100, right: 'P' })],
        100,
        '2026-02-20T15:00:00Z',
        'SPX',
      ),
      settings,
    );
    expect(chain.expirations.map((e) => e.contracts), 'only the SPXW contract is left').toEqual([1]);
    expect(chain.expirations[0]?.groups.map((g) => g.settlement)).toEqual(['PM']);
    expect(chain.expirations[0]?.groups[0]?.tYears, '6 hours to the 16:00 close').toBeCloseTo(360 / 525600, 15);
    expect(chain.expirations[0]?.dte, 'same-day expiry').toBe(0);

    const before = prepareChain(snapshot([contract({ root: 'SPX', expiration: '2026-02-20', strike: 100, right: 'C' })], 100, '2026-02-19T21:00:00Z', 'SPX'), settings);
    expect(before.expirations[0]?.groups[0]?.tYears, 'Thursday 16:00 → Friday 09:30 = 17.5 hours').toBeCloseTo((17.5 * 60) / 525600, 15);
    expect(before.expirations[0]?.settlement).toBe('AM');
  });

  it('floors T at 15 minutes', () => {
    const chain = prepareChain(snapshot([contract({ strike: 100, right: 'C', expiration: '2026-02-02' })], 100, '2026-02-02T20:55:00Z'), settings);
    expect(chain.expirations[0]?.groups[0]?.tYears, '5 minutes left → 15 minutes').toBeCloseTo(15 / 525600, 15);
  });

  it('counts New York calendar days across a daylight-saving change', () => {
    // Saturday 2026-03-07 20:00 EST (01:00Z Sunday) → Monday 2026-03-09 16:00 EDT: 44 wall-clock hours, 43 real ones.
    const chain = prepareChain(snapshot([contract({ strike: 100, right: 'C', expiration: '2026-03-09' })], 100, '2026-03-08T01:00:00Z'), settings);
    expect(chain.expirations[0]?.dte, 'quote date is Saturday 03-07 in New York although it is Sunday in UTC').toBe(2);
    expect(chain.expirations[0]?.groups[0]?.tYears, 'clocks spring forward one hour on 03-08').toBeCloseTo((43 * 60) / 525600, 15);
  });
});

describe('forward from put–call parity', () => {
  const growth = Math.exp(RATE * T_WEEK);
  it('takes the strike with the smallest |C_mid − P_mid|', () => {
    const chain = prepareChain(
      snapshot([
        contract({ strike: 95, right: 'C', bid: 6.4, ask: 6.6 }),
        contract({ strike: 95, right: 'P', bid: 0.5, ask: 0.7 }),
        contract({ strike: 100, right: 'C', bid: 2.9, ask: 3.1 }),
        contract({ strike: 100, right: 'P', bid: 1.9, ask: 2.1 }),
        contract({ strike: 105, right: 'C', bid: 0.8, ask: 1.0 }),
        contract({ strike: 105, right: 'P', bid: 4.7, ask: 4.9 }),
        // A crossed quote (ask < bid) is not used even though its difference would be the smallest.
        contract({ strike: 110, right: 'C', bid: 2.0, ask: 1.0 }),
        contract({ strike: 110, right: 'P', bid: 1.5, ask: 1.6 }),
      ]),
      settings,
    );
    const group = chain.expirations[0]?.groups[0];
    expect(group?.parityStrike, '|3.0 − 2.0| = 1.0 < |6.5 − 0.6| and |0.9 − 4.8|').toBe(100);
    expect(group?.forward, 'F = K* + e^{rT}(C − P) = 100 + e^{0.04·7/365}·1.0').toBeCloseTo(100 + growth * 1.0, 12);
  });
  it('falls back to S·e^{rT} without usable quotes or outside [0.9S, 1.1S]', () => {
    const none = prepareChain(snapshot([contract({ strike: 100, right: 'C' }), contract({ strike: 100, right: 'P' })]), settings);
    expect(none.expirations[0]?.groups[0]?.forward, 'no bids').toBeCloseTo(100 * growth, 12);
    const wild = prepareChain(snapshot([contract({ strike: 100, right: 'C', bid: 30, ask: 31 }), contract({ strike: 100, right: 'P', bid: 0.1, ask: 0.2 })]), settings);
    expect(wild.expirations[0]?.groups[0]?.forward, 'F = 130.4 is outside [90, 110]').toBeCloseTo(100 * growth, 12);
  });
});

describe('adjusted roots (a root ending in a digit) are left out and counted', () => {
  const growth = Math.exp(RATE * T_WEEK);
  // XYZ1 delivers more than 100 XYZ shares: its parity pair at 100 (C − P = 40) would give F = 140 → S·e^{rT}.
  const chain = prepareChain(
    snapshot([
      contract({ root: 'XYZ1', strike: 100, right: 'C', bid: 42, ask: 44 }),
      contract({ root: 'XYZ1', strike: 100, right: 'P', bid: 2, ask: 4 }),
      contract({ strike: 100, right: 'C', bid: 2.9, ask: 3.1 }),
      contract({ strike: 100, right: 'P', bid: 1.9, ask: 2.1 }),
      contract({ root: 'XYZ1', strike: 120, right: 'C', expiration: '2026-03-20' }),
    ]),
    settings,
  );
  it('from the forward, the open interest, the contract counts and the expirations', () => {
    expect(chain.expirations[0]?.groups[0]?.forward, 'F from the XYZ pair alone: 100 + e^{rT}·1.0').toBeCloseTo(100 + growth * 1.0, 12);
    expect(chain.expirations.map((e) => e.expiration), 'an expiration listed only by XYZ1 is not available').toEqual([EXPIRATION]);
    expect(expirationDetails(chain)[0]).toMatchObject({ contracts: 2, openInterest: 2000 });
    const gex = computeGex(chain, { expirations: [], formula: 'nominal' });
    expect(gex.data.map((r) => [r.strike, r.callOI, r.putOI])).toEqual([[100, 1000, 1000]]);
    expect(gex.meta.excludedContracts).toBe(3);
    expect(chain.excluded).toEqual({ expired: 0, adjusted: 3, unusableIv: 0 });
    expect(chain.adjustedRoots).toEqual(['XYZ1']);
  });
  it('but a snapshot whose own ticker ends in a digit is not adjusted', () => {
    const own = prepareChain(snapshot([contract({ root: 'ABC2', strike: 100, right: 'C' })], 100, undefined, 'ABC2'), settings);
    expect(own.excluded.adjusted).toBe(0);
    expect(own.expirations).toHaveLength(1);
  });
});

describe('walls: ties go to the strike nearest spot, then the lower', () => {
  const strikes = [95, 100, 105, 110];
  const values = [5, 3, 5, 1];
  it('picks the largest value', () => {
    expect(pickLevel(strikes, [1, 7, 5, 2], [0, 1, 2, 3], 101, (v) => v > 0, (a, b) => a > b)).toBe(1);
  });
  it('breaks a tie by distance to spot', () => {
    expect(pickLevel(strikes, values, [0, 1, 2, 3], 101, (v) => v > 0, (a, b) => a > b), '105 is 4 from spot, 95 is 6').toBe(2);
  });
  it('breaks an equal distance by the lower strike', () => {
    expect(pickLevel(strikes, values, [0, 1, 2, 3], 100, (v) => v > 0, (a, b) => a > b), '95 and 105 are both 5 from spot 100').toBe(0);
  });
  it('returns null when no value qualifies', () => {
    expect(pickLevel(strikes, [0, 0, 0, 0], [0, 1, 2, 3], 100, (v) => v > 0, (a, b) => a > b)).toBeNull();
  });
});

describe('a hand-checked chain', () => {
  const S = 100;
  const F = S * Math.exp(RATE * T_WEEK); // no bids: the forward is S·e^{rT}
  const contracts = [
    contract({ strike: 100, right: 'C', openInterest: 1000, iv: 0.2 }),
    contract({ strike: 105, right: 'C', openInterest: 3000, iv: 0.18 }),
    contract({ strike: 95, right: 'P', openInterest: 2500, iv: 0.25 }),
    contract({ strike: 100, right: 'P', openInterest: 800, iv: 0.2 }),
    contract({ strike: 110, right: 'C', openInterest: 0, iv: 0.2 }), // no OI: no row
    contract({ strike: 90, right: 'P', openInterest: 500, iv: 0 }), // unusable IV: counts in putOI only
  ];
  const gammaOf = (strike: number, iv: number) => bsmGreeks({ spot: S, forward: F, strike, tYears: T_WEEK, sigma: iv, rate: RATE, right: 'C' }).gamma;
  // Dealer gamma in shares per $1: s·Γ·OI·100.
  const call100 = gammaOf(100, 0.2) * 1000 * 100;
  const call105 = gammaOf(105, 0.18) * 3000 * 100;
  const put95 = -gammaOf(95, 0.25) * 2500 * 100;
  const put100 = -gammaOf(100, 0.2) * 800 * 100;
  const chain = prepareChain(snapshot(contracts, S), settings);
  const result = computeGex(chain, { expirations: [EXPIRATION], formula: 'nominal' });

  it('has one row per strike with open interest, sorted', () => {
    expect(result.data.map((r) => r.strike), '110 has no open interest').toEqual([90, 95, 100, 105]);
    expect(result.data.map((r) => [r.callOI, r.putOI])).toEqual([[0, 500], [0, 2500], [1000, 800], [3000, 0]]);
    expect(result.meta.contracts, 'all six contracts are in scope').toBe(6);
  });

  it('sums dealer gamma per strike (calls +, puts −)', () => {
    const row = (strike: number) => result.data.find((r) => r.strike === strike);
    expect(row(90)?.putGEX, 'IV = 0 contributes nothing').toBe(0);
    expect(row(95)?.putGEX).toBeCloseTo(put95, 6);
    expect(row(100)?.callGEX).toBeCloseTo(call100, 6);
    expect(row(100)?.putGEX).toBeCloseTo(put100, 6);
    expect(row(100)?.netGEX, 'net = call + put').toBeCloseTo(call100 + put100, 6);
    expect(row(105)?.callGEX).toBeCloseTo(call105, 6);
    expect(result.totalGEX, 'total = Σ net').toBeCloseTo(call100 + call105 + put95 + put100, 6);
    expect(result.gammaZone, 'sign of the total').toBe(call100 + call105 + put95 + put100 >= 0 ? 'positive' : 'negative');
  });

  it('puts the walls on the extreme strikes', () => {
    // Hand reasoning: the 105 call is 0.95 σ√T out of the money with 3× the OI of the 100 call; the 95 put
    // with 2500 contracts at 25% vol against 800 at the money.
    const callWall = call105 > call100 ? 105 : 100;
    const putWall = put95 < put100 ? 95 : 100;
    expect(result.callWall?.strike).toBe(callWall);
    expect(result.callWall?.gex).toBeCloseTo(Math.max(call100, call105), 6);
    expect(result.putWall?.strike).toBe(putWall);
    expect(result.putWall?.gex, 'putWall.gex is negative').toBeLessThan(0);
  });

  it('has an inflection where the profile recomputed from the greeks is zero', () => {
    const x = result.gammaInflection;
    expect(x, 'calls above and puts below spot change sign in [80, 120]').not.toBeNull();
    if (x === null) return;
    const profile = (level: number) =>
      contracts.reduce((sum, c) => {
        if (!(c.openInterest > 0) || !(c.iv > 0)) return sum;
        const g = bsmGreeks({ spot: level, forward: (F * level) / S, strike: c.strike, tYears: T_WEEK, sigma: c.iv, rate: RATE, right: c.right });
        return sum + (c.right === 'C' ? 1 : -1) * g.gamma * c.openInterest * 100;
      }, 0);
    const scale = Math.abs(call105) + Math.abs(put95);
    expect(Math.abs(profile(x)) / scale, 'P(inflection) = 0 (bisection to 1e−6·S)').toBeLessThan(1e-4);
    expect(Math.sign(profile(x - 0.01)) * Math.sign(profile(x + 0.01)), 'the sign changes across it').toBe(-1);
  });

  it('rejects unknown expirations and defaults to the nearest three', () => {
    expect(() => computeGex(chain, { expirations: ['2026-02-10'], formula: 'nominal' })).toThrow(UnknownExpirationError);
    const unknown = (() => {
      try {
        computeGex(chain, { expirations: ['2026-02-11', EXPIRATION, '2026-02-10', '2026-02-11'], formula: 'nominal' });
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(unknown, 'one error naming every unknown expiration, once each, in order').toMatchObject({ expirations: ['2026-02-10', '2026-02-11'], available: [EXPIRATION] });
    expect(computeGex(chain, { expirations: [], formula: 'nominal' }).meta.expirations).toEqual([EXPIRATION]);
    expect(availableExpirations(chain)).toEqual([EXPIRATION]);
    expect(expirationDetails(chain), 'one expiration holds the whole book').toMatchObject([{ expiration: EXPIRATION, dte: 7, settlement: 'PM', contracts: 6, openInterest: 7800, gammaShare: 1 }]);
  });
});

describe('formula variants', () => {
  const S = 4700;
  const contracts = [
    ...[4500, 4600, 4650, 4700].map((strike, i) => contract({ strike, right: 'P', openInterest: 4000 + 700 * i, iv: 0.16 - i * 0.01 })),
    ...[4700, 4750, 4800, 4900].map((strike, i) => contract({ strike, right: 'C', openInterest: 3000 + 900 * i, iv: 0.12 + i * 0.005 })),
    contract({ strike: 4750, right: 'C', openInterest: 2500, iv: 0.13, expiration: '2026-02-20' }),
  ];
  const chain = prepareChain(snapshot(contracts, S), settings);
  const scope = ['2026-02-09', '2026-02-20'];
  const nominal = computeGex(chain, { expirations: scope, formula: 'nominal' });
  const perDollar = computeGex(chain, { expirations: scope, formula: 'per_1dollar' });
  const perPct = computeGex(chain, { expirations: scope, formula: 'per_1pct' });

  it('scale by exactly S and S²·0.01', () => {
    expect(formulaFactor('per_1dollar', S)).toBe(S);
    expect(formulaFactor('per_1pct', S)).toBe(S * S * 0.01);
    expect(perDollar.totalGEX / nominal.totalGEX, '$ of delta per $1 = shares × S').toBeCloseTo(S, 9);
    expect(perPct.totalGEX / nominal.totalGEX, '$ per 1% = shares × S × (0.01·S)').toBeCloseTo(S * S * 0.01, 7);
    nominal.data.forEach((row, i) => {
      expect(perPct.data[i]?.netGEX ?? 0, `row ${row.strike}`).toBeCloseTo(row.netGEX * S * S * 0.01, 3);
      expect(perDollar.data[i]?.callGEX ?? 0, `row ${row.strike}`).toBeCloseTo(row.callGEX * S, 6);
    });
  });
  it('leave walls, zone and inflection unchanged', () => {
    for (const other of [perDollar, perPct]) {
      expect(other.callWall?.strike).toBe(nominal.callWall?.strike);
      expect(other.putWall?.strike).toBe(nominal.putWall?.strike);
      expect(other.gammaZone).toBe(nominal.gammaZone);
      expect(other.gammaInflection).toBe(nominal.gammaInflection);
    }
    expect(nominal.gammaInflection, 'puts below and calls above spot: a flip exists').not.toBeNull();
  });
  it('the fast sweep agrees with the profile recomputed from the greeks', () => {
    const usable = usableContracts(chain, chain.expirations);
    for (const level of [3900, 4400, 4700, 5100, 5600]) {
      const fromGreeks = contracts.reduce((sum, c) => {
        const tYears = c.expiration === '2026-02-20' ? (18 * 1440) / 525600 : T_WEEK;
        const forward = S * Math.exp(RATE * tYears) * (level / S);
        const g = bsmGreeks({ spot: level, forward, strike: c.strike, tYears, sigma: c.iv, rate: RATE, right: c.right });
        return sum + (c.right === 'C' ? 1 : -1) * g.gamma * c.openInterest * 100;
      }, 0);
      expect(profileAt(chain, usable, 'gamma', level) / fromGreeks, `P(${level})`).toBeCloseTo(1, 9);
    }
  });
  it('gives no inflection when every contract is a call', () => {
    const calls = prepareChain(snapshot(contracts.filter((c) => c.right === 'C'), S), settings);
    expect(computeGex(calls, { expirations: scope, formula: 'nominal' }).gammaInflection, 'P > 0 everywhere').toBeNull();
  });
});
