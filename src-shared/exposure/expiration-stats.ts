/**
 * What one expiration says beyond exposure (docs/exposure.md, "The whole chain picture"): the at-the-money strike,
 * IV and straddle (the expected move), max pain, open interest and volume by side, and the 25-delta skew. Computed
 * once per prepared chain from the expiration's contracts, with its settlement groups' T and forward.
 */
import type { OptionContract } from './model';
import { normCdf } from './greeks';
import type { Settlement } from './time';

/** IV outside (0, 5] is unusable (prepare.ts, MAX_USABLE_IV): such a quote gives no ATM IV and no delta. */
const MAX_IV = 5;
/** The 25-delta skew's targets, and how far the nearest contract's delta may be from its target. */
export const SKEW_DELTA = 0.25;
export const SKEW_DELTA_TOLERANCE = 0.1;

export interface ExpirationStats {
  /** The strike nearest the forward among those listing both a call and a put (main settlement); ties → the lower. */
  atmStrike: number | null;
  /** Mean IV of that strike's call and put (of those with a usable IV). */
  atmIV: number | null;
  /** Call mid + put mid at atmStrike, per share: the market's expected move to expiry. */
  straddle: number | null;
  expectedMove: number | null;
  /** expectedMove ÷ S. */
  expectedMovePct: number | null;
  /** The listed strike where the open interest's payout at expiry, Σ OI·m·intrinsic, is least; ties → nearest S, then lower. */
  maxPain: number | null;
  callOI: number;
  putOI: number;
  /** putOI ÷ callOI; null without call open interest. */
  putCallOIRatio: number | null;
  /** Σ volume by side; null when no contract of the expiration carries a volume (the source has none). */
  callVolume: number | null;
  putVolume: number | null;
  /** IV of the put with delta nearest −0.25 minus IV of the call with delta nearest +0.25; null unless both within 0.10. */
  skew25: number | null;
}

/** A settlement group's T and forward (prepare.ts SettlementGroup). */
export interface StatsGroup {
  settlement: Settlement;
  tYears: number;
  forward: number;
}

/** The expiration's contracts (standard roots, unexpired), ascending by strike, each with its settlement. */
export interface StatsRow {
  contract: OptionContract;
  settlement: Settlement;
}

const usableIv = (iv: number): boolean => iv > 0 && iv <= MAX_IV;

/** The mid of a two-sided quote (bid ≥ 0, ask ≥ bid, ask > 0), else null. */
export function quoteMid(contract: OptionContract): number | null {
  const { bid, ask } = contract;
  return bid >= 0 && ask >= bid && ask > 0 ? (bid + ask) / 2 : null;
}

export function expirationStats(rows: readonly StatsRow[], main: StatsGroup, spot: number, rate: number): ExpirationStats {
  let callOI = 0;
  let putOI = 0;
  let callVolume = 0;
  let putVolume = 0;
  let hasVolume = false;
  for (const { contract } of rows) {
    const oi = contract.openInterest > 0 ? contract.openInterest : 0;
    const volume = contract.volume;
    if (volume !== undefined) hasVolume = true;
    if (contract.right === 'C') {
      callOI += oi;
      callVolume += volume ?? 0;
    } else {
      putOI += oi;
      putVolume += volume ?? 0;
    }
  }
  const atm = atTheMoney(rows, main);
  const straddle = atm === null || atm.callMid === null || atm.putMid === null ? null : atm.callMid + atm.putMid;
  return {
    atmStrike: atm?.strike ?? null,
    atmIV: atm?.iv ?? null,
    straddle,
    expectedMove: straddle,
    expectedMovePct: straddle === null ? null : straddle / spot,
    maxPain: maxPain(rows, spot),
    callOI,
    putOI,
    putCallOIRatio: callOI > 0 ? putOI / callOI : null,
    callVolume: hasVolume ? callVolume : null,
    putVolume: hasVolume ? putVolume : null,
    skew25: skew25(rows, main, spot, rate),
  };
}

interface AtTheMoney {
  strike: number;
  iv: number | null;
  callMid: number | null;
  putMid: number | null;
}

/** Rows are ascending by strike: one pass, the first call and put of the main settlement at each strike. */
function atTheMoney(rows: readonly StatsRow[], main: StatsGroup): AtTheMoney | null {
  const forward = main.forward;
  let best: { strike: number; call: OptionContract; put: OptionContract } | null = null;
  let j = 0;
  while (j < rows.length) {
    const strike = rows[j]?.contract.strike ?? 0;
    let call: OptionContract | null = null;
    let put: OptionContract | null = null;
    for (; j < rows.length; j += 1) {
      const row = rows[j];
      if (row === undefined || row.contract.strike !== strike) break;
      if (row.settlement !== main.settlement) continue;
      if (row.contract.right === 'C') call ??= row.contract;
      else put ??= row.contract;
    }
    if (call === null || put === null) continue;
    // Ascending strikes: on an equal distance the lower, found first, stays.
    if (best === null || Math.abs(strike - forward) < Math.abs(best.strike - forward)) best = { strike, call, put };
  }
  if (best === null) return null;
  const ivs = [best.call.iv, best.put.iv].filter(usableIv);
  return {
    strike: best.strike,
    iv: ivs.length === 0 ? null : ivs.reduce((a, b) => a + b, 0) / ivs.length,
    callMid: quoteMid(best.call),
    putMid: quoteMid(best.put),
  };
}

