/**
 * Hand computations of issue 21's figures from the rows of a real quotedata file (test/quotedata.ts
 * reads them, not the parser under test): per-expiration statistics by docs/exposure.md's definitions, Black–Scholes
 * delta with a normal distribution of the test's own, and the gamma profile by its definition (Math.exp, every term).
 */
import { settlementGroups, type RawContract, type SettlementGroup } from '../../../../quotedata';

export const RATE = 0.04;

/**
 * N(x) of the test: Marsaglia's series 1/2 + φ(z)·Σ z^{2k+1}/(2k+1)!! below |x| = 3, the Laplace continued fraction
 * φ(z)/(z + 1/(z + 2/(z + …))) for the tail above: both good to about 1e−15, relative in the tail.
 */
export function normalCdf(x: number): number {
  const z = Math.abs(x);
  const pdf = Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
  let tail: number;
  if (z < 3) {
    let term = z;
    let sum = z;
    for (let k = 1; k < 400 && term > 1e-18 * sum; k += 1) {
      term *= (z * z) / (2 * k + 1);
      sum += term;
    }
    tail = 0.5 - pdf * sum;
  } else {
    let fraction = z;
    for (let k = 200; k >= 1; k -= 1) fraction = z + k / fraction;
    tail = pdf / fraction;
  }
  return x > 0 ? 1 - tail : tail;
}

const usable = (c: RawContract) => c.iv > 0 && c.iv <= 5;

/** The settlement group holding more open interest (PM on a tie: the later expiry instant), as docs/exposure.md. */
export function mainGroup(groups: readonly SettlementGroup[]): SettlementGroup {
  const oi = (g: SettlementGroup) => g.contracts.reduce((sum, c) => sum + Math.max(c.openInterest, 0), 0);
  const sorted = [...groups].sort((a, b) => a.tYears - b.tYears);
  const [am, pm] = sorted.length === 2 ? sorted : [undefined, sorted[0]];
  if (am === undefined) return pm ?? sorted[0] ?? { contracts: [], tYears: 0, forward: 0 };
  return pm !== undefined && oi(am) > oi(pm) ? am : (pm ?? am);
}

export function bsDelta(c: RawContract, group: SettlementGroup, spot: number): number {
  const sigmaSqrtT = c.iv * Math.sqrt(group.tYears);
  const d1 = (Math.log(group.forward / c.strike) + (c.iv * c.iv * group.tYears) / 2) / sigmaSqrtT;
  const carryDiscount = (Math.exp(-RATE * group.tYears) * group.forward) / spot;
  return c.right === 'C' ? carryDiscount * normalCdf(d1) : -carryDiscount * normalCdf(-d1);
}

export interface HandStats {
  atmStrike: number | null;
  atmIV: number | null;
  straddle: number | null;
  maxPain: number | null;
  /** Pain at the hand's max-pain strike and the least pain over every listed strike (for near-ties). */
  pain: (strike: number) => number;
  callOI: number;
  putOI: number;
  callVolume: number;
  putVolume: number;
  skew25: number | null;
}

const mid = (c: RawContract): number | null => (c.bid >= 0 && c.ask >= c.bid && c.ask > 0 ? (c.bid + c.ask) / 2 : null);

