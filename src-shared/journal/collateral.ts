/**
 * Collateral (DESIGN §5 "Assignment, collateral and levels in trades"; docs/journal.md §Collateral): one function,
 * `collateralOf`, measures what a set of open legs of one account and underlying ties up, and every page reads it: a
 * trade's structures (trades.ts), a campaign at each close and each open position (the ledger, through `slotCollateral`),
 * the stats and the research export (which read the trades'). The rule, per leg pieces:
 * - long shares at their cost (entry value + entry costs); short calls they cover (100 shares a contract, calls in the
 *   order given) add nothing;
 * - a short option paired with a long one of the same right (a spread; the long of the same expiration first, else of a
 *   later one): per expiration, the most its paired legs can lose at expiration (their width: the largest loss of their
 *   intrinsic values, so an iron condor is its wider side), plus the net debit when they were bought for one;
 * - long options left over: their cost;
 * - short puts left over: strike × multiplier × contracts (cash-secured);
 * - short calls left over (naked): Reg T, with the short puts left over beside them: per leg max(20 % of spot − the
 *   out-of-the-money amount, 10 % of spot) × multiplier × contracts + its premium, the larger side plus the other
 *   side's premium. The spot is the leg's at entry (a snapshot quoted within a New York trading day before it); without
 *   one the strike stands in (the option at the money), the same fallback on every page.
 * Short shares tie up nothing here (their risk is unbounded: max loss says so).
 */
import { parseInstantMs } from '../calendar';
import { MINOR_PER_UNIT } from '../money';
import { dateInZone, NEW_YORK } from '../zone';
import { QTY_EPSILON, type CampaignSlot, type CollateralBasis, type Position, type SlotCollateral } from './records';
import type { OptionRight } from './model';
import type { StructureLeg } from './strategies';
import { isUsableEntry } from './trade-metrics';

export type { CollateralBasis, SlotCollateral };

/** The spot of the newest snapshot at or before an instant, with its quote time. */
export interface SpotFact {
  spot: number;
  quoteTime: string;
}

/** The snapshots' spot of an underlying at an instant (injected: src-shared stays pure). */
export type SpotLookup = (underlying: string, atMs: number) => SpotFact | null;

export const CASH_SECURED: CollateralBasis = { rule: 'cash_secured' };

/** One open leg: an option of either side, or shares. */
export interface CollateralLeg extends Omit<StructureLeg, 'symbol'> {
  /** A short option's spot at entry (spotAtEntry), null when no snapshot describes it. */
  entrySpot: SpotFact | null;
}

export interface Collateral {
  collateralMinor: number;
  /** Each leg's part, in the order of the legs; they add up to collateralMinor. */
  byLegMinor: number[];
  basis: CollateralBasis;
}

/** The spot at a short option's entry, when a snapshot within a trading day before it has one (trade-metrics' rule); else null. */
export function spotAtEntry(lookup: SpotLookup | undefined, underlying: string, openMs: number): SpotFact | null {
  if (lookup === undefined) return null;
  const fact = lookup(underlying, openMs);
  return fact !== null && fact.spot > 0 && isUsableEntry(fact.quoteTime, openMs) ? fact : null;
}

interface Piece {
  leg: number;
  expiration: string;
  strike: number;
  right: OptionRight;
  multiplier: number;
  /** Units not yet paired, covered or margined. */
  rest: number;
}

interface Pair {
  short: Piece;
  long: Piece;
  qty: number;
}

/** A leg's value (gross, or costs) for `qty` of its units. */
const share = (legs: readonly CollateralLeg[], piece: Piece, qty: number, field: 'grossMinor' | 'costsMinor'): number => {
  const leg = legs[piece.leg];
  return leg === undefined || leg.quantity <= 0 ? 0 : (leg[field] * qty) / leg.quantity;
};

/** How far the short of a pair is nearer the money than the long (a put's strike above, a call's below): what the pair can lose a share. */
function adverseWidth(pair: Pair): number {
  return pair.short.right === 'P' ? Math.max(0, pair.short.strike - pair.long.strike) : Math.max(0, pair.long.strike - pair.short.strike);
}

function intrinsic(right: OptionRight, strike: number, spot: number): number {
  return right === 'C' ? Math.max(spot - strike, 0) : Math.max(strike - spot, 0);
}

/**
 * Pairs longs with shorts of one right: each long, from the one farthest out of the money (puts from the highest strike
 * down, calls from the lowest up), takes the nearest short it protects (a put's at or above it, a call's at or below),
 * else the nearest it does not (a debit spread). Credit spreads of one expiration add up to Σ short strikes − Σ long
 * strikes whichever way they pair, so the trades' own widths add up to the campaign's.
 */
