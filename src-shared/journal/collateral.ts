/**
 * A campaign's collateral at the close of a trading day (docs/journal.md §Campaigns, "Collateral"): the cost of the
 * shares held, plus the strike notional of its short puts (cash-secured); when it is short calls beyond the shares it
 * holds (naked calls), its uncovered short options are margined by Reg T instead (strategies.ts `regTMinorBy`, the
 * rule trades use), each at the spot of the snapshot at its entry, or at its strike when no snapshot describes the
 * entry. One figure per close: the timeline, the card and the peak all read it.
 */
import { parseInstantMs } from '../calendar';
import { MINOR_PER_UNIT } from '../money';
import { dateInZone, NEW_YORK } from '../zone';
import type { CampaignSlot } from './campaigns';
import type { Position } from './lots';
import { regTMinorBy, type StructureLeg } from './strategies';
import { isUsableEntry } from './trade-metrics';

/** The spot of the newest snapshot at or before an instant, with its quote time. */
export interface SpotFact {
  spot: number;
  quoteTime: string;
}

/** The snapshots' spot of an underlying at an instant (injected: src-shared stays pure). */
export type SpotLookup = (underlying: string, atMs: number) => SpotFact | null;

/** What a collateral figure rests on: cash-secured (shares at cost, put strikes), or Reg T at a snapshot's spot or, without one, the strike. */
export type CollateralBasis = { rule: 'cash_secured' } | { rule: 'reg_t'; spot: number | null; quoteTime: string | null };

export const CASH_SECURED: CollateralBasis = { rule: 'cash_secured' };

export interface SlotCollateral {
  collateralMinor: number;
  basis: CollateralBasis;
}

/** The spot at a short option's entry, when a snapshot within a trading day before it has one (trade-metrics' rule); else null. */
export function spotAtEntry(lookup: SpotLookup | undefined, underlying: string, openMs: number): SpotFact | null {
  if (lookup === undefined) return null;
  const fact = lookup(underlying, openMs);
  return fact !== null && fact.spot > 0 && isUsableEntry(fact.quoteTime, openMs) ? fact : null;
}

function openGrossMinor(pos: Position): number {
  let gross = 0;
  for (let i = pos.head; i < pos.lots.length; i += 1) gross += pos.lots[i]?.grossMinor ?? 0;
  return gross;
}

function optionLeg(pos: Position, contracts: number): StructureLeg {
  const grossMinor = pos.qty > 0 ? Math.round((openGrossMinor(pos) * contracts) / pos.qty) : 0;
  return { symbol: pos.symbol, isOption: true, expiration: pos.expiration, strike: pos.strike, right: pos.right, multiplier: pos.multiplier, side: -1, quantity: contracts, grossMinor, costsMinor: 0 };
}

/**
 * The slot's collateral now. Shares cover short calls first come, first covered (in the order the positions opened);
 * `entries` holds the spot at each short option's entry (null: no snapshot, the strike stands in).
 */
export function slotCollateral(slot: CampaignSlot, entries: ReadonlyMap<Position, SpotFact | null>): SlotCollateral {
  let sharesHeld = 0;
  let shareCostMinor = 0;
  const puts: Position[] = [];
  const calls: Position[] = [];
  for (const pos of slot.members) {
    if (pos.qty <= 0) continue;
    if (!pos.isOption) {
      if (pos.side > 0) {
        sharesHeld += pos.qty;
        shareCostMinor += pos.openCostMinor;
      }
    } else if (pos.side < 0 && pos.strike !== null) {
      if (pos.right === 'P') puts.push(pos);
      else if (pos.right === 'C') calls.push(pos);
    }
  }
  let cover = sharesHeld;
  const legs: StructureLeg[] = [];
  const legOwners = new Map<StructureLeg, Position>();
  for (const call of calls) {
    const covered = Math.min(call.qty, Math.floor(cover / call.multiplier));
    cover -= covered * call.multiplier;
    if (call.qty - covered <= 0) continue;
    const leg = optionLeg(call, call.qty - covered);
    legs.push(leg);
    legOwners.set(leg, call);
  }
  if (legs.length === 0) {
    let putsMinor = 0;
    for (const put of puts) putsMinor += Math.round((put.strike ?? 0) * MINOR_PER_UNIT * put.multiplier * put.qty);
    return { collateralMinor: shareCostMinor + putsMinor, basis: CASH_SECURED };
  }
  for (const put of puts) {
    const leg = optionLeg(put, put.qty);
    legs.push(leg);
    legOwners.set(leg, put);
  }
  const spotOf = (leg: StructureLeg): number => {
    const owner = legOwners.get(leg);
    const entry = owner === undefined ? null : (entries.get(owner) ?? null);
    return entry?.spot ?? leg.strike ?? 0;
  };
  // The basis named is the first naked call's: the figure's largest part, and the one users asked about (issue 18).
  const [firstLeg] = legs;
  const first = firstLeg === undefined ? undefined : legOwners.get(firstLeg);
  const entry = first === undefined ? null : (entries.get(first) ?? null);
  return { collateralMinor: shareCostMinor + regTMinorBy(legs, spotOf), basis: { rule: 'reg_t', spot: entry?.spot ?? null, quoteTime: entry?.quoteTime ?? null } };
}

/** The rule in words, beside the figure (the campaign's `collateralRule`). */
export function describeCollateral(basis: CollateralBasis): string {
  if (basis.rule === 'cash_secured') return 'Cash-secured: shares at cost + short put strikes × multiplier × contracts';
  if (basis.spot === null || basis.quoteTime === null) return 'Reg T needs the spot at entry: no snapshot, strike used';
  return `Reg T, spot ${basis.spot.toFixed(2)} from the ${dateInZone(parseInstantMs(basis.quoteTime), NEW_YORK)} snapshot`;
}
