/**
 * Turns a snapshot into flat per-contract arrays that every computation reuses (docs/exposure.md): expired
 * contracts dropped, T / dte / settlement / forward per expiration, greeks at spot, and the constants of the
 * profile sweep (d1 at spot and 1/(σ√T)), so that a sweep point costs one exp per contract.
 */
import type { ChainSnapshot, OptionContract } from './model';
import { INV_SQRT_2PI, normCdf } from './greeks';
import { daysBetween, parseInstantMs } from '../calendar';
import { dateInZone, NEW_YORK } from '../zone';
import { expiryInstantMs, settlementOf, yearsToExpiry, type Settlement } from './time';
import { expirationStats, type ExpirationStats } from './expiration-stats';
import { forwardFromParity } from './forward';

export interface EngineSettings {
  /** Continuously compounded risk-free rate r (default 0.04). */
  rate: number;
}

export const DEFAULT_ENGINE_SETTINGS: EngineSettings = { rate: 0.04 };

/** IV outside (0, 5] is treated as unusable: such contracts count in OI but contribute no exposure. */
export const MAX_USABLE_IV = 5;

/**
 * An adjusted contract: its OCC root ends in a digit (`AMD1` after a corporate action), so it delivers something
 * other than 100 shares of the underlying while sharing its strikes. The snapshot's own symbol is never adjusted
 * (a generic file whose ticker ends in a digit uses it as the root of every contract).
 */
export function isAdjustedRoot(root: string, symbol: string): boolean {
  const last = root.charCodeAt(root.length - 1);
  return last >= 48 && last <= 57 && root.toUpperCase() !== symbol.toUpperCase();
}

/** Contracts of the snapshot that no exposure figure uses, by reason (each contract counted once, in this order). */
export interface ExcludedContracts {
  /** Expired at the quote time. */
  expired: number;
  /** Unexpired, with an adjusted root (also left out of open interest, expirations and the forward). */
  adjusted: number;
  /** Unexpired, standard root, with open interest but IV ≤ 0 or > 5: they count in OI, contribute no exposure. */
  unusableIv: number;
}

/** One (expiration, settlement) group: the unit that shares T and the forward. */
export interface SettlementGroup {
  expiration: string;
  settlement: Settlement;
  tYears: number;
  forward: number;
  /** How the forward was obtained: put–call parity at strike K*, or S·e^{rT}. */
  forwardSource: 'parity' | 'carry';
  parityStrike: number | null;
}

export interface PreparedExpiration {
  expiration: string;
  dte: number;
  /** Settlement of the contracts holding most of the open interest (AM and PM roots share third Fridays). */
  settlement: Settlement;
  /** Contracts (rows of the snapshot) of this expiration with a standard root, also those with OI = 0 or unusable IV. */
  contracts: number;
  openInterest: number;
  /** Index range [start, end) in the contract arrays. */
  start: number;
  end: number;
  groups: SettlementGroup[];
  /** ATM strike and IV, straddle, max pain, OI and volume by side, 25-delta skew (expiration-stats.ts). */
  stats: ExpirationStats;
}

export interface PreparedChain {
  symbol: string;
  spot: number;
  quoteTime: string;
  quoteMs: number;
  source: ChainSnapshot['source'];
  rate: number;
  /** Unexpired expirations of standard (not adjusted) contracts, ascending. */
  expirations: PreparedExpiration[];
  excluded: ExcludedContracts;
  /** Adjusted roots met among the unexpired contracts, sorted (`AMD1`). */
  adjustedRoots: string[];
  /** The latest expiration of any contract in the snapshot (expired or adjusted ones included); null without contracts. */
  latestExpiration: string | null;
  byExpiration: ReadonlyMap<string, PreparedExpiration>;
  /** Unique strikes of the unexpired contracts, ascending. */
  strikes: Float64Array;
  // Per-contract arrays, sorted by expiration then strike (index i = one unexpired contract):
  strikeIndex: Int32Array;
  isCall: Uint8Array;
  openInterest: Float64Array;
  /** The session's volume in contracts; NaN where the source gave none (quotedata and CBOE JSON have it, some files not). */
  volume: Float64Array;
  /** 1 when the contract contributes exposure (OI > 0, 0 < IV ≤ 5). */
  usable: Uint8Array;
  /** s·Γ(S)·OI·m: dealer gamma in shares per $1 move (the `nominal` unit). */
  gammaShares: Float64Array;
  /** Δ·OI·m: the open interest's own delta in shares (calls ≥ 0, puts ≤ 0; the dealers' hedge is its opposite). */
  deltaShares: Float64Array;
  /** s·vanna·OI·m·S·0.01: $ of dealer delta per +1 vol point. */
  vex: Float64Array;
  /** s·charm·OI·m·S/365: $ of dealer delta per calendar day. */
  cex: Float64Array;
  /** d1 at spot; d1(x) = d1 + ln(x/S)/(σ√T) when the forward moves with x. */
  d1: Float64Array;
  sigmaSqrtT: Float64Array;
  invSigmaSqrtT: Float64Array;
  /** s·OI·m·e^{−qT}/(σ√T·√(2π)): Γ(x)·weight = gammaCoef·exp(−d1(x)²/2)/x. */
  gammaCoef: Float64Array;
  /** −s·OI·m·e^{−qT}/(σ√(2π)): vanna(x)·weight = vannaCoef·exp(−d1(x)²/2)·(d1(x) − σ√T). */
  vannaCoef: Float64Array;
}