function pairUp(shorts: Piece[], longs: Piece[], pairs: Pair[], allowed: (short: Piece, long: Piece) => boolean): void {
  const orderedLongs = [...longs].sort((a, b) => (a.right === 'P' ? b.strike - a.strike : a.strike - b.strike));
  for (const long of orderedLongs) {
    while (long.rest > QTY_EPSILON) {
      let best: Piece | null = null;
      let bestScore = Infinity;
      for (const short of shorts) {
        if (short.rest <= QTY_EPSILON || !allowed(short, long)) continue;
        const protects = long.right === 'P' ? short.strike >= long.strike : short.strike <= long.strike;
        // Protected shorts first, each group nearest first; then the latest expiration (a diagonal's own short).
        const score = (protects ? 0 : 1e12) + Math.abs(short.strike - long.strike);
        if (score < bestScore || (score === bestScore && best !== null && short.expiration > best.expiration)) {
          best = short;
          bestScore = score;
        }
      }
      if (best === null) break;
      const qty = Math.min(best.rest, long.rest);
      best.rest -= qty;
      long.rest -= qty;
      pairs.push({ short: best, long, qty });
    }
  }
}

/** Splits `total` over `weights` in whole minor units that add up to it (the remainder method, as lots.ts prorates). */
function spread(total: number, weights: ReadonlyArray<{ leg: number; weight: number }>, parts: number[]): void {
  const whole = weights.reduce((sum, w) => sum + w.weight, 0);
  if (whole <= 0 || total === 0) return;
  let left = total;
  let weightLeft = whole;
  for (const { leg, weight } of weights) {
    const part = weightLeft - weight <= 0 ? left : Math.round((left * weight) / weightLeft);
    parts[leg] = (parts[leg] ?? 0) + part;
    left -= part;
    weightLeft -= weight;
  }
}

/** Reg T of one naked short option piece: max(20 % of spot − out-of-the-money amount, 10 % of spot) × shares, and its premium. */
function regT(legs: readonly CollateralLeg[], piece: Piece): { requirementMinor: number; premiumMinor: number } {
  const spot = legs[piece.leg]?.entrySpot?.spot ?? piece.strike;
  const outOfTheMoney = piece.right === 'C' ? Math.max(piece.strike - spot, 0) : Math.max(spot - piece.strike, 0);
  const perShare = Math.max(0.2 * spot - outOfTheMoney, 0.1 * spot);
  const premiumMinor = Math.round(share(legs, piece, piece.rest, 'grossMinor'));
  return { requirementMinor: Math.round(perShare * piece.multiplier * piece.rest * MINOR_PER_UNIT) + premiumMinor, premiumMinor };
}

/**
 * Legs with no long option and short calls within the long shares (most structures and campaigns): no pairing and no
 * Reg T, so each leg's part is read off directly. Null when the full rule is needed.
 */
function plainCollateral(legs: readonly CollateralLeg[]): Collateral | null {
  let shares = 0;
  let callShares = 0;
  for (const leg of legs) {
    if (!(leg.quantity > QTY_EPSILON)) continue;
    if (!leg.isOption) {
      if (leg.side > 0) shares += leg.quantity;
    } else if (leg.side > 0 || leg.strike === null || leg.expiration === null || leg.right === null || !(leg.multiplier > 0)) {
      return null;
    } else if (leg.right === 'C') {
      if (leg.multiplier !== 100 || !Number.isInteger(leg.quantity)) return null;
      callShares += leg.quantity * 100;
    }
  }
  if (callShares > shares + QTY_EPSILON) return null;
  let total = 0;
  const parts = legs.map((leg) => {
    if (!(leg.quantity > QTY_EPSILON)) return 0;
    const part = !leg.isOption ? (leg.side > 0 ? leg.grossMinor + leg.costsMinor : 0) : leg.right === 'P' ? Math.round((leg.strike ?? 0) * MINOR_PER_UNIT * leg.multiplier * leg.quantity) : 0;
    total += part;
    return part;
  });
  return { collateralMinor: total, byLegMinor: parts, basis: CASH_SECURED };
}

