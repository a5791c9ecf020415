/**
 * Flip and wall events (docs/exposure.md §Events): each newer snapshot of a ticker is compared, per unexpired
 * expiration with 0 ≤ dte ≤ 45, with the last confirmed state of that (ticker, expiration). Changes inside
 * the dead band (flip) or the 10% margin (wall) leave the confirmed state as it was (hysteresis), so a
 * level that wobbles around a threshold does not fire an event at every snapshot. The comparison of one scope
 * (`compareScope`) also says why nothing fired, for the explanations (event-explain.ts), and serves the book
 * scope (book-events.ts) unchanged.
 */
import type { PreparedChain, PreparedExpiration } from './prepare';
import { gexLevels, strikeTotals, usableContracts } from './gex';
import { profileRoot } from './sweep';
import { quoteDate } from './chain-reads';
import type { GammaShares } from './units';

/** |total| must reach this fraction of Σ|netGEX| for a zone change to count. */
export const FLIP_DEAD_BAND = 0.02;
/** A new wall must beat the old wall strike's current |GEX| by this factor. */
export const WALL_MARGIN = 1.1;
export const EVENT_MIN_DTE = 0;
export const EVENT_MAX_DTE = 45;

export type GammaZone = 'positive' | 'negative';

export interface ConfirmedState {
  zone: GammaZone;
  callWallStrike: number | null;
  putWallStrike: number | null;
}

interface EventBase {
  ticker: string;
  expiration: string;
  /** The quote time of the snapshot that showed the change. */
  timestamp: string;
}

export interface FlipEventDraft extends EventBase {
  eventType: 'flip';
  previousState: GammaZone;
  newState: GammaZone;
  inflectionPoint: number | null;
  spotPrice: number;
  callWallStrike: number | null;
  putWallStrike: number | null;
}

export interface WallEventDraft extends EventBase {
  eventType: 'wall';
  wallType: 'call' | 'put';
  previousStrike: number;
  newStrike: number;
  spotPrice: number;
}

/** An event as the engine finds it; the store adds its id, the reader its dte. */
export type EventDraft = FlipEventDraft | WallEventDraft;

/** Why the zone fired or not. `share` = |total| / Σ|netGEX| of the scope, the figure the dead band bounds. */
export type FlipOutcome =
  | { result: 'unchanged'; zone: GammaZone; share: number }
  | { result: 'dead-band'; confirmedZone: GammaZone; zone: GammaZone; share: number }
  /** Σ|netGEX| = 0 (no usable contract): there is no zone to compare. */
  | { result: 'no-gamma'; confirmedZone: GammaZone }
  | { result: 'fired'; previousZone: GammaZone; zone: GammaZone; share: number };

/**
 * Why a wall fired or not. `ratio` = |GEX at the new strike| / |current GEX at the confirmed strike|, the figure the
 * margin bounds; null when the confirmed strike has no gamma left on that side.
 */
export type WallOutcome =
  | { result: 'unchanged'; strike: number | null }
  | { result: 'margin'; previousStrike: number; strike: number; ratio: number }
  | { result: 'fired'; previousStrike: number; strike: number; ratio: number | null }
  /** The side has no gamma now: the confirmed wall is kept. */
  | { result: 'empty'; previousStrike: number }
  /** The confirmed wall was null: the new one is taken without an event. */
  | { result: 'adopted'; strike: number };

export interface ScopeOutcome {
  flip: FlipOutcome;
  callWall: WallOutcome;
  putWall: WallOutcome;
}

/** The figures of one scope (an expiration, or the book) that the rules read. */
export interface ScopeView {
  zone: GammaZone;
  /** Σ netGEX in shares per $1. */
  totalShares: GammaShares;
  /** Σ |netGEX| over strikes, in shares per $1. */
  absoluteShares: GammaShares;
  callWallStrike: number | null;
  putWallStrike: number | null;
  /** Current call-side / put-side gamma per strike (shares per $1; 0 for a strike without open interest). */
  callAt: (strike: number) => number;
  putAt: (strike: number) => number;
}

/** The scope's view: the expirations' contracts taken together (one expiration, or the book). */
export function scopeView(chain: PreparedChain, expirations: readonly PreparedExpiration[]): ScopeView {
  const totals = strikeTotals(chain, expirations);
  const levels = gexLevels(chain, totals);
  const strikeIndex = new Map<number, number>();
  for (const s of totals.present) strikeIndex.set(chain.strikes[s] ?? 0, s);
  const at = (values: Float64Array) => (strike: number) => {
    const s = strikeIndex.get(strike);
    return s === undefined ? 0 : (values[s] ?? 0);
  };
  return {
    zone: levels.totalShares >= 0 ? 'positive' : 'negative',
    totalShares: levels.totalShares,
    absoluteShares: levels.absoluteShares,
    callWallStrike: levels.callWallIndex === null ? null : (chain.strikes[levels.callWallIndex] ?? null),
    putWallStrike: levels.putWallIndex === null ? null : (chain.strikes[levels.putWallIndex] ?? null),
    callAt: at(totals.call),
    putAt: at(totals.put),
  };
}

/** The state a scope's first snapshot sets. */
export function stateOf(view: ScopeView): ConfirmedState {
  return { zone: view.zone, callWallStrike: view.callWallStrike, putWallStrike: view.putWallStrike };
}

/** What `compareScope` adds to every draft: the drafts' common fields and the inflection, computed only on a flip. */
export interface ScopeContext {
  ticker: string;
  expiration: string;
  timestamp: string;
  spotPrice: number;
  inflection: () => number | null;
}

