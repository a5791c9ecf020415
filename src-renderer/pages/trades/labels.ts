/** Words for the trades' codes (docs/journal.md §Trades and strategies): strategies, report groups, strike places. */
import type { StatsQueryT, TradeJson } from '../../../src-shared/api/schemas';

export type StrategyCode = TradeJson['strategy'];
export type OutcomeCode = TradeJson['outcome'];
export type GroupCode = NonNullable<StatsQueryT['groupBy']>;
type PlaceCode = NonNullable<NonNullable<TradeJson['levelsAtEntry']>['shortStrikeVs']>;

/** Every strategy (the record's type makes the list complete). */
export const STRATEGY_LABELS: Record<StrategyCode, string> = {
  short_put: 'Short put',
  short_call: 'Short call',
  covered_call: 'Covered call',
  long_put: 'Long put',
  long_call: 'Long call',
  credit_spread: 'Credit spread',
  debit_spread: 'Debit spread',
  short_strangle: 'Short strangle',
  short_straddle: 'Short straddle',
  long_strangle: 'Long strangle',
  long_straddle: 'Long straddle',
  calendar: 'Calendar',
  diagonal: 'Diagonal',
  iron_condor: 'Iron condor',
  iron_butterfly: 'Iron butterfly',
  butterfly: 'Butterfly',
  custom: 'Custom',
};
export const STRATEGY_CODES = Object.keys(STRATEGY_LABELS) as StrategyCode[];

export const OUTCOME_LABELS: Record<OutcomeCode, string> = {
  expired: 'Expired',
  closed: 'Closed',
  assigned: 'Assigned',
  exercised: 'Exercised',
  open: 'Open',
};

/**
 * The two views of an assignment, said wherever both figures appear (DESIGN §5): the summary keeps the broker
 * statement's (the premium in option P&L, the shares' loss in stock P&L); a trade's P&L is the whole wheel cycle.
 */
export const STATEMENT_VIEW_NOTE =
  'Options and stock P&L follow the broker statement: an assigned put’s premium stays in option P&L, the delivered shares’ result in stock P&L. A trade’s P&L (Trades, Strategy report) is the whole cycle: the shares an assignment delivered stay in the trade until sold or called away.';

export const GROUP_OPTIONS: ReadonlyArray<{ value: GroupCode; label: string; title: string }> = [
  { value: 'strategy', label: 'Strategy', title: 'By the strategy of the first structure' },
  { value: 'outcome', label: 'Outcome', title: 'By how the trade ended: expired, closed, assigned or exercised (an assigned trade’s P&L includes its shares)' },
  { value: 'dteAtEntry', label: 'DTE', title: 'By days to the nearest expiration at entry' },
  { value: 'deltaAtEntry', label: 'Delta', title: "By the main leg's |delta| at entry" },
  { value: 'zoneAtEntry', label: 'Regime', title: "By the dealers' gamma regime at entry (positive or negative)" },
  { value: 'strikeVsLevels', label: 'Strike vs levels', title: 'Where the short strike stood against the put wall, the flip and the call wall at entry' },
  { value: 'tag', label: 'Tag', title: 'By your tags (a trade counts under each of its tags)' },
];

export const PLACE_LABELS: Record<PlaceCode, string> = {
  below_put_wall: 'Below the put wall',
  put_wall_to_flip: 'Put wall to flip',
  flip_to_call_wall: 'Flip to call wall',
  above_call_wall: 'Above the call wall',
};

/** A stats row's key in words, for its group. */
export function groupKeyLabel(groupBy: GroupCode | string, key: string | null): string {
  if (key === null) return 'Untagged';
  if (key === 'unknown') return groupBy === 'zoneAtEntry' || groupBy === 'strikeVsLevels' || groupBy === 'deltaAtEntry' ? 'No snapshot at entry' : 'Unknown';
  if (groupBy === 'strategy' && key in STRATEGY_LABELS) return STRATEGY_LABELS[key as StrategyCode];
  if (groupBy === 'outcome' && key in OUTCOME_LABELS) return OUTCOME_LABELS[key as OutcomeCode];
  if (groupBy === 'strikeVsLevels' && key in PLACE_LABELS) return PLACE_LABELS[key as PlaceCode];
  if (groupBy === 'zoneAtEntry') return key === 'positive' ? 'Positive gamma' : 'Negative gamma';
  if (groupBy === 'dteAtEntry') return key === '0' ? '0 DTE' : `${key} DTE`;
  if (groupBy === 'deltaAtEntry') return `Δ ${key}`;
  return key;
}

const PLACE_PHRASES: Record<PlaceCode, string> = {
  below_put_wall: 'below the put wall',
  put_wall_to_flip: 'between the put wall and the flip',
  flip_to_call_wall: 'between the flip and the call wall',
  above_call_wall: 'above the call wall',
};

/** A strike as the entry sentence names it: "the 440 put". */
function legWords(leg: { strike: number; right: 'C' | 'P' }): string {
  return `the ${leg.strike.toLocaleString('en-US', { maximumFractionDigits: 3 })} ${leg.right === 'P' ? 'put' : 'call'}`;
}

/**
 * The entry's place in words: "Sold below the put wall", "Bought above the call wall"; a structure of several short
 * legs names each ("Sold the 440 put below the put wall and the 460 call above the call wall").
 */
export function entryPlaceText(trade: TradeJson): string | null {
  const levels = trade.levelsAtEntry;
  if (levels === null || trade.mainLeg === null) return null;
  const shorts = levels.shortStrikes;
  if (shorts.length >= 2) {
    const parts = shorts.map((leg) => `${legWords(leg)} ${leg.place === null ? '(its place unknown: no flip)' : PLACE_PHRASES[leg.place]}`);
    const last = parts.pop() ?? '';
    return `Sold ${parts.join(', ')} and ${last}`;
  }
  const place = levels.shortStrikeVs;
  if (place === null) return null;
  return `${trade.mainLeg.side === 'short' ? 'Sold' : 'Bought'} ${PLACE_PHRASES[place]}`;
}

/** What closed a leg, where the row's type says more than "closed": an assignment is an assignment (issue 27 item 9). */
const CLOSE_WORDS: Record<string, string> = { ASSIGNMENT: 'Assigned', EXERCISE: 'Exercised', EXPIRATION: 'Expired' };
const ROLE_WORDS = { entry: 'Entry', open: 'Opened', close: 'Closed' } as const;

/** A timeline row's role in words: Entry, Opened (a roll's new leg), or what closed it (Closed, Assigned, Exercised, Expired). */
export function roleWord(role: keyof typeof ROLE_WORDS, type: string): string {
  return role === 'close' ? (CLOSE_WORDS[type] ?? ROLE_WORDS.close) : ROLE_WORDS[role];
}
