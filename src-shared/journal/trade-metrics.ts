/**
 * What a trade's entry looked like and how it did (docs/journal.md §Trades and strategies): the snapshot facts at the
 * open (spot, the main leg's delta, the dealer levels and where the strike stood against them), taken through an
 * injected lookup so this stays pure, and the ratios (return on collateral, % of max profit, days held, dte).
 */
import { addDays, daysBetween, dayOfWeek, parseInstantMs } from '../calendar';
import { bsmGreeks } from '../exposure/greeks';
import { MAX_USABLE_IV } from '../exposure/prepare';
import { dateInZone, NEW_YORK } from '../zone';
import type { DealerLevels, UnderlyingMarks } from './book';
import type { OptionRight } from './model';

export const STRIKE_VS_LEVELS = ['below_put_wall', 'put_wall_to_flip', 'flip_to_call_wall', 'above_call_wall'] as const;
export type StrikeVsLevels = (typeof STRIKE_VS_LEVELS)[number];

/** What the service is asked at a trade's open: the newest snapshot of the underlying at or before `atMs`. */
export interface EntryQuery {
  underlying: string;
  atMs: number;
  /** The trade's main leg, whose delta is wanted (null for a structure without options). */
  leg: { expiration: string; strike: number; right: OptionRight } | null;
}

/** The snapshot facts of an entry: spot, quote time, the leg's own delta per share (a put's is negative), `/gex` default-scope levels. */
export interface EntryFacts {
  quoteTime: string;
  spot: number;
  delta: number | null;
  levels: DealerLevels | null;
}

export type EntryLookup = (query: EntryQuery) => EntryFacts | null;

export interface LevelsAtEntry extends DealerLevels {
  /** Where the main strike stood: below the put wall, between it and the flip, between the flip and the call wall, above the call wall. */
  shortStrikeVs: StrikeVsLevels | null;
}

/** The weekday before `day` (holidays are not known here: a Monday's is the Friday). */
export function previousTradingDay(day: string): string {
  const weekday = dayOfWeek(day);
  return addDays(day, weekday === 1 ? -3 : weekday === 0 ? -2 : -1);
}

/** A snapshot describes an entry when it was quoted at or before the open, on the open's New York day or the trading day before. */
export function isUsableEntry(quoteTime: string, openMs: number): boolean {
  const quoteMs = parseInstantMs(quoteTime);
  if (!(quoteMs <= openMs)) return false;
  return dateInZone(quoteMs, NEW_YORK) >= previousTradingDay(dateInZone(openMs, NEW_YORK));
}

/**
 * The strike against the levels, in order: under the put wall; over the call wall; else on the flip's side (at a
 * level counts as inside the band above it). Null when the level that decides is missing.
 */
export function placeStrike(strike: number, levels: DealerLevels): StrikeVsLevels | null {
  if (levels.putWall !== null && strike < levels.putWall) return 'below_put_wall';
  if (levels.callWall !== null && strike > levels.callWall) return 'above_call_wall';
  if (levels.gammaFlip === null) return null;
  return strike < levels.gammaFlip ? 'put_wall_to_flip' : 'flip_to_call_wall';
}

/**
 * The lookup a service builds from its marks (book.ts `UnderlyingMarks`, the newest snapshot at or before an instant):
 * the leg's delta from the snapshot's IV on the exposure engine's convention (forward, T in minutes of a 365-day year).
 */
export function entryLookupFromMarks(marksAt: (underlying: string, atMs: number) => UnderlyingMarks | null): EntryLookup {
  return ({ underlying, atMs, leg }) => {
    const marks = marksAt(underlying, atMs);
    if (marks === null) return null;
    let delta: number | null = null;
    const quote = leg === null ? null : marks.contract(leg.expiration, leg.strike, leg.right);
    if (leg !== null && quote !== null && quote.tYears !== null && quote.forward !== null && quote.iv > 0 && quote.iv <= MAX_USABLE_IV) {
      delta = bsmGreeks({ spot: marks.spot, forward: quote.forward, strike: leg.strike, tYears: quote.tYears, sigma: quote.iv, rate: marks.rate, right: leg.right }).delta;
    }
    return { quoteTime: marks.quoteTime, spot: marks.spot, delta, levels: marks.levels };
  };
}

export interface EntryFigures {
  snapshot: { quoteTime: string; spot: number } | null;
  deltaAtEntry: number | null;
  levelsAtEntry: LevelsAtEntry | null;
}

const NO_ENTRY: EntryFigures = { snapshot: null, deltaAtEntry: null, levelsAtEntry: null };

/** The entry facts of a trade opened at `openMs` whose main leg is `leg`, from the lookup when its snapshot is recent enough. */
export function entryFigures(lookup: EntryLookup | undefined, underlying: string, openMs: number, leg: EntryQuery['leg']): EntryFigures {
  if (!lookup) return NO_ENTRY;
  const facts = lookup({ underlying, atMs: openMs, leg });
  if (facts === null || !isUsableEntry(facts.quoteTime, openMs)) return NO_ENTRY;
  return {
    snapshot: { quoteTime: facts.quoteTime, spot: facts.spot },
    deltaAtEntry: facts.delta,
    levelsAtEntry: facts.levels === null ? null : { ...facts.levels, shortStrikeVs: leg === null ? null : placeStrike(leg.strike, facts.levels) },
  };
}

/** pnl / collateral and pnl / max profit, for a closed trade whose figures are known; calendar days from open to close. */
export function outcomeRatios(
  pnlMinor: number | null,
  collateralMinor: number | null,
  maxProfitMinor: number | null,
): { returnOnCollateral: number | null; pctOfMaxProfit: number | null } {
  if (pnlMinor === null) return { returnOnCollateral: null, pctOfMaxProfit: null };
  return {
    returnOnCollateral: collateralMinor !== null && collateralMinor > 0 ? pnlMinor / collateralMinor : null,
    pctOfMaxProfit: maxProfitMinor !== null && maxProfitMinor > 0 ? pnlMinor / maxProfitMinor : null,
  };
}

/** New York days from the open to the nearest expiration of the structure. */
export function dteAtEntry(openDay: string, expirations: readonly string[]): number | null {
  let nearest: string | null = null;
  for (const expiration of expirations) if (nearest === null || expiration < nearest) nearest = expiration;
  return nearest === null ? null : daysBetween(openDay, nearest);
}