/** One expiration's statistics from the live rows, each by its definition (brute force where there is a shortcut). */
export function handStats(live: readonly RawContract[], expiration: string, spot: number, quoteTime: string): HandStats {
  const rows = live.filter((c) => c.expiration === expiration);
  const main = mainGroup(settlementGroups(live, expiration, spot, RATE, quoteTime));
  const inMain = new Set(main.contracts);
  // ATM: strikes of the main group listing both sides, nearest F, the lower on a tie.
  let atm: { strike: number; call: RawContract; put: RawContract } | null = null;
  for (const call of main.contracts.filter((c) => c.right === 'C')) {
    const put = main.contracts.find((c) => c.right === 'P' && c.strike === call.strike);
    if (put === undefined || main.contracts.find((c) => c.right === 'C' && c.strike === call.strike) !== call) continue;
    const distance = Math.abs(call.strike - main.forward);
    if (atm === null || distance < Math.abs(atm.strike - main.forward) || (distance === Math.abs(atm.strike - main.forward) && call.strike < atm.strike)) atm = { strike: call.strike, call, put };
  }
  const atmIvs = atm === null ? [] : [atm.call.iv, atm.put.iv].filter((iv) => iv > 0 && iv <= 5);
  const callMid = atm === null ? null : mid(atm.call);
  const putMid = atm === null ? null : mid(atm.put);
  // Max pain by the O(n²) scan of its definition over every listed strike.
  const pain = (k: number) => rows.reduce((sum, c) => sum + Math.max(c.openInterest, 0) * 100 * (c.right === 'C' ? Math.max(k - c.strike, 0) : Math.max(c.strike - k, 0)), 0);
  const strikes = [...new Set(rows.map((c) => c.strike))].sort((a, b) => a - b);
  let maxPain: number | null = null;
  let least = Number.POSITIVE_INFINITY;
  for (const strike of strikes) {
    const value = pain(strike);
    if (value < least || (value === least && maxPain !== null && Math.abs(strike - spot) < Math.abs(maxPain - spot))) {
      least = value;
      maxPain = strike;
    }
  }
  const totalOI = rows.reduce((sum, c) => sum + Math.max(c.openInterest, 0), 0);
  // 25-delta skew over the main group's contracts with usable IV.
  const nearest = (right: 'C' | 'P', target: number) => {
    let best: { gap: number; iv: number; strike: number } | null = null;
    for (const c of rows) {
      if (!inMain.has(c) || c.right !== right || !usable(c)) continue;
      const gap = Math.abs(bsDelta(c, main, spot) - target);
      if (best === null || gap < best.gap) best = { gap, iv: c.iv, strike: c.strike };
    }
    return best;
  };
  const call25 = nearest('C', 0.25);
  const put25 = nearest('P', -0.25);
  const sum = (right: 'C' | 'P', pick: (c: RawContract) => number) => rows.filter((c) => c.right === right).reduce((total, c) => total + pick(c), 0);
  return {
    atmStrike: atm?.strike ?? null,
    atmIV: atmIvs.length === 0 ? null : atmIvs.reduce((a, b) => a + b, 0) / atmIvs.length,
    straddle: callMid === null || putMid === null ? null : callMid + putMid,
    maxPain: totalOI > 0 ? maxPain : null,
    pain,
    callOI: sum('C', (c) => Math.max(c.openInterest, 0)),
    putOI: sum('P', (c) => Math.max(c.openInterest, 0)),
    callVolume: sum('C', (c) => c.volume),
    putVolume: sum('P', (c) => c.volume),
    skew25: call25 === null || put25 === null || call25.gap > 0.1 || put25.gap > 0.1 ? null : put25.iv - call25.iv,
  };
}

/**
 * The gamma profile by its definition over the given expirations: P(x) = Σ s·Γ(x)·OI·m, each contract keeping its IV
 * and T, its group's forward moved to F·x/S; Math.exp, no term left out.
 */
export function handProfile(live: readonly RawContract[], expirations: readonly string[], spot: number, quoteTime: string): (x: number) => number {
  const terms: Array<{ sign: number; weight: number; strike: number; iv: number; tYears: number; forward: number }> = [];
  for (const expiration of expirations) {
    for (const group of settlementGroups(live, expiration, spot, RATE, quoteTime)) {
      for (const c of group.contracts) {
        if (!(c.openInterest > 0) || !usable(c)) continue;
        terms.push({ sign: c.right === 'C' ? 1 : -1, weight: c.openInterest * 100, strike: c.strike, iv: c.iv, tYears: group.tYears, forward: group.forward });
      }
    }
  }
  return (x: number) => {
    let total = 0;
    for (const t of terms) {
      const forward = (t.forward * x) / spot;
      const sigmaSqrtT = t.iv * Math.sqrt(t.tYears);
      const d1 = (Math.log(forward / t.strike) + (t.iv * t.iv * t.tYears) / 2) / sigmaSqrtT;
      const carryDiscount = (Math.exp(-RATE * t.tYears) * forward) / x;
      total += t.sign * t.weight * ((carryDiscount * Math.exp(-0.5 * d1 * d1)) / Math.sqrt(2 * Math.PI) / (x * sigmaSqrtT));
    }
    return total;
  };
}
