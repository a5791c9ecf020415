/**
 * Alerts on your strikes (issue 18, docs/exposure.md §Events, "Position alerts"): when a new snapshot moves the
 * underlying's gamma flip or a wall (the default /gex scope, as Positions shows them) across a strike you are short,
 * or within a distance of it, an alert draft of kind `position`. Hysteresis per (position, level), in a confirmed
 * state the caller stores: the level's side of the strike changes only once it is more than the distance beyond
 * the strike, and "near" is set within the distance and cleared only beyond twice the distance, so a level that
 * wobbles at either boundary alerts once.
 */
import { parseInstantMs } from '../calendar';
import { dateInZone, NEW_YORK } from '../zone';
import { formatLevel } from './event-explain';

/** Default alert distance, in % of the strike. */
export const POSITION_ALERT_DISTANCE_PCT = 1;
/** A level that came near stays near until it is more than this many distances from the strike. */
export const POSITION_ALERT_EXIT_FACTOR = 2;

export const DEALER_LEVEL_NAMES = ['gammaFlip', 'callWall', 'putWall'] as const;
export type DealerLevelName = (typeof DEALER_LEVEL_NAMES)[number];
/** The default-scope levels of one snapshot (GexHistoryPoint's gammaInflection, callWall.strike, putWall.strike). */
export type DealerLevelValues = Record<DealerLevelName, number | null>;

/** An open option position of the ticker; only short ones (quantity < 0) can alert. */
export interface OptionPositionInput {
  accountId: string;
  /** The position's instrument as the journal names it (OCC symbol). */
  symbol: string;
  /** YYYY-MM-DD */
  expiration: string;
  strike: number;
  right: 'C' | 'P';
  /** Signed contracts: − short. */
  quantity: number;
}

/** The confirmed relation of a level to a strike. */
export interface PositionLevelState {
  side: 'above' | 'below';
  near: boolean;
}

export interface PositionAlertDraft {
  ticker: string;
  eventType: 'position';
  /** The option's expiration (the events table's column). */
  expiration: string;
  /** The new snapshot's quote time. */
  timestamp: string;
  accountId: string;
  symbol: string;
  strike: number;
  right: 'C' | 'P';
  /** Summed over the account's rows of the contract (negative). */
  quantity: number;
  level: DealerLevelName;
  /** `crossed`: the level is now on the other side of the strike; `within`: it came within the distance. */
  alert: 'crossed' | 'within';
  /** The level in the previous snapshot (null: none then). */
  previousValue: number | null;
  newValue: number;
  /** (newValue − strike) / strike, in %: negative below the strike. */
  gapPct: number;
  distancePct: number;
  spotPrice: number;
}

export interface PositionAlertInput {
  ticker: string;
  /** The new snapshot's quote time (ISO instant). */
  timestamp: string;
  spotPrice: number;
  positions: readonly OptionPositionInput[];
  /** The previous snapshot's levels; null when there is none. Read only to seed a missing state. */
  before: DealerLevelValues | null;
  after: DealerLevelValues;
  /** Distance in % of the strike (default 1). */
  distancePct?: number;
}

/** The state's key: one per (account, contract, level); the caller keeps a map per ticker. */
export function positionStateKey(position: Pick<OptionPositionInput, 'accountId' | 'expiration' | 'right' | 'strike'>, level: DealerLevelName): string {
  return [position.accountId, position.expiration, position.right, String(position.strike), level].join('|');
}

/** What identifies an alert (its id is a hash of it): two accounts, levels or snapshots never share one. */
export function positionAlertKey(draft: PositionAlertDraft): string {
  return [draft.ticker, 'position', draft.accountId, draft.expiration, draft.right, String(draft.strike), draft.level, draft.alert, draft.timestamp].join('|');
}

function seed(gap: number, distance: number): PositionLevelState {
  return { side: gap >= 0 ? 'above' : 'below', near: Math.abs(gap) <= distance };
}

function step(state: PositionLevelState, gap: number, distance: number): PositionLevelState {
  const side = gap > distance ? 'above' : gap < -distance ? 'below' : state.side;
  const near = Math.abs(gap) <= distance ? true : Math.abs(gap) > POSITION_ALERT_EXIT_FACTOR * distance ? false : state.near;
  return { side, near };
}

/** A short contract of an account: its positions' contracts summed. */
type ShortContract = OptionPositionInput;

