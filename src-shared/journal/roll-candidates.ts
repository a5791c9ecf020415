/**
 * The roll assistant (DESIGN §5 "Management rules and rolls", docs/journal.md §Rolls): the contracts a short option
 * leg could be rolled to in one chain snapshot, each priced at mid and at the natural price, with its delta, its
 * collateral and return, and its strike placed against the dealers' levels of its own expiration.
 *
 * - The product stays: the candidates are of the root the snapshot marks the leg from (SPXW rolls to SPXW, an AM SPX
 *   monthly to the next SPX monthlies), at the next expirations after the leg's (up to `expirations`, within `maxDte`
 *   days of the quote) that list that root.
 * - At each, the same strike (or, when it is not listed, the nearest listed one further out of the money) and up to
 *   `strikes` listed strikes further out of the money: lower for a put, higher for a call. Only two-sided quotes
 *   (ask > 0, bid ≥ 0, ask ≥ bid) are priced.
 * - Buying the leg back costs its mid, or at the natural price its ask; selling the new one brings its mid, or its
 *   bid. Net = open − close, per share: + a credit. Money is integer minor units, per share.
 * - Delta is the new contract's own (a put's is negative) on the exposure engine's convention (greeks.ts, the forward
 *   and T of its settlement group); probOTM = 1 − |delta|.
 * - returnOnCollateral = the net credit at mid (× multiplier × contracts) / the collateral of the trade after the
 *   roll; annualized × 365 / the new days to expiry.
 * - place: the new strike against that expiration's put wall, flip and call wall (levels.ts, as
 *   `/gex?expirations=<date>` computes them; trade-metrics.ts `placeStrike`).
 */
import { bsmGreeks } from '../exposure/greeks';
import type { OptionContract } from '../exposure/model';
import { isAdjustedRoot, MAX_USABLE_IV, type PreparedChain } from '../exposure/prepare';
import { settlementOf } from '../exposure/time';
import { asMinor, MINOR_PER_UNIT, toMinor, type Minor } from '../money';
import type { DealerLevels } from './levels';
import { occSymbol, type OptionRight } from './model';
import { placeStrike, type StrikeVsLevels } from './trade-metrics';

/** The bounds of a request (the route's schema holds them too): what one leg can cost. */
export const ROLL_LIMITS = { maxDte: 730, expirations: 20, strikes: 20 } as const;
export const ROLL_DEFAULTS = { maxDte: 60, expirations: 8, strikes: 5 } as const;

/** A short option leg as it is rolled. */
export interface RollLeg {
  /** The OCC symbol the journal holds. */
  symbol: string;
  /** Its OCC root (SPXW), null when the symbol is not an OCC one. */
  root: string | null;
  expiration: string;
  strike: number;
  right: OptionRight;
  /** Contracts short (unsigned). */
  contracts: number;
  multiplier: number;
}

export interface RollOptions {
  maxDte: number;
  expirations: number;
  strikes: number;
  /** Keep candidates whose net (at `net`) is at least this, per share (0: a net credit or even). */
  minNet?: number;
  /** Which net `minNet` reads: mid (default) or natural. */
  net?: 'mid' | 'natural';
  /** Keep candidates whose |delta| is at most this (a candidate without a delta is left out). */
  maxDelta?: number;
  /** Keep candidates beyond the wall of their own expiration: a put below the put wall, a call above the call wall. */
  beyondWall?: boolean;
}

/** What a candidate asks of the collateral rule: the trade with the leg replaced by this contract, sold at `openMidMinor`. */
export interface CandidateContract {
  root: string;
  expiration: string;
  strike: number;
  right: OptionRight;
  openMidMinor: number;
}

export interface RollCandidate {
  expiration: string;
  root: string;
  /** The OCC symbol of the new contract. */
  symbol: string;
  strike: number;
  dte: number;
  bidMinor: Minor;
  askMinor: Minor;
  openMidMinor: Minor;
  openNaturalMinor: Minor;
  /** open − close per share (+ credit); null when the leg has no two-sided quote to buy it back. */
  netMidMinor: Minor | null;
  netNaturalMinor: Minor | null;
  delta: number | null;
  probOTM: number | null;
  iv: number;
  openInterest: number;
  collateralMinor: Minor | null;
  returnOnCollateral: number | null;
  annualized: number | null;
  place: StrikeVsLevels | null;
}

