/**
 * Gamma exposure by strike, walls, zone and inflection (docs/exposure.md).
 */
import { lookupExpirations, resolveGexExpirations } from './expiration-scope';
import type { Formula } from './formulas';
import type { PreparedChain, PreparedExpiration } from './prepare';
import { flipStatusOf, nearestRoot, profileWithRoots, type FlipStatus, type SweepResult } from './sweep';
import { gammaShares, inFormula, type GammaShares, type GexInFormula } from './units';

export interface GexRow {
  strike: number;
  callGEX: number;
  putGEX: number;
  netGEX: number;
  callOI: number;
  putOI: number;
  /** Σ volume of the calls at the strike; null when no contract in scope carries a volume (the source has none). */
  callVolume: number | null;
  putVolume: number | null;
  /** Σ Δ·OI·m of the calls at the strike: shares of the open interest's own delta (the dealers' hedge is its opposite). */
  callDEX: number;
  /** Σ Δ·OI·m of the puts (≤ 0). */
  putDEX: number;
  netDEX: number;
}

export interface Wall {
  strike: number;
  gex: number;
}

export interface GexResult {
  symbol: string;
  stockPrice: number;
  totalGEX: GexInFormula;
  gammaZone: 'positive' | 'negative';
  gammaInflection: number | null;
  /** Sign changes of the gamma profile on [0.8S, 1.2S]: one (`ok`), several (`multiple`), none. */
  flipStatus: FlipStatus;
  /** Every root of the gamma profile on [0.8S, 1.2S], ascending; gammaInflection is the one nearest S. */
  flipRoots: number[];
  callWall: Wall | null;
  putWall: Wall | null;
  /** Σ netDEX: shares of delta held by the open interest in scope. */
  totalDEX: number;
  /** totalDEX × S, in $. */
  totalDEXNotional: number;
  data: GexRow[];
  meta: { availableExpirations: string[]; expirations: string[]; formula: Formula; contracts: number; excludedContracts: number };
}

/** The positive factor that turns dealer gamma in shares per $1 into the unit of `formula`, at spot S. */
export function formulaFactor(formula: Formula, spot: number): number {
  if (formula === 'per_1dollar') return spot;
  if (formula === 'per_1pct') return spot * spot * 0.01;
  return 1;
}

/** Indices of the contracts of these expirations that contribute exposure. */
export function usableContracts(chain: PreparedChain, expirations: readonly PreparedExpiration[]): Int32Array {
  let count = 0;
  for (const e of expirations) for (let i = e.start; i < e.end; i += 1) count += chain.usable[i] ?? 0;
  const out = new Int32Array(count);
  let k = 0;
  for (const e of expirations) {
    for (let i = e.start; i < e.end; i += 1) {
      if (chain.usable[i] === 1) {
        out[k] = i;
        k += 1;
      }
    }
  }
  return out;
}

/** Per-strike sums in shares per $1 (nominal), plus OI; strikes indexed like chain.strikes. */
export interface StrikeTotals {
  call: Float64Array;
  put: Float64Array;
  callOI: Float64Array;
  putOI: Float64Array;
  callVolume: Float64Array;
  putVolume: Float64Array;
  /** Some contract in scope carries a volume (else the volumes are unknown, not zero). */
  hasVolume: boolean;
  /** Σ Δ·OI·m per strike and side (shares). */
  callDelta: Float64Array;
  putDelta: Float64Array;
  /** Strike indices with some open interest in scope, ascending. */
  present: number[];
  contracts: number;
}

export function strikeTotals(chain: PreparedChain, expirations: readonly PreparedExpiration[]): StrikeTotals {
  const size = chain.strikes.length;
  const call = new Float64Array(size);
  const put = new Float64Array(size);
  const callOI = new Float64Array(size);
  const putOI = new Float64Array(size);
  const callVolume = new Float64Array(size);
  const putVolume = new Float64Array(size);
  let hasVolume = false;
  const callDelta = new Float64Array(size);
  const putDelta = new Float64Array(size);
  let contracts = 0;
  for (const e of expirations) {
    contracts += e.end - e.start;
    for (let i = e.start; i < e.end; i += 1) {
      const s = chain.strikeIndex[i] ?? 0;
      const gamma = chain.gammaShares[i] ?? 0;
      const oi = chain.openInterest[i] ?? 0;
      const delta = chain.deltaShares[i] ?? 0;
      const rawVolume = chain.volume[i] ?? Number.NaN;
      const volume = Number.isNaN(rawVolume) ? 0 : rawVolume;
      if (!Number.isNaN(rawVolume)) hasVolume = true;
      if (chain.isCall[i] === 1) {
        call[s] = (call[s] ?? 0) + gamma;
        callOI[s] = (callOI[s] ?? 0) + oi;
        callVolume[s] = (callVolume[s] ?? 0) + volume;
        callDelta[s] = (callDelta[s] ?? 0) + delta;
      } else {
        put[s] = (put[s] ?? 0) + gamma;
        putOI[s] = (putOI[s] ?? 0) + oi;
        putVolume[s] = (putVolume[s] ?? 0) + volume;
        putDelta[s] = (putDelta[s] ?? 0) + delta;
      }
    }
  }
  const present: number[] = [];
  for (let s = 0; s < size; s += 1) if ((callOI[s] ?? 0) + (putOI[s] ?? 0) > 0) present.push(s);
  return { call, put, callOI, putOI, callVolume, putVolume, hasVolume, callDelta, putDelta, present, contracts };
}