interface Row {
  contract: OptionContract;
  expiryMs: number;
  settlement: Settlement;
}

const preparedCache = new WeakMap<ChainSnapshot, Map<number, PreparedChain>>();

/** Prepares (and caches per snapshot object and rate) the chain. The snapshot must not be mutated afterwards. */
export function prepareChain(snapshot: ChainSnapshot, settings: EngineSettings = DEFAULT_ENGINE_SETTINGS): PreparedChain {
  let byRate = preparedCache.get(snapshot);
  if (byRate === undefined) {
    byRate = new Map();
    preparedCache.set(snapshot, byRate);
  }
  const cached = byRate.get(settings.rate);
  if (cached !== undefined) return cached;
  const prepared = buildPreparedChain(snapshot, settings.rate);
  byRate.set(settings.rate, prepared);
  return prepared;
}

function buildPreparedChain(snapshot: ChainSnapshot, rate: number): PreparedChain {
  const spot = snapshot.spot;
  const quoteMs = parseInstantMs(snapshot.quoteTime);
  if (!(spot > 0) || !Number.isFinite(quoteMs)) {
    throw new RangeError(`snapshot ${snapshot.symbol}: spot must be > 0 and quoteTime an ISO instant`);
  }
  const buckets = new Map<string, Row[]>();
  const rootInfo = new Map<string, { settlement: Settlement; adjusted: boolean; unexpired: boolean }>();
  const expiryByExpiration = new Map<string, { AM: number; PM: number }>();
  const excluded: ExcludedContracts = { expired: 0, adjusted: 0, unusableIv: 0 };
  let latestExpiration: string | null = null;
  for (const contract of snapshot.contracts) {
    let root = rootInfo.get(contract.root);
    if (root === undefined) {
      root = { settlement: settlementOf(contract.root), adjusted: isAdjustedRoot(contract.root, snapshot.symbol), unexpired: false };
      rootInfo.set(contract.root, root);
    }
    let expiry = expiryByExpiration.get(contract.expiration);
    if (expiry === undefined) {
      expiry = { AM: expiryInstantMs(contract.expiration, 'AM'), PM: expiryInstantMs(contract.expiration, 'PM') };
      expiryByExpiration.set(contract.expiration, expiry);
      if (latestExpiration === null || contract.expiration > latestExpiration) latestExpiration = contract.expiration;
    }
    const settlement = root.settlement;
    const expiryMs = expiry[settlement];
    // Expired at quote time (or an unreadable date): not part of any exposure.
    if (!(expiryMs > quoteMs)) {
      excluded.expired += 1;
      continue;
    }
    // A non-standard deliverable priced at standard strikes: its greeks and its parity pair mean something else.
    if (root.adjusted) {
      excluded.adjusted += 1;
      root.unexpired = true;
      continue;
    }
    if (!(contract.strike > 0)) continue;
    let bucket = buckets.get(contract.expiration);
    if (bucket === undefined) {
      bucket = [];
      buckets.set(contract.expiration, bucket);
    }
    bucket.push({ contract, expiryMs, settlement });
  }
  const rows: Row[] = [];
  for (const expiration of [...buckets.keys()].sort()) {
    const bucket = buckets.get(expiration) ?? [];
    bucket.sort((a, b) => a.contract.strike - b.contract.strike || (a.contract.right === b.contract.right ? 0 : a.contract.right === 'C' ? -1 : 1));
    for (const row of bucket) rows.push(row);
  }

  const strikeSet = new Set<number>();
  for (const row of rows) strikeSet.add(row.contract.strike);
  const strikes = Float64Array.from([...strikeSet].sort((a, b) => a - b));
  const strikeToIndex = new Map<number, number>();
  strikes.forEach((strike, index) => strikeToIndex.set(strike, index));

  const n = rows.length;
  const strikeIndex = new Int32Array(n);
  const isCall = new Uint8Array(n);
  const openInterest = new Float64Array(n);
  const volume = new Float64Array(n);
  const usable = new Uint8Array(n);
  const gammaShares = new Float64Array(n);
  const deltaShares = new Float64Array(n);
  const vex = new Float64Array(n);
  const cex = new Float64Array(n);
  const d1Array = new Float64Array(n);
  const sigmaSqrtTArray = new Float64Array(n);
  const invSigmaSqrtT = new Float64Array(n);
  const gammaCoef = new Float64Array(n);
  const vannaCoef = new Float64Array(n);

  const quoteDay = dateInZone(quoteMs, NEW_YORK);
  const expirations: PreparedExpiration[] = [];
  let start = 0;
  while (start < n) {
    const first = rows[start];
    if (first === undefined) break;
    const expiration = first.contract.expiration;
    let end = start;
    while (end < n && rows[end]?.contract.expiration === expiration) end += 1;
    const slice = rows.slice(start, end);
    const groups: SettlementGroup[] = [];
    const oiBySettlement = { AM: 0, PM: 0 };
    let oiTotal = 0;
    for (const settlement of ['AM', 'PM'] as const) {
      const members = slice.filter((row) => row.settlement === settlement);
      if (members.length === 0) continue;
      const firstMember = members[0];
      if (firstMember === undefined) continue;
      const tYears = yearsToExpiry(firstMember.expiryMs, quoteMs);
      const { forward, parityStrike } = forwardFromParity(members, spot, rate, tYears);
      groups.push({ expiration, settlement, tYears, forward, forwardSource: parityStrike === null ? 'carry' : 'parity', parityStrike });
    }
    for (let i = start; i < end; i += 1) {
      const row = rows[i];
      if (row === undefined) continue;
      const group = groups.find((g) => g.settlement === row.settlement);
      if (group === undefined) continue;
      const c = row.contract;
      const oi = c.openInterest > 0 ? c.openInterest : 0;
      oiBySettlement[row.settlement] += oi;
      oiTotal += oi;
      strikeIndex[i] = strikeToIndex.get(c.strike) ?? 0;
      isCall[i] = c.right === 'C' ? 1 : 0;
      openInterest[i] = oi;
      volume[i] = c.volume !== undefined && c.volume >= 0 ? c.volume : Number.NaN;
      const sigma = c.iv;
      const multiplier = c.multiplier > 0 ? c.multiplier : 100;
      if (!(oi > 0)) continue;
      if (!(sigma > 0) || !(sigma <= MAX_USABLE_IV)) {
        excluded.unusableIv += 1;
        continue;
      }
      usable[i] = 1;
      const { tYears, forward } = group;
      const sign = c.right === 'C' ? 1 : -1;
      const weight = sign * oi * multiplier;
      const sigmaSqrtT = sigma * Math.sqrt(tYears);
      const d1 = (Math.log(forward / c.strike) + 0.5 * sigma * sigma * tYears) / sigmaSqrtT;
      const d2 = d1 - sigmaSqrtT;
      const carryDiscount = (Math.exp(-rate * tYears) * forward) / spot;
      const carry = Math.log(forward / spot) / tYears;
      const pdf = INV_SQRT_2PI * Math.exp(-0.5 * d1 * d1);
      const gamma = (carryDiscount * pdf) / (spot * sigmaSqrtT);
      const vanna = (-carryDiscount * pdf * d2) / sigma;
      const timeTerm = pdf * (carry / sigmaSqrtT - d2 / (2 * tYears));
      const charm =
        sign > 0
          ? -carryDiscount * (timeTerm + (carry - rate) * normCdf(d1))
          : -carryDiscount * (timeTerm - (carry - rate) * normCdf(-d1));
      gammaShares[i] = weight * gamma;
      // Δ·OI·m = s·OI·m·e^{−qT}·N(s·d1): e^{−qT}N(d1) for a call, −e^{−qT}N(−d1) for a put.
      deltaShares[i] = weight * carryDiscount * normCdf(sign * d1);
      vex[i] = weight * vanna * spot * 0.01;
      cex[i] = (weight * charm * spot) / 365;
      d1Array[i] = d1;
      sigmaSqrtTArray[i] = sigmaSqrtT;
      invSigmaSqrtT[i] = 1 / sigmaSqrtT;
      gammaCoef[i] = (weight * carryDiscount * INV_SQRT_2PI) / sigmaSqrtT;
      vannaCoef[i] = (-weight * carryDiscount * INV_SQRT_2PI) / sigma;
    }
    const settlement: Settlement = oiBySettlement.AM > oiBySettlement.PM ? 'AM' : groups.some((g) => g.settlement === 'PM') ? 'PM' : 'AM';
    const main = groups.find((g) => g.settlement === settlement) ?? groups[0];
    if (main === undefined) throw new Error(`prepare: expiration ${expiration} has no settlement group`);
    expirations.push({
      expiration,
      dte: daysBetween(quoteDay, expiration),
      settlement,
      contracts: end - start,
      openInterest: oiTotal,
      start,
      end,
      groups,
      stats: expirationStats(slice, main, spot, rate),
    });
    start = end;
  }

  return {
    symbol: snapshot.symbol,
    spot,
    quoteTime: snapshot.quoteTime,
    quoteMs,
    source: snapshot.source,
    rate,
    expirations,
    excluded,
    adjustedRoots: [...rootInfo.entries()].filter(([, info]) => info.adjusted && info.unexpired).map(([name]) => name).sort(),
    latestExpiration,
    byExpiration: new Map(expirations.map((e) => [e.expiration, e])),
    strikes,
    strikeIndex,
    isCall,
    openInterest,
    volume,
    usable,
    gammaShares,
    deltaShares,
    vex,
    cex,
    d1: d1Array,
    sigmaSqrtT: sigmaSqrtTArray,
    invSigmaSqrtT,
    gammaCoef,
    vannaCoef,
  };
}