function compareWall(
  current: number | null,
  old: number | null,
  at: (strike: number) => number,
): { outcome: WallOutcome; strike: number | null } {
  // A side that is empty now keeps its confirmed wall; a side that was empty adopts the new wall silently.
  if (current === old) return { outcome: { result: 'unchanged', strike: current }, strike: old };
  if (current === null) return { outcome: { result: 'empty', previousStrike: old ?? 0 }, strike: old };
  if (old === null) return { outcome: { result: 'adopted', strike: current }, strike: current };
  const newMagnitude = Math.abs(at(current));
  const oldMagnitude = Math.abs(at(old));
  const ratio = oldMagnitude > 0 ? newMagnitude / oldMagnitude : null;
  if (newMagnitude >= WALL_MARGIN * oldMagnitude) return { outcome: { result: 'fired', previousStrike: old, strike: current, ratio }, strike: current };
  return { outcome: { result: 'margin', previousStrike: old, strike: current, ratio: ratio ?? 0 }, strike: old };
}

/**
 * One scope against its confirmed state: the drafts (flip first, then call and put wall), the next confirmed state
 * and why each rule fired or not.
 */
export function compareScope(
  view: ScopeView,
  confirmed: ConfirmedState,
  context: ScopeContext,
): { events: EventDraft[]; state: ConfirmedState; outcome: ScopeOutcome } {
  const events: EventDraft[] = [];
  const next: ConfirmedState = { ...confirmed };
  const base = { ticker: context.ticker, expiration: context.expiration, timestamp: context.timestamp };
  const share = view.absoluteShares > 0 ? Math.abs(view.totalShares) / view.absoluteShares : 0;

  let flip: FlipOutcome;
  if (view.absoluteShares <= 0) {
    flip = { result: 'no-gamma', confirmedZone: confirmed.zone };
  } else if (view.zone === confirmed.zone) {
    flip = { result: 'unchanged', zone: confirmed.zone, share };
  } else if (Math.abs(view.totalShares) >= FLIP_DEAD_BAND * view.absoluteShares) {
    events.push({
      ...base,
      eventType: 'flip',
      previousState: confirmed.zone,
      newState: view.zone,
      inflectionPoint: context.inflection(),
      spotPrice: context.spotPrice,
      callWallStrike: view.callWallStrike,
      putWallStrike: view.putWallStrike,
    });
    next.zone = view.zone;
    flip = { result: 'fired', previousZone: confirmed.zone, zone: view.zone, share };
  } else {
    flip = { result: 'dead-band', confirmedZone: confirmed.zone, zone: view.zone, share };
  }

  const call = compareWall(view.callWallStrike, confirmed.callWallStrike, view.callAt);
  const put = compareWall(view.putWallStrike, confirmed.putWallStrike, view.putAt);
  for (const [wallType, side] of [['call', call], ['put', put]] as const) {
    if (side.outcome.result === 'fired') {
      events.push({ ...base, eventType: 'wall', wallType, previousStrike: side.outcome.previousStrike, newStrike: side.outcome.strike, spotPrice: context.spotPrice });
    }
  }
  next.callWallStrike = call.strike;
  next.putWallStrike = put.strike;
  return { events, state: next, outcome: { flip, callWall: call.outcome, putWall: put.outcome } };
}

/** An expiration of the snapshot in the events' window, compared with its confirmed state or setting its first one. */
export interface ExpirationEvaluation {
  expiration: string;
  dte: number;
  /** null: no confirmed state, this snapshot set the first one. */
  outcome: ScopeOutcome | null;
}

/**
 * `evaluateEvents` with, per expiration of the window, what happened (for the explanations). The expirations of
 * `previous` dropped (expired as of the quote date) are those not in `states` and not evaluated.
 */
export function evaluateExpirations(
  ticker: string,
  chain: PreparedChain,
  previous: ReadonlyMap<string, ConfirmedState>,
): { events: EventDraft[]; states: Map<string, ConfirmedState>; evaluated: ExpirationEvaluation[] } {
  const events: EventDraft[] = [];
  const evaluated: ExpirationEvaluation[] = [];
  const states = new Map<string, ConfirmedState>();
  const today = quoteDate(chain);
  for (const [expiration, state] of previous) {
    if (expiration >= today) states.set(expiration, state);
  }
  for (const expiration of chain.expirations) {
    if (expiration.dte < EVENT_MIN_DTE || expiration.dte > EVENT_MAX_DTE) continue;
    const view = scopeView(chain, [expiration]);
    const confirmed = previous.get(expiration.expiration);
    if (confirmed === undefined) {
      states.set(expiration.expiration, stateOf(view));
      evaluated.push({ expiration: expiration.expiration, dte: expiration.dte, outcome: null });
      continue;
    }
    const compared = compareScope(view, confirmed, {
      ticker,
      expiration: expiration.expiration,
      timestamp: chain.quoteTime,
      spotPrice: chain.spot,
      inflection: () => profileRoot(chain, usableContracts(chain, [expiration]), 'gamma'),
    });
    events.push(...compared.events);
    states.set(expiration.expiration, compared.state);
    evaluated.push({ expiration: expiration.expiration, dte: expiration.dte, outcome: compared.outcome });
  }
  return { events, states, evaluated };
}

/**
 * Evaluates one snapshot of `ticker` against the confirmed states (keyed by expiration). Returns the event
 * drafts (timestamp = the snapshot's quote time; the caller adds `id` and `dte`) and the new confirmed
 * states: those of the evaluated expirations, plus untouched earlier states of expirations that are not
 * expired as of the quote date (so a snapshot that lacks an expiration does not forget it).
 */
export function evaluateEvents(
  ticker: string,
  chain: PreparedChain,
  previous: ReadonlyMap<string, ConfirmedState>,
): { events: EventDraft[]; states: Map<string, ConfirmedState> } {
  const { events, states } = evaluateExpirations(ticker, chain, previous);
  return { events, states };
}
