/**
 * Flip and wall events (docs/exposure.md §Events): each newer snapshot of a ticker is compared, per unexpired
 * expiration with 0 ≤ dte ≤ 45, with the last confirmed state of that (ticker, expiration). Changes inside
 * the dead band (flip) or the 10% margin (wall) leave the confirmed state as it was (hysteresis), so a
 * level that wobbles around a threshold does not fire an event at every snapshot.
 */
import type { PreparedChain, PreparedExpiration } from './prepare';
import { gexLevels, strikeTotals, usableContracts } from './gex';
import { profileRoot } from './sweep';
import { quoteDate } from './prepare';

/** |total| must reach this fraction of Σ|netGEX| for a zone change to count. */
export const FLIP_DEAD_BAND = 0.02;
/** A new wall must beat the old wall strike's current |GEX| by this factor. */
export const WALL_MARGIN = 1.1;
export const EVENT_MIN_DTE = 0;
export const EVENT_MAX_DTE = 45;

export interface ConfirmedState {
  zone: 'positive' | 'negative';
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
  previousState: 'positive' | 'negative';
  newState: 'positive' | 'negative';
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

interface ExpirationView {
  zone: 'positive' | 'negative';
  totalShares: number;
  absoluteShares: number;
  callWallStrike: number | null;
  putWallStrike: number | null;
  /** Current call-side / put-side gamma per strike (shares per $1). */
  callAt: (strike: number) => number;
  putAt: (strike: number) => number;
}

function viewOf(chain: PreparedChain, expiration: PreparedExpiration): ExpirationView {
  const totals = strikeTotals(chain, [expiration]);
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
  const events: EventDraft[] = [];
  const states = new Map<string, ConfirmedState>();
  const today = quoteDate(chain);
  for (const [expiration, state] of previous) {
    if (expiration >= today) states.set(expiration, state);
  }
  const timestamp = chain.quoteTime;
  const spotPrice = chain.spot;
  for (const expiration of chain.expirations) {
    if (expiration.dte < EVENT_MIN_DTE || expiration.dte > EVENT_MAX_DTE) continue;
    const view = viewOf(chain, expiration);
    const confirmed = previous.get(expiration.expiration);
    if (confirmed === undefined) {
      states.set(expiration.expiration, { zone: view.zone, callWallStrike: view.callWallStrike, putWallStrike: view.putWallStrike });
      continue;
    }
    const next: ConfirmedState = { ...confirmed };
    const base = { ticker, expiration: expiration.expiration, timestamp };

    if (view.zone !== confirmed.zone && Math.abs(view.totalShares) >= FLIP_DEAD_BAND * view.absoluteShares && view.absoluteShares > 0) {
      events.push({
        ...base,
        eventType: 'flip',
        previousState: confirmed.zone,
        newState: view.zone,
        inflectionPoint: profileRoot(chain, usableContracts(chain, [expiration]), 'gamma'),
        spotPrice,
        callWallStrike: view.callWallStrike,
        putWallStrike: view.putWallStrike,
      });
      next.zone = view.zone;
    }

    const sides = [
      { wallType: 'call' as const, current: view.callWallStrike, old: confirmed.callWallStrike, at: view.callAt, key: 'callWallStrike' as const },
      { wallType: 'put' as const, current: view.putWallStrike, old: confirmed.putWallStrike, at: view.putAt, key: 'putWallStrike' as const },
    ];
    for (const side of sides) {
      // A side that is empty now keeps its confirmed wall; a side that was empty adopts the new wall silently.
      if (side.current === null || side.current === side.old) continue;
      if (side.old === null) {
        next[side.key] = side.current;
        continue;
      }
      const newMagnitude = Math.abs(side.at(side.current));
      const oldMagnitude = Math.abs(side.at(side.old));
      if (newMagnitude >= WALL_MARGIN * oldMagnitude) {
        events.push({ ...base, eventType: 'wall', wallType: side.wallType, previousStrike: side.old, newStrike: side.current, spotPrice });
        next[side.key] = side.current;
      }
    }
    states.set(expiration.expiration, next);
  }
  return { events, states };
}
