/**
 * What a trade's entry looked like and how it did (docs/journal.md §Trades and strategies): the snapshot facts at the
 * open (spot, the main leg's delta, the dealer levels and where the strike stood against them), taken through an
 * injected lookup so this stays pure, and the ratios (return on collateral, % of max profit, days held, dte).
 */
import { DEFAULT_LEVELS_SCOPE, type LevelsScope } from './constants';
import { addDays, daysBetween, dayOfWeek, parseInstantMs } from '../calendar';
import { bsmGreeks } from '../exposure/greeks';
import { MAX_USABLE_IV } from '../exposure/prepare';
import { dateInZone, NEW_YORK } from '../zone';
import type { UnderlyingMarks } from './book';
import type { DealerLevels, ScopedLevels } from './levels';
import { parseOccSymbol, type OptionRight } from './model';
import { mainLeg, type StructureLeg } from './strategies';

export const STRIKE_VS_LEVELS = ['below_put_wall', 'put_wall_to_flip', 'flip_to_call_wall', 'above_call_wall'] as const;
export type StrikeVsLevels = (typeof STRIKE_VS_LEVELS)[number];

/** An option leg as the entry lookup needs it; `root` picks the contract where a chain lists two roots (SPX, SPXW). */
export interface EntryLeg {
  expiration: string;
  strike: number;
  right: OptionRight;
  root?: string | null;
}

/** What the service is asked at a trade's open: the newest snapshot of the underlying at or before `atMs`. */
export interface EntryQuery {
  underlying: string;
  atMs: number;
  /** The trade's main leg, whose delta is wanted and whose expiration is the `own` scope (null for a structure without options). */
  leg: EntryLeg | null;
  /** The levels wanted (docs/journal.md §Levels scope); own when not said. */
  scope?: LevelsScope;
}

/**
 * The snapshot facts of an entry: spot, quote time, the leg's own delta per share (a put's is negative), the scope's
 * levels (a lookup that does not say their scope and expirations answers the scope asked, of the leg's expiration).
 */
export interface EntryFacts {
  quoteTime: string;
  spot: number;
  delta: number | null;
  levels: (DealerLevels & Partial<Pick<ScopedLevels, 'scope' | 'expirations'>>) | null;
}

export type EntryLookup = (query: EntryQuery) => EntryFacts | null;

/** A short leg of the first structure and where its strike stood against the levels at entry. */
export interface PlacedStrike {
  expiration: string;
  strike: number;
  right: OptionRight;
  place: StrikeVsLevels | null;
}

export interface LevelsAtEntry extends ScopedLevels {
  /** Where the main strike stood: below the put wall, between it and the flip, between the flip and the call wall, above the call wall. */
  shortStrikeVs: StrikeVsLevels | null;
  /** Every short option leg of the first structure (a strangle's put and call), placed against the same levels; by strike. */
  shortStrikes: PlacedStrike[];
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
  // Stryker disable next-line ConditionalExpression: without the null check `strike < null` reads `strike < 0`, false for every strike
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
  return ({ underlying, atMs, leg, scope }) => {
    const marks = marksAt(underlying, atMs);
    if (marks === null) return null;
    let delta: number | null = null;
    const quote = leg === null ? null : marks.contract(leg.expiration, leg.strike, leg.right, leg.root ?? null);
    if (leg !== null && quote !== null && quote.tYears !== null && quote.forward !== null && quote.iv > 0 && quote.iv <= MAX_USABLE_IV) {
      delta = bsmGreeks({ spot: marks.spot, forward: quote.forward, strike: leg.strike, tYears: quote.tYears, sigma: quote.iv, rate: marks.rate, right: leg.right }).delta;
    }
    return { quoteTime: marks.quoteTime, spot: marks.spot, delta, levels: marks.levelsIn(scope ?? DEFAULT_LEVELS_SCOPE, leg?.expiration ?? null) };
  };
}

export interface EntryFigures {
  snapshot: { quoteTime: string; spot: number } | null;
  deltaAtEntry: number | null;
  levelsAtEntry: LevelsAtEntry | null;
}

const NO_ENTRY: EntryFigures = { snapshot: null, deltaAtEntry: null, levelsAtEntry: null };

/** The option legs of a structure sold to open, by strike (then puts first). */
function shortOptionLegs(structure: readonly StructureLeg[]): EntryLeg[] {
  const legs: EntryLeg[] = [];
  for (const leg of structure) {
    // Stryker disable next-line EqualityOperator: a leg's side is +1 or −1, never 0
    if (leg.side >= 0) continue;
    // Stryker disable next-line ConditionalExpression: a leg is an option exactly when its expiration, strike and right are set (each check alone decides)
    if (!leg.isOption || leg.expiration === null || leg.strike === null || leg.right === null) continue;
    legs.push({ expiration: leg.expiration, strike: leg.strike, right: leg.right });
  }
  return legs.sort((a, b) => a.strike - b.strike || (a.right === b.right ? 0 : a.right === 'P' ? -1 : 1));
}