/** The collateral of open legs of one account and underlying (the rule above), with each leg's part. */
export function collateralOf(legs: readonly CollateralLeg[]): Collateral {
  const plain = plainCollateral(legs);
  if (plain !== null) return plain;
  const parts = legs.map(() => 0);
  let shareUnits = 0;
  const shorts: Piece[] = [];
  const longs: Piece[] = [];
  legs.forEach((leg, index) => {
    if (!(leg.quantity > QTY_EPSILON)) return;
    if (!leg.isOption) {
      if (leg.side > 0) {
        parts[index] = leg.grossMinor + leg.costsMinor;
        shareUnits += leg.quantity;
      }
      return;
    }
    if (leg.expiration === null || leg.strike === null || leg.right === null) return;
    const piece: Piece = { leg: index, expiration: leg.expiration, strike: leg.strike, right: leg.right, multiplier: leg.multiplier > 0 ? leg.multiplier : 1, rest: leg.quantity };
    (leg.side < 0 ? shorts : longs).push(piece);
  });

  // Spreads of one expiration, then longs of a later expiration under the shorts left (calendars, diagonals).
  const sameExpiration: Pair[] = [];
  const later: Pair[] = [];
  for (const right of longs.length > 0 && shorts.length > 0 ? (['P', 'C'] as const) : []) {
    const s = shorts.filter((p) => p.right === right);
    const l = longs.filter((p) => p.right === right);
    if (s.length === 0 || l.length === 0) continue;
    pairUp(s, l, sameExpiration, (short, long) => short.expiration === long.expiration && short.multiplier === long.multiplier);
    pairUp(s, l, later, (short, long) => short.expiration < long.expiration && short.multiplier === long.multiplier);
  }
  const byExpiration = new Map<string, Pair[]>();
  for (const pair of sameExpiration) {
    const group = byExpiration.get(pair.short.expiration);
    if (group) group.push(pair);
    else byExpiration.set(pair.short.expiration, [pair]);
  }
  for (const group of byExpiration.values()) {
    // The most the paired legs can lose at expiration: their intrinsic values at 0 or at a strike (piecewise linear;
    // paired calls cancel above the highest strike).
    const spots = [0, ...new Set(group.flatMap((pair) => [pair.short.strike, pair.long.strike]))];
    let worst = 0;
    for (const spot of spots) {
      let value = 0;
      for (const pair of group) value += pair.qty * pair.short.multiplier * (intrinsic(pair.long.right, pair.long.strike, spot) - intrinsic(pair.short.right, pair.short.strike, spot));
      if (value < worst) worst = value;
    }
    const widths = group.map((pair) => ({ leg: pair.short.leg, weight: adverseWidth(pair) * pair.qty * pair.short.multiplier }));
    spread(Math.round(-worst * MINOR_PER_UNIT), widths, parts);
    addDebit(legs, group, parts);
  }
  for (const pair of later) {
    parts[pair.short.leg] = (parts[pair.short.leg] ?? 0) + Math.round(adverseWidth(pair) * pair.qty * pair.short.multiplier * MINOR_PER_UNIT);
    addDebit(legs, [pair], parts);
  }
  for (const long of longs) {
    if (long.rest > QTY_EPSILON) parts[long.leg] = (parts[long.leg] ?? 0) + Math.round(share(legs, long, long.rest, 'grossMinor') + share(legs, long, long.rest, 'costsMinor'));
  }

  // Short calls left: covered by the shares (in the order given), else naked.
  let cover = shareUnits;
  const naked: Piece[] = [];
  for (const call of shorts) {
    if (call.right !== 'C' || call.rest <= QTY_EPSILON) continue;
    const covered = Math.min(call.rest, Math.floor((cover + QTY_EPSILON) / call.multiplier));
    cover -= covered * call.multiplier;
    call.rest -= covered;
    if (call.rest > QTY_EPSILON) naked.push(call);
  }
  const puts = shorts.filter((p) => p.right === 'P' && p.rest > QTY_EPSILON);
  if (naked.length === 0) {
    for (const put of puts) parts[put.leg] = (parts[put.leg] ?? 0) + Math.round(put.strike * MINOR_PER_UNIT * put.multiplier * put.rest);
    return { collateralMinor: parts.reduce((sum, part) => sum + part, 0), byLegMinor: parts, basis: CASH_SECURED };
  }
  const side = (pieces: readonly Piece[]) => pieces.map((piece) => ({ piece, ...regT(legs, piece) }));
  const callSide = side(naked);
  const putSide = side(puts);
  const total = (xs: ReadonlyArray<{ requirementMinor: number }>) => xs.reduce((sum, x) => sum + x.requirementMinor, 0);
  const callsLarger = total(callSide) > total(putSide);
  for (const x of callSide) parts[x.piece.leg] = (parts[x.piece.leg] ?? 0) + (callsLarger ? x.requirementMinor : x.premiumMinor);
  for (const x of putSide) parts[x.piece.leg] = (parts[x.piece.leg] ?? 0) + (callsLarger ? x.premiumMinor : x.requirementMinor);
  // The basis named is the first naked call's: the figure's largest part, and the one users asked about (issue 18).
  const first = naked[0] === undefined ? null : (legs[naked[0].leg]?.entrySpot ?? null);
  return { collateralMinor: parts.reduce((sum, part) => sum + part, 0), byLegMinor: parts, basis: { rule: 'reg_t', spot: first?.spot ?? null, quoteTime: first?.quoteTime ?? null } };
}