/** The levels of one candidate expiration (walls as strikes), null when it has none (no usable open interest). */
export interface RollExpiration {
  expiration: string;
  dte: number;
  root: string;
  levels: DealerLevels | null;
}

export interface RollLegResult {
  leg: RollLeg;
  /** The root the candidates are of. */
  root: string | null;
  /** The leg's own quote (buying it back), null when the snapshot has no two-sided quote of it. */
  closeBidMinor: Minor | null;
  closeAskMinor: Minor | null;
  closeMidMinor: Minor | null;
  closeNaturalMinor: Minor | null;
  /** Every candidate expiration looked at, in order (the filters do not remove them). */
  expirations: RollExpiration[];
  /** By expiration, then from the leg's strike outward. */
  candidates: RollCandidate[];
  /** Candidates priced before the filters. */
  considered: number;
}

/**
 * What one pass over a snapshot's contracts finds for a leg: the standard (not adjusted) roots listed at all and at
 * the leg's expiration, and the contracts of the leg's right at the later expirations within reach, by expiration.
 */
interface LegSeries {
  roots: Set<string>;
  rootsAtLeg: Set<string> | null;
  byExpiration: Map<string, OptionContract[]>;
}

function legSeries(contracts: readonly OptionContract[], symbol: string, leg: RollLeg, within: ReadonlySet<string>): LegSeries {
  const roots = new Set<string>();
  let rootsAtLeg: Set<string> | null = null;
  const byExpiration = new Map<string, OptionContract[]>();
  for (const contract of contracts) {
    if (isAdjustedRoot(contract.root, symbol)) continue;
    const root = contract.root.toUpperCase();
    roots.add(root);
    if (contract.expiration === leg.expiration) (rootsAtLeg ??= new Set()).add(root);
    if (contract.right !== leg.right || !within.has(contract.expiration)) continue;
    const list = byExpiration.get(contract.expiration);
    if (list === undefined) byExpiration.set(contract.expiration, [contract]);
    else list.push(contract);
  }
  return { roots, rootsAtLeg, byExpiration };
}

/** One root's contracts of a list, by strike (a strike listed twice keeps its first contract, as the marks do). */
function seriesOf(list: readonly OptionContract[], root: string): OptionContract[] {
  const series = list.filter((c) => c.root.toUpperCase() === root).sort((a, b) => a.strike - b.strike);
  return series.filter((c, i) => i === 0 || series[i - 1]?.strike !== c.strike);
}

/** A quote that can be traded both ways. */
const twoSided = (c: { bid: number; ask: number }) => c.ask > 0 && c.bid >= 0 && c.ask >= c.bid && Number.isFinite(c.bid) && Number.isFinite(c.ask);

/** Mid in minor units: bid and ask are cents (at most 4 decimals), so the half is exact. */
const midMinor = (bid: number, ask: number): Minor => asMinor(Math.round((toMinor(bid) + toMinor(ask)) / 2));

/**
 * The root the candidates are of: the leg's own when the snapshot lists it at the leg's expiration (or does not
 * list that expiration at all, but lists the root elsewhere); else the root the marks would take there (a broker that
 * writes SPX for an SPXW weekly): the standard root of the leg root's settlement, else the chain's first.
 */
function productRoot(index: LegSeries, leg: RollLeg, symbol: string): string | null {
  const wanted = (leg.root ?? symbol).toUpperCase();
  const atLeg = index.rootsAtLeg;
  if (atLeg === null) return index.roots.has(wanted) ? wanted : index.roots.has(symbol.toUpperCase()) ? symbol.toUpperCase() : null;
  if (atLeg.has(wanted)) return wanted;
  const settlement = settlementOf(wanted);
  const listed = [...atLeg].sort();
  return listed.find((root) => settlementOf(root) === settlement) ?? listed[0] ?? null;
}

