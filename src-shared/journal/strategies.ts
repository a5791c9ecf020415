/**
 * A trade's structures: which strategy the first is, and what a structure can make and lose at expiration
 * (docs/journal.md §Trades and strategies; its collateral is collateral.ts's). Pure; money in integer minor units,
 * prices per share.
 */
import { MINOR_PER_UNIT } from '../money';
import { QTY_EPSILON } from './lots';
import type { OptionRight } from './model';
import type { SlotHoldings } from './trade-lots';

export const STRATEGIES = [
  'short_put',
  'short_call',
  'covered_call',
  'long_put',
  'long_call',
  'credit_spread',
  'debit_spread',
  'short_strangle',
  'short_straddle',
  'long_strangle',
  'long_straddle',
  'calendar',
  'diagonal',
  'iron_condor',
  'iron_butterfly',
  'butterfly',
  'custom',
] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** One instrument of a first structure on one side: its opening fills added up. */
export interface StructureLeg {
  symbol: string;
  isOption: boolean;
  expiration: string | null;
  strike: number | null;
  right: OptionRight | null;
  multiplier: number;
  /** +1 bought, −1 sold. */
  side: number;
  quantity: number;
  /** Entry value (unsigned, as lots.ts values a fill) and entry costs. */
  grossMinor: number;
  costsMinor: number;
}

interface OptionLeg extends StructureLeg {
  expiration: string;
  strike: number;
  right: OptionRight;
}

function isOptionLeg(leg: StructureLeg): leg is OptionLeg {
  return leg.isOption && leg.expiration !== null && leg.strike !== null && leg.right !== null;
}

const same = (a: number, b: number): boolean => Math.abs(a - b) <= QTY_EPSILON;

/** Net cash of the structure at open: + credit, − debit, costs included. */
export function structureCreditMinor(legs: readonly StructureLeg[]): number {
  let credit = 0;
  for (const leg of legs) credit += (leg.side < 0 ? leg.grossMinor : -leg.grossMinor) - leg.costsMinor;
  return credit;
}

/** Long shares of the structure itself (a buy-write) and their cost. */
function structureShares(legs: readonly StructureLeg[]): { shares: number; costMinor: number } {
  let shares = 0;
  let costMinor = 0;
  for (const leg of legs) {
    if (leg.isOption || leg.side < 0) continue;
    shares += leg.quantity;
    costMinor += leg.grossMinor + leg.costsMinor;
  }
  return { shares, costMinor };
}

/** Whether a short call of `contracts` is covered: by the structure's shares, then by shares held that no open short call promises. */
function coveredCall(call: OptionLeg, legs: readonly StructureLeg[], held: SlotHoldings): boolean {
  const free = structureShares(legs).shares + Math.max(0, held.sharesLong - held.shortCallShares);
  return free + QTY_EPSILON >= call.quantity * call.multiplier;
}

function classifyOne(leg: OptionLeg, legs: readonly StructureLeg[], held: SlotHoldings): Strategy {
  if (leg.side > 0) return leg.right === 'P' ? 'long_put' : 'long_call';
  if (leg.right === 'P') return 'short_put';
  return coveredCall(leg, legs, held) ? 'covered_call' : 'short_call';
}

function classifyTwo(a: OptionLeg, b: OptionLeg): Strategy {
  if (a.expiration === b.expiration && a.right === b.right) {
    if (a.side === b.side || a.strike === b.strike || !same(a.quantity, b.quantity)) return 'custom';
    // The option sold is the dearer one when it is nearer the money: the higher put, the lower call (so a spread
    // closed before history, whose prices are unknown, is named too).
    const sold = a.side < 0 ? a : b;
    const bought = a.side < 0 ? b : a;
    const credit = sold.right === 'P' ? sold.strike > bought.strike : sold.strike < bought.strike;
    return credit ? 'credit_spread' : 'debit_spread';
  }
  if (a.expiration === b.expiration) {
    if (a.side !== b.side) return 'custom';
    const straddle = a.strike === b.strike;
    if (a.side < 0) return straddle ? 'short_straddle' : 'short_strangle';
    return straddle ? 'long_straddle' : 'long_strangle';
  }
  if (a.right !== b.right || a.side === b.side || !same(a.quantity, b.quantity)) return 'custom';
  return a.strike === b.strike ? 'calendar' : 'diagonal';
}

/** 1-2-1 of one right and one expiration: wings on one side, twice the body on the other. */
function classifyThree(legs: OptionLeg[]): Strategy {
  const [low, body, high] = [...legs].sort((x, y) => x.strike - y.strike);
  if (!low || !body || !high) return 'custom';
  const oneSeries = legs.every((leg) => leg.right === low.right && leg.expiration === low.expiration);
  const shape = low.side === high.side && body.side === -low.side && same(low.quantity, high.quantity) && same(body.quantity, 2 * low.quantity);
  return oneSeries && shape ? 'butterfly' : 'custom';
}