/** Short, unexpired (as of the quote's New York date) contracts, one per (account, contract), in a fixed order. */
function shortContracts(positions: readonly OptionPositionInput[], today: string): ShortContract[] {
  const byKey = new Map<string, ShortContract>();
  for (const p of positions) {
    if (!(p.quantity < 0) || !(p.strike > 0) || !Number.isFinite(p.strike) || p.expiration < today) continue;
    const key = positionStateKey(p, 'gammaFlip');
    const held = byKey.get(key);
    if (held === undefined) byKey.set(key, { accountId: p.accountId, symbol: p.symbol, expiration: p.expiration, strike: p.strike, right: p.right, quantity: p.quantity });
    else held.quantity += p.quantity;
  }
  const order = (a: ShortContract, b: ShortContract) =>
    (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0) ||
    (a.expiration < b.expiration ? -1 : a.expiration > b.expiration ? 1 : 0) ||
    a.strike - b.strike ||
    (a.right === b.right ? 0 : a.right === 'P' ? -1 : 1);
  return [...byKey.values()].sort(order);
}

/**
 * The alerts of a new snapshot and the states to store (replacing the ticker's: a state of a position no longer
 * short, or expired, is absent). A missing state is seeded from `before` (or, without it, from `after`, which then
 * alerts nothing); a level that is null now keeps its state.
 */
export function evaluatePositionAlerts(
  input: PositionAlertInput,
  previous: ReadonlyMap<string, PositionLevelState>,
): { alerts: PositionAlertDraft[]; states: Map<string, PositionLevelState> } {
  const distancePct = input.distancePct ?? POSITION_ALERT_DISTANCE_PCT;
  if (!(distancePct > 0) || !Number.isFinite(distancePct)) throw new RangeError(`position alert distance must be a positive % of the strike, not ${distancePct}`);
  const quoteMs = parseInstantMs(input.timestamp);
  if (!Number.isFinite(quoteMs)) throw new RangeError(`position alerts: the timestamp must be an ISO instant, not ${input.timestamp}`);
  const today = dateInZone(quoteMs, NEW_YORK);
  const alerts: PositionAlertDraft[] = [];
  const states = new Map<string, PositionLevelState>();
  for (const contract of shortContracts(input.positions, today)) {
    const distance = (contract.strike * distancePct) / 100;
    for (const level of DEALER_LEVEL_NAMES) {
      const key = positionStateKey(contract, level);
      const value = input.after[level];
      const old = input.before === null ? null : input.before[level];
      let state = previous.get(key);
      if (state === undefined) {
        const first = old ?? value;
        if (first === null) continue;
        state = seed(first - contract.strike, distance);
        if (old === null) {
          states.set(key, state);
          continue;
        }
      }
      if (value === null) {
        states.set(key, state);
        continue;
      }
      const next = step(state, value - contract.strike, distance);
      states.set(key, next);
      const alert = next.side !== state.side ? 'crossed' : next.near && !state.near ? 'within' : null;
      if (alert === null) continue;
      alerts.push({
        ticker: input.ticker,
        eventType: 'position',
        expiration: contract.expiration,
        timestamp: input.timestamp,
        accountId: contract.accountId,
        symbol: contract.symbol,
        strike: contract.strike,
        right: contract.right,
        quantity: contract.quantity,
        level,
        alert,
        previousValue: old,
        newValue: value,
        gapPct: ((value - contract.strike) / contract.strike) * 100,
        distancePct,
        spotPrice: input.spotPrice,
      });
    }
  }
  return { alerts, states };
}

const LEVEL_WORDS: Record<DealerLevelName, string> = { gammaFlip: 'gamma flip', callWall: 'call wall', putWall: 'put wall' };

/** One sentence for a notification or a list: "SPX put wall 4,650 → 4,675 came within 1% of your short 4,700 put (2026-02-20): 0.5% below". */
export function positionAlertText(draft: PositionAlertDraft): string {
  const contract = `your short ${formatLevel(draft.strike)} ${draft.right === 'P' ? 'put' : 'call'} (${draft.expiration})`;
  const move = draft.previousValue === null ? formatLevel(draft.newValue) : `${formatLevel(draft.previousValue)} → ${formatLevel(draft.newValue)}`;
  const verb = draft.alert === 'crossed' ? `crossed ${contract}` : `came within ${formatLevel(draft.distancePct)}% of ${contract}`;
  const gap = Math.abs(draft.gapPct);
  const where = gap < 0.05 ? 'at the strike' : `${gap.toFixed(1)}% ${draft.gapPct < 0 ? 'below' : 'above'}`;
  return `${draft.ticker} ${LEVEL_WORDS[draft.level]} ${move} ${verb}: ${where}`;
}