/** The candidates of one leg on a prepared chain and its contracts (the rules above). */
export function rollCandidates(
  chain: PreparedChain,
  contracts: readonly OptionContract[],
  leg: RollLeg,
  options: RollOptions,
  levelsOf: (expiration: string) => DealerLevels | null,
  collateralOf: (candidate: CandidateContract) => number | null,
): RollLegResult {
  const within = new Set(chain.expirations.filter((e) => e.expiration > leg.expiration && e.dte <= options.maxDte).map((e) => e.expiration));
  within.add(leg.expiration);
  const index = legSeries(contracts, chain.symbol, leg, within);
  const root = productRoot(index, leg, chain.symbol);
  const own = root === null ? undefined : seriesOf(index.byExpiration.get(leg.expiration) ?? [], root).find((c) => c.strike === leg.strike);
  const close = own !== undefined && twoSided(own) ? own : null;
  const closeMid = close === null ? null : midMinor(close.bid, close.ask);
  const closeNatural = close === null ? null : toMinor(close.ask);
  const size = leg.contracts * leg.multiplier;
  const expirations: RollExpiration[] = [];
  const priced: RollCandidate[] = [];
  for (const prepared of chain.expirations) {
    if (root === null || expirations.length >= options.expirations) break;
    if (prepared.expiration <= leg.expiration) continue;
    if (prepared.dte > options.maxDte) break;
    const series = seriesOf(index.byExpiration.get(prepared.expiration) ?? [], root);
    if (series.length === 0) continue;
    const levels = levelsOf(prepared.expiration);
    expirations.push({ expiration: prepared.expiration, dte: prepared.dte, root, levels });
    const group = prepared.groups.find((g) => g.settlement === settlementOf(root)) ?? prepared.groups[0];
    const quoted = series.filter(twoSided);
    // From the leg's strike (or the first listed beyond it) outward: down for a put, up for a call.
    const outward = leg.right === 'P' ? quoted.filter((c) => c.strike <= leg.strike).reverse() : quoted.filter((c) => c.strike >= leg.strike);
    for (const contract of outward.slice(0, options.strikes + 1)) {
      const openMid = midMinor(contract.bid, contract.ask);
      const openNatural = toMinor(contract.bid);
      const usable = group !== undefined && contract.iv > 0 && contract.iv <= MAX_USABLE_IV;
      const delta = usable
        ? bsmGreeks({ spot: chain.spot, forward: group.forward, strike: contract.strike, tYears: group.tYears, sigma: contract.iv, rate: chain.rate, right: leg.right }).delta
        : null;
      const netMid = closeMid === null ? null : asMinor(openMid - closeMid);
      const collateral = collateralOf({ root, expiration: prepared.expiration, strike: contract.strike, right: leg.right, openMidMinor: openMid });
      const returnOnCollateral = netMid !== null && collateral !== null && collateral > 0 ? (netMid * size) / collateral : null;
      priced.push({
        expiration: prepared.expiration,
        root,
        symbol: occSymbol(root, prepared.expiration, leg.right, contract.strike),
        strike: contract.strike,
        dte: prepared.dte,
        bidMinor: toMinor(contract.bid),
        askMinor: toMinor(contract.ask),
        openMidMinor: openMid,
        openNaturalMinor: openNatural,
        netMidMinor: netMid,
        netNaturalMinor: closeNatural === null ? null : asMinor(openNatural - closeNatural),
        delta,
        probOTM: delta === null ? null : 1 - Math.abs(delta),
        iv: contract.iv,
        openInterest: contract.openInterest,
        collateralMinor: collateral === null ? null : asMinor(collateral),
        returnOnCollateral,
        annualized: returnOnCollateral === null ? null : (returnOnCollateral * 365) / Math.max(1, prepared.dte),
        place: levels === null ? null : placeStrike(contract.strike, levels),
      });
    }
  }
  return {
    leg,
    root,
    closeBidMinor: close === null ? null : toMinor(close.bid),
    closeAskMinor: close === null ? null : toMinor(close.ask),
    closeMidMinor: closeMid,
    closeNaturalMinor: closeNatural,
    expirations,
    candidates: priced.filter((candidate) => passes(candidate, leg.right, options)),
    considered: priced.length,
  };
}

/** The filters of a request. */
function passes(candidate: RollCandidate, right: OptionRight, options: RollOptions): boolean {
  if (options.minNet !== undefined) {
    const net = options.net === 'natural' ? candidate.netNaturalMinor : candidate.netMidMinor;
    if (net === null || net < Math.round(options.minNet * MINOR_PER_UNIT)) return false;
  }
  if (options.maxDelta !== undefined && (candidate.delta === null || Math.abs(candidate.delta) > options.maxDelta)) return false;
  if (options.beyondWall === true && candidate.place !== (right === 'P' ? 'below_put_wall' : 'above_call_wall')) return false;
  return true;
}