/**
 * The strike with the extreme value on one side: `better(a, b)` says a beats b. Ties (equal values) go to
 * the strike nearest spot, then the lower strike. Only strikes with a value that passes `eligible`.
 */
export function pickLevel(
  strikes: ArrayLike<number>,
  values: ArrayLike<number>,
  candidates: Iterable<number>,
  spot: number,
  eligible: (value: number) => boolean,
  better: (a: number, b: number) => boolean,
): number | null {
  let best: number | null = null;
  for (const index of candidates) {
    const value = values[index] ?? 0;
    if (!eligible(value)) continue;
    if (best === null) {
      best = index;
      continue;
    }
    const bestValue = values[best] ?? 0;
    if (better(value, bestValue)) {
      best = index;
    } else if (value === bestValue) {
      const strike = strikes[index] ?? 0;
      const bestStrike = strikes[best] ?? 0;
      const distance = Math.abs(strike - spot);
      const bestDistance = Math.abs(bestStrike - spot);
      if (distance < bestDistance || (distance === bestDistance && strike < bestStrike)) best = index;
    }
  }
  return best;
}

export interface GexLevels {
  /** Σ netGEX in shares per $1. */
  totalShares: GammaShares;
  /** Σ |netGEX| in shares per $1 (the dead band's reference). */
  absoluteShares: GammaShares;
  callWallIndex: number | null;
  putWallIndex: number | null;
}

export function gexLevels(chain: PreparedChain, totals: StrikeTotals): GexLevels {
  let totalShares = 0;
  let absoluteShares = 0;
  for (const s of totals.present) {
    const net = (totals.call[s] ?? 0) + (totals.put[s] ?? 0);
    totalShares += net;
    absoluteShares += Math.abs(net);
  }
  // A side is empty when no strike has a non-zero value on it (e.g. every call has OI = 0 or no usable IV).
  const callWallIndex = pickLevel(chain.strikes, totals.call, totals.present, chain.spot, (v) => v > 0, (a, b) => a > b);
  const putWallIndex = pickLevel(chain.strikes, totals.put, totals.present, chain.spot, (v) => v < 0, (a, b) => a < b);
  return { totalShares: gammaShares(totalShares), absoluteShares: gammaShares(absoluteShares), callWallIndex, putWallIndex };
}

export interface GexScope {
  /** Explicit expirations; empty = the nearest three, unless `exact`. */
  expirations: string[];
  formula: Formula;
  /** The list is already resolved (resolveGexExpirations, expirationsInDteRange): exactly these, possibly none. */
  exact?: boolean;
}

function scopeExpirations(chain: PreparedChain, scope: GexScope): PreparedExpiration[] {
  return scope.exact === true ? lookupExpirations(chain, scope.expirations) : resolveGexExpirations(chain, scope.expirations);
}

/** The gamma profile of a scope: the 201-point sweep in shares per $1, every root and the one nearest spot, from one sweep. */
export interface GammaProfile {
  sweep: SweepResult;
  gammaInflection: number | null;
  flipStatus: FlipStatus;
  flipRoots: number[];
}

export function gammaProfile(chain: PreparedChain, contracts: Int32Array): GammaProfile {
  const { sweep, roots } = profileWithRoots(chain, contracts, 'gamma');
  return { sweep, gammaInflection: nearestRoot(roots, chain.spot), flipStatus: flipStatusOf(roots), flipRoots: roots };
}

/** /gex/profile: the sweep points in the formula's unit, each taken at its own hypothetical spot x. */
export interface GexProfileResult {
  symbol: string;
  stockPrice: number;
  formula: Formula;
  gammaInflection: number | null;
  flipStatus: FlipStatus;
  flipRoots: number[];
  points: Array<{ spot: number; netGEX: number }>;
  expirations: string[];
}