/** A paired group bought for a net debit (a debit spread, a long butterfly, a calendar) ties up that debit too, on its longs. */
function addDebit(legs: readonly CollateralLeg[], pairs: readonly Pair[], parts: number[]): void {
  let debit = 0;
  const paid: Array<{ leg: number; weight: number }> = [];
  for (const pair of pairs) {
    const longCost = share(legs, pair.long, pair.qty, 'grossMinor') + share(legs, pair.long, pair.qty, 'costsMinor');
    debit += longCost - (share(legs, pair.short, pair.qty, 'grossMinor') - share(legs, pair.short, pair.qty, 'costsMinor'));
    paid.push({ leg: pair.long.leg, weight: longCost });
  }
  if (debit > 0) spread(Math.round(debit), paid, parts);
}

/**
 * A campaign slot's collateral now: `collateralOf` over its open positions (in the order they opened, so shares cover
 * the calls first come, first covered); `entries` holds the spot at each short option's entry (null: no snapshot).
 * Measured at every close of every campaign: a long position's cost is its kept `openCostMinor`, and only a short
 * option's lots are read (its premium).
 */
export function slotCollateral(slot: CampaignSlot, entries: ReadonlyMap<Position, SpotFact | null>, withParts = false): SlotCollateral {
  if (!withParts) {
    const simple = simpleSlotCollateral(slot);
    if (simple !== null) return { collateralMinor: simple, basis: CASH_SECURED, byPosition: null };
  }
  const positions: Position[] = [];
  const legs: CollateralLeg[] = [];
  for (const pos of slot.members) {
    if (pos.qty <= QTY_EPSILON || pos.side === 0) continue;
    let grossMinor = pos.openCostMinor;
    let costsMinor = 0;
    if (pos.side < 0) {
      grossMinor = 0;
      for (let i = pos.head; i < pos.lots.length; i += 1) {
        grossMinor += pos.lots[i]?.grossMinor ?? 0;
        costsMinor += pos.lots[i]?.costsMinor ?? 0;
      }
    }
    positions.push(pos);
    legs.push({
      isOption: pos.isOption,
      expiration: pos.expiration,
      strike: pos.strike,
      right: pos.right,
      multiplier: pos.multiplier,
      side: pos.side,
      quantity: pos.qty,
      grossMinor,
      costsMinor,
      entrySpot: pos.isOption && pos.side < 0 ? (entries.get(pos) ?? null) : null,
    });
  }
  const measured = collateralOf(legs);
  let byPosition: Map<Position, number> | null = null;
  if (withParts) {
    byPosition = new Map();
    for (let i = 0; i < positions.length; i += 1) {
      const pos = positions[i];
      if (pos) byPosition.set(pos, measured.byLegMinor[i] ?? 0);
    }
  }
  return { collateralMinor: measured.collateralMinor, basis: measured.basis, byPosition };
}

/**
 * The slot's figure without building legs, when the rule needs no pairing (no long option) and no Reg T (the short calls
 * within the shares): the shares' cost plus the short puts' strikes. The ledger measures every campaign at every close,
 * and this is most of them; null otherwise.
 */
function simpleSlotCollateral(slot: CampaignSlot): number | null {
  let shares = 0;
  let sharesMinor = 0;
  let callShares = 0;
  let putsMinor = 0;
  for (const pos of slot.members) {
    if (pos.qty <= QTY_EPSILON || pos.side === 0) continue;
    if (!pos.isOption) {
      if (pos.side > 0) {
        shares += pos.qty;
        sharesMinor += pos.openCostMinor;
      }
      continue;
    }
    if (pos.side > 0 || pos.strike === null) return null;
    if (pos.right === 'C') {
      // Shares cover whole contracts (collateralOf): anything but 100-share contracts of whole units takes the long way.
      if (pos.multiplier !== 100 || !Number.isInteger(pos.qty)) return null;
      callShares += pos.qty * pos.multiplier;
    } else putsMinor += Math.round(pos.strike * MINOR_PER_UNIT * pos.multiplier * pos.qty);
  }
  return callShares > shares + QTY_EPSILON ? null : sharesMinor + putsMinor;
}

/** The rule in words, beside the figure (the campaign's `collateralRule`). */
export function describeCollateral(basis: CollateralBasis): string {
  if (basis.rule === 'cash_secured') return 'Shares at cost, spreads at their width, short puts at strike × multiplier × contracts, long options at their cost';
  if (basis.spot === null || basis.quoteTime === null) return 'Reg T needs the spot at entry: no snapshot, strike used';
  return `Reg T, spot ${basis.spot.toFixed(2)} from the ${dateInZone(parseInstantMs(basis.quoteTime), NEW_YORK)} snapshot`;
}