/**
 * Max pain over the listed strikes k_0 < … < k_{n−1}. The payout pain(K) = Σ_calls w·(K − K_c)⁺ + Σ_puts w·(K_p − K)⁺
 * (w = OI·m) is piecewise linear between strikes with slope (call weight at or below k_j) − (put weight above k_j), so
 * pain(k_{j+1}) = pain(k_j) + (k_{j+1} − k_j)·slope: O(n) instead of the O(n²) scan (the test runs that scan).
 */
export function maxPain(rows: readonly StatsRow[], spot: number): number | null {
  let ascending = true;
  for (let j = 1; j < rows.length && ascending; j += 1) ascending = (rows[j - 1]?.contract.strike ?? 0) <= (rows[j]?.contract.strike ?? 0);
  const sorted = ascending ? rows : [...rows].sort((a, b) => a.contract.strike - b.contract.strike);
  const strikes: number[] = [];
  const callWeight: number[] = [];
  const putWeight: number[] = [];
  let putTotal = 0;
  for (const { contract } of sorted) {
    const weight = contract.openInterest > 0 ? contract.openInterest * (contract.multiplier > 0 ? contract.multiplier : 100) : 0;
    let last = strikes.length - 1;
    if (last < 0 || strikes[last] !== contract.strike) {
      strikes.push(contract.strike);
      callWeight.push(0);
      putWeight.push(0);
      last += 1;
    }
    if (contract.right === 'C') {
      callWeight[last] = (callWeight[last] ?? 0) + weight;
    } else {
      putWeight[last] = (putWeight[last] ?? 0) + weight;
      putTotal += weight;
    }
  }
  const first = strikes[0] ?? 0;
  let callTotal = 0;
  let pain = 0;
  for (let j = 0; j < strikes.length; j += 1) {
    pain += (putWeight[j] ?? 0) * ((strikes[j] ?? 0) - first);
    callTotal += callWeight[j] ?? 0;
  }
  if (!(callTotal + putTotal > 0)) return null;
  let putAbove = putTotal;
  let callAtOrBelow = 0;
  let best = first;
  let bestPain = Number.POSITIVE_INFINITY;
  for (let j = 0; j < strikes.length; j += 1) {
    const strike = strikes[j] ?? 0;
    if (pain < bestPain || (pain === bestPain && nearerSpot(strike, best, spot))) {
      best = strike;
      bestPain = pain;
    }
    callAtOrBelow += callWeight[j] ?? 0;
    putAbove -= putWeight[j] ?? 0;
    const next = strikes[j + 1];
    if (next !== undefined) pain += (next - strike) * (callAtOrBelow - putAbove);
  }
  return best;
}

function nearerSpot(strike: number, than: number, spot: number): boolean {
  const distance = Math.abs(strike - spot);
  const thanDistance = Math.abs(than - spot);
  return distance < thanDistance || (distance === thanDistance && strike < than);
}

/**
 * IV(put with Δ nearest −0.25) − IV(call with Δ nearest +0.25), over the main settlement's contracts with a usable
 * IV; Δ is BSM on the group's forward (e^{−qT}N(d1) for calls, −e^{−qT}N(−d1) for puts, e^{−qT} = e^{−rT}F/S).
 * Ties (equal distance) go to the lower strike.
 */
function skew25(rows: readonly StatsRow[], main: StatsGroup, spot: number, rate: number): number | null {
  const { tYears, forward } = main;
  const carryDiscount = (Math.exp(-rate * tYears) * forward) / spot;
  const sqrtT = Math.sqrt(tYears);
  let call: { gap: number; iv: number } | null = null;
  let put: { gap: number; iv: number } | null = null;
  for (const { contract, settlement } of rows) {
    if (settlement !== main.settlement || !usableIv(contract.iv)) continue;
    const sigmaSqrtT = contract.iv * sqrtT;
    const d1 = (Math.log(forward / contract.strike) + 0.5 * sigmaSqrtT * sigmaSqrtT) / sigmaSqrtT;
    if (contract.right === 'C') {
      const gap = Math.abs(carryDiscount * normCdf(d1) - SKEW_DELTA);
      if (call === null || gap < call.gap) call = { gap, iv: contract.iv };
    } else {
      const gap = Math.abs(-carryDiscount * normCdf(-d1) + SKEW_DELTA);
      if (put === null || gap < put.gap) put = { gap, iv: contract.iv };
    }
  }
  if (call === null || put === null || call.gap > SKEW_DELTA_TOLERANCE || put.gap > SKEW_DELTA_TOLERANCE) return null;
  return put.iv - call.iv;
}