export function computeGexProfile(chain: PreparedChain, scope: GexScope): GexProfileResult {
  const expirations = scopeExpirations(chain, scope);
  const { sweep, gammaInflection, flipStatus, flipRoots } = gammaProfile(chain, usableContracts(chain, expirations));
  const points = Array.from(sweep.levels, (x, p) => ({ spot: x, netGEX: (sweep.values[p] ?? 0) * formulaFactor(scope.formula, x) }));
  return { symbol: chain.symbol, stockPrice: chain.spot, formula: scope.formula, gammaInflection, flipStatus, flipRoots, points, expirations: expirations.map((e) => e.expiration) };
}

export function computeGex(chain: PreparedChain, scope: GexScope): GexResult {
  const expirations = scopeExpirations(chain, scope);
  const factor = formulaFactor(scope.formula, chain.spot);
  const totals = strikeTotals(chain, expirations);
  const levels = gexLevels(chain, totals);
  let totalDEX = 0;
  const data: GexRow[] = totals.present.map((s) => {
    const callGEX = (totals.call[s] ?? 0) * factor;
    const putGEX = (totals.put[s] ?? 0) * factor;
    const callDEX = totals.callDelta[s] ?? 0;
    const putDEX = totals.putDelta[s] ?? 0;
    totalDEX += callDEX + putDEX;
    return {
      strike: chain.strikes[s] ?? 0,
      callGEX,
      putGEX,
      netGEX: callGEX + putGEX,
      callOI: totals.callOI[s] ?? 0,
      putOI: totals.putOI[s] ?? 0,
      callVolume: totals.hasVolume ? (totals.callVolume[s] ?? 0) : null,
      putVolume: totals.hasVolume ? (totals.putVolume[s] ?? 0) : null,
      callDEX,
      putDEX,
      netDEX: callDEX + putDEX,
    };
  });
  const wall = (index: number | null, values: Float64Array): Wall | null =>
    index === null ? null : { strike: chain.strikes[index] ?? 0, gex: (values[index] ?? 0) * factor };
  const { gammaInflection, flipStatus, flipRoots } = gammaProfile(chain, usableContracts(chain, expirations));
  return {
    symbol: chain.symbol,
    stockPrice: chain.spot,
    totalGEX: inFormula(levels.totalShares, factor),
    gammaZone: levels.totalShares >= 0 ? 'positive' : 'negative',
    gammaInflection,
    flipStatus,
    flipRoots,
    callWall: wall(levels.callWallIndex, totals.call),
    putWall: wall(levels.putWallIndex, totals.put),
    totalDEX,
    totalDEXNotional: totalDEX * chain.spot,
    data,
    meta: {
      availableExpirations: chain.expirations.map((e) => e.expiration),
      expirations: expirations.map((e) => e.expiration),
      formula: scope.formula,
      contracts: totals.contracts,
      excludedContracts: chain.excluded.adjusted,
    },
  };
}

/** One point of /gex/history: a snapshot's levels in one scope. */
export interface GexHistoryPoint {
  quoteTime: string;
  spot: number;
  totalGEX: number;
  gammaZone: 'positive' | 'negative';
  gammaInflection: number | null;
  callWall: Wall | null;
  putWall: Wall | null;
}

export function gexHistoryPoint(result: GexResult, quoteTime: string): GexHistoryPoint {
  const { stockPrice, totalGEX, gammaZone, gammaInflection, callWall, putWall } = result;
  return { quoteTime, spot: stockPrice, totalGEX, gammaZone, gammaInflection, callWall, putWall };
}

/** A strike of /gex/diff: the `to` snapshot's figures minus the `from` snapshot's (0 where a side has no row). */
export interface GexDiffRow {
  strike: number;
  fromNetGEX: number;
  toNetGEX: number;
  netGEX: number;
  callGEX: number;
  putGEX: number;
  callOI: number;
  putOI: number;
}

/** The change per strike between two /gex results of the same scope rules, over the union of their strikes. */
export function diffGex(from: GexResult, to: GexResult): GexDiffRow[] {
  const zero: GexRow = { strike: 0, callGEX: 0, putGEX: 0, netGEX: 0, callOI: 0, putOI: 0, callVolume: null, putVolume: null, callDEX: 0, putDEX: 0, netDEX: 0 };
  const before = new Map(from.data.map((row) => [row.strike, row]));
  const after = new Map(to.data.map((row) => [row.strike, row]));
  const strikes = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b);
  return strikes.map((strike) => {
    const a = before.get(strike) ?? zero;
    const b = after.get(strike) ?? zero;
    return {
      strike,
      fromNetGEX: a.netGEX,
      toNetGEX: b.netGEX,
      netGEX: b.netGEX - a.netGEX,
      callGEX: b.callGEX - a.callGEX,
      putGEX: b.putGEX - a.putGEX,
      callOI: b.callOI - a.callOI,
      putOI: b.putOI - a.putOI,
    };
  });
}