/** The leg the entry figures describe (strategies.ts mainLeg) as the lookup takes it. */
export function entryLegOf(structure: readonly StructureLeg[]): EntryLeg | null {
  const main = mainLeg(structure);
  if (main === null) return null;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: mainLeg picks option legs only (strategies.ts isOptionLeg: all three set); the check narrows the type
  if (main.expiration === null || main.strike === null || main.right === null) return null;
  return { expiration: main.expiration, strike: main.strike, right: main.right, root: parseOccSymbol(main.symbol)?.root ?? null };
}

/** The levels of an entry with the main leg's place and every short leg's. */
function levelsAtEntryOf(levels: EntryFacts['levels'], leg: EntryLeg | null, structure: readonly StructureLeg[], scope: LevelsScope): LevelsAtEntry | null {
  if (levels === null) return null;
  return {
    ...levels,
    scope: levels.scope ?? scope,
    expirations: levels.expirations ?? (scope === 'own' && leg !== null ? [leg.expiration] : []),
    shortStrikeVs: leg === null ? null : placeStrike(leg.strike, levels),
    shortStrikes: shortOptionLegs(structure).map((short) => ({ expiration: short.expiration, strike: short.strike, right: short.right, place: placeStrike(short.strike, levels) })),
  };
}

/**
 * The entry facts of a trade opened at `openMs` whose main leg is `leg`, from the lookup when its snapshot is recent
 * enough; its short legs (`structure`'s) each placed against the levels of `scope` (own: the main leg's expiration).
 * Given the structure, the main leg is taken from it with its root (the leg the caller passes is the same one).
 */
export function entryFigures(
  lookup: EntryLookup | undefined,
  underlying: string,
  openMs: number,
  leg: EntryQuery['leg'],
  structure: readonly StructureLeg[] = [],
  scope: LevelsScope = DEFAULT_LEVELS_SCOPE,
): EntryFigures {
  if (!lookup) return NO_ENTRY;
  const main = structure.length > 0 ? entryLegOf(structure) : leg;
  const facts = lookup({ underlying, atMs: openMs, leg: main, scope });
  if (facts === null || !isUsableEntry(facts.quoteTime, openMs)) return NO_ENTRY;
  return { snapshot: { quoteTime: facts.quoteTime, spot: facts.spot }, deltaAtEntry: facts.delta, levelsAtEntry: levelsAtEntryOf(facts.levels, main, structure, scope) };
}

/**
 * A built trade's levels at entry in another scope (the list's and the detail's `levelsScope`): from the very snapshot
 * its entry figures came from (the newest at or before that snapshot's own quote time is itself), its main leg's.
 */
export function levelsAtEntryIn(
  lookup: EntryLookup,
  trade: { underlying: string; entrySnapshot: { quoteTime: string } | null; structure: readonly StructureLeg[] },
  scope: LevelsScope,
): LevelsAtEntry | null {
  if (trade.entrySnapshot === null) return null;
  const quoteMs = parseInstantMs(trade.entrySnapshot.quoteTime);
  const leg = entryLegOf(trade.structure);
  const facts = Number.isFinite(quoteMs) ? lookup({ underlying: trade.underlying, atMs: quoteMs, leg, scope }) : null;
  return facts === null ? null : levelsAtEntryOf(facts.levels, leg, trade.structure, scope);
}

/** pnl / collateral and pnl / max profit, for a closed trade whose figures are known; calendar days from open to close. */
export function outcomeRatios(
  pnlMinor: number | null,
  collateralMinor: number | null,
  maxProfitMinor: number | null,
): { returnOnCollateral: number | null; pctOfMaxProfit: number | null } {
  if (pnlMinor === null) return { returnOnCollateral: null, pctOfMaxProfit: null };
  return {
    // Stryker disable next-line ConditionalExpression: without the null check `null > 0` is false all the same
    returnOnCollateral: collateralMinor !== null && collateralMinor > 0 ? pnlMinor / collateralMinor : null,
    // Stryker disable next-line ConditionalExpression: as above
    pctOfMaxProfit: maxProfitMinor !== null && maxProfitMinor > 0 ? pnlMinor / maxProfitMinor : null,
  };
}

/** New York days from the open to the nearest expiration of the structure. */
export function dteAtEntry(openDay: string, expirations: readonly string[]): number | null {
  let nearest: string | null = null;
  // Stryker disable next-line EqualityOperator: an equal expiration is the same nearest one
  for (const expiration of expirations) if (nearest === null || expiration < nearest) nearest = expiration;
  return nearest === null ? null : daysBetween(openDay, nearest);
}