/** A short put spread and a short call spread of one expiration, the shorts inside: condor, or butterfly when they share a strike. */
function classifyFour(legs: OptionLeg[]): Strategy {
  const first = legs[0];
  if (!first || !legs.every((leg) => leg.expiration === first.expiration && same(leg.quantity, first.quantity))) return 'custom';
  const pick = (right: OptionRight, side: number) => legs.find((leg) => leg.right === right && leg.side === side);
  const shortPut = pick('P', -1);
  const longPut = pick('P', 1);
  const shortCall = pick('C', -1);
  const longCall = pick('C', 1);
  if (!shortPut || !longPut || !shortCall || !longCall) return 'custom';
  if (!(longPut.strike < shortPut.strike && shortPut.strike <= shortCall.strike && shortCall.strike < longCall.strike)) return 'custom';
  return shortPut.strike === shortCall.strike ? 'iron_butterfly' : 'iron_condor';
}

/**
 * The strategy of a first structure. Options decide; shares only make a single short call `covered_call` (bought in
 * the same order, or `held` by the account and not promised to another short call).
 */
export function classify(legs: readonly StructureLeg[], held: SlotHoldings): Strategy {
  const options = legs.filter(isOptionLeg);
  const shares = legs.some((leg) => !leg.isOption);
  const [a, b] = options;
  if (options.length === 1 && a) {
    const strategy = classifyOne(a, legs, held);
    return shares && strategy !== 'covered_call' ? 'custom' : strategy;
  }
  if (shares) return 'custom';
  if (options.length === 2 && a && b) return classifyTwo(a, b);
  if (options.length === 3) return classifyThree(options);
  if (options.length === 4) return classifyFour(options);
  return 'custom';
}

/** The most a structure can make and lose (both positive amounts, minor units), null when unbounded or not knowable. */
export interface Risk {
  maxProfitMinor: number | null;
  maxLossMinor: number | null;
}

function intrinsic(leg: OptionLeg, spot: number): number {
  return leg.right === 'C' ? Math.max(spot - leg.strike, 0) : Math.max(leg.strike - spot, 0);
}

/**
 * Value at expiration of the structure at `spot`, plus its credit: options at intrinsic, shares at spot. Piecewise
 * linear in spot, so its extremes lie at 0, at a strike, or at infinity (where the slope decides).
 */
function payoffMinor(options: readonly OptionLeg[], shareLegs: readonly StructureLeg[], creditMinor: number, spot: number): number {
  let value = creditMinor;
  for (const leg of options) value += Math.round(leg.side * leg.quantity * leg.multiplier * intrinsic(leg, spot) * MINOR_PER_UNIT);
  for (const leg of shareLegs) value += Math.round(leg.side * leg.quantity * leg.multiplier * spot * MINOR_PER_UNIT);
  return value;
}

/**
 * Max profit and max loss of the first structure at its (nearest) expiration, net of the entry costs (the credit is
 * net cash). With one expiration both come from the payoff; with several, later legs are valued at intrinsic, a
 * floor of what a long option is worth, so the max loss holds when every later leg is long (a calendar, a diagonal,
 * a poor man's covered call) and the max profit, which depends on their time value, is null.
 */
export function riskOf(legs: readonly StructureLeg[], creditMinor: number): Risk {
  const options = legs.filter(isOptionLeg);
  const shareLegs = legs.filter((leg) => !leg.isOption);
  const expirations = [...new Set(options.map((leg) => leg.expiration))].sort();
  const nearest = expirations[0];
  const several = expirations.length > 1;
  if (several && options.some((leg) => leg.expiration !== nearest && leg.side < 0)) return { maxProfitMinor: null, maxLossMinor: null };
  let slopeAtInfinity = 0;
  for (const leg of options) if (leg.right === 'C') slopeAtInfinity += leg.side * leg.quantity * leg.multiplier;
  for (const leg of shareLegs) slopeAtInfinity += leg.side * leg.quantity * leg.multiplier;
  const spots = [0, ...new Set(options.map((leg) => leg.strike))];
  let max = -Infinity;
  let min = Infinity;
  for (const spot of spots) {
    const value = payoffMinor(options, shareLegs, creditMinor, spot);
    if (value > max) max = value;
    if (value < min) min = value;
  }
  return {
    maxProfitMinor: several || slopeAtInfinity > QTY_EPSILON ? null : max,
    maxLossMinor: slopeAtInfinity < -QTY_EPSILON ? null : -min,
  };
}

/**
 * The leg whose delta and strike describe the trade: the short option with the most contracts (then the nearest
 * expiration, the richer premium per share, puts first); without a short option, the long one by the same rule.
 */
export function mainLeg(legs: readonly StructureLeg[]): StructureLeg | null {
  const options = legs.filter(isOptionLeg);
  const pool = options.some((leg) => leg.side < 0) ? options.filter((leg) => leg.side < 0) : options;
  let best: OptionLeg | null = null;
  for (const leg of pool) {
    if (best === null || better(leg, best)) best = leg;
  }
  return best;
}

function better(a: OptionLeg, b: OptionLeg): boolean {
  if (!same(a.quantity, b.quantity)) return a.quantity > b.quantity;
  if (a.expiration !== b.expiration) return a.expiration < b.expiration;
  const pa = a.grossMinor / a.quantity;
  const pb = b.grossMinor / b.quantity;
  if (pa !== pb) return pa > pb;
  return a.right === 'P' && b.right === 'C';
}
