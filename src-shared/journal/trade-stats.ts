/**
 * The trades list and its statistics (docs/journal.md §Trades and strategies): filters and pages over a built
 * TradeBook, and rows per group (strategy, outcome, dte or |delta| bucket at entry, gamma zone, strike against the
 * levels, underlying, month, tag) over closed trades. Reads only what buildTrades made: one pass over the trades.
 */
import { underlyingOfRoot } from '../exposure/roots';
import type { Strategy } from './strategies';
import type { Trade, TradeBook } from './trades';
import { asMinorOrNull, asMinor, type Minor } from '../money';
import type { AccountId, Ticker } from '../ids';

export const TRADE_GROUPS = ['strategy', 'outcome', 'dteAtEntry', 'deltaAtEntry', 'zoneAtEntry', 'strikeVsLevels', 'underlying', 'month', 'tag'] as const;
export type TradeGroup = (typeof TRADE_GROUPS)[number];

/** Bucket keys in the order rows are listed (the DESIGN's buckets, then `unknown`). */
export const DTE_BUCKETS = ['0', '1-7', '8-21', '22-45', '46+', 'unknown'] as const;
export const DELTA_BUCKETS = ['<0.10', '0.10-0.20', '0.20-0.30', '0.30-0.40', '>=0.40', 'unknown'] as const;
export const ZONE_BUCKETS = ['positive', 'negative', 'unknown'] as const;
export const STRIKE_VS_BUCKETS = ['below_put_wall', 'put_wall_to_flip', 'flip_to_call_wall', 'above_call_wall', 'unknown'] as const;
/** How closed trades ended (trades.ts Outcome; `open` trades are not in the stats). */
export const OUTCOME_BUCKETS = ['expired', 'closed', 'assigned', 'exercised'] as const;

export interface TradeQuery {
  status?: 'open' | 'closed';
  strategy?: Strategy;
  /** The underlying (a Ticker: upper case, as the rows store it) or its chain's root. */
  symbol?: Ticker;
  accountId?: AccountId;
  /** Trade ids that carry the tag asked for (the annotations are the service's). */
  taggedIds?: ReadonlySet<string>;
  /** Opening day (trades opened before history: their first close's day) within [from, to], journal dates. */
  from?: string;
  to?: string;
  page?: number;
  limit?: number;
}

export interface TradePage {
  trades: Trade[];
  pagination: { page: number; limit: number; total: number; pages: number };
}

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

/** The day a trade is listed on: its opening day, or its first close's when opened before history. */
function listDay(trade: Trade): string {
  return trade.openDay ?? trade.legs[0]?.day ?? '';
}

/** A page of the trades (newest opened first, as built), after the filters. */
export function queryTrades(book: TradeBook, query: TradeQuery = {}): TradePage {
  const symbol = query.symbol;
  // An option root names its chain's underlying, as trades are (SPXW → SPX); a symbol stored as it is matches too.
  const chainSymbol = symbol === undefined ? undefined : underlyingOfRoot(symbol);
  const matches = (trade: Trade): boolean =>
    (query.status === undefined || trade.status === query.status) &&
    (query.strategy === undefined || trade.strategy === query.strategy) &&
    (symbol === undefined || trade.underlying.toUpperCase() === symbol || trade.underlying.toUpperCase() === chainSymbol) &&
    (query.accountId === undefined || trade.accountId === query.accountId) &&
    (query.taggedIds === undefined || query.taggedIds.has(trade.id)) &&
    (query.from === undefined || listDay(trade) >= query.from) &&
    (query.to === undefined || listDay(trade) <= query.to);
  const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(query.limit ?? DEFAULT_LIMIT)));
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const first = (page - 1) * limit;
  const trades: Trade[] = [];
  let total = 0;
  for (const trade of book.trades) {
    if (!matches(trade)) continue;
    if (total >= first && trades.length < limit) trades.push(trade);
    total += 1;
  }
  return { trades, pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
}

export interface StatsQuery {
  groupBy: TradeGroup;
  /** Closing day within [from, to], journal dates. */
  from?: string;
  to?: string;
  accountId?: AccountId;
  /** Money is never mixed across currencies: the reporting currency. */
  currency: string;
  /** The tags of a trade (for `groupBy=tag`); a trade without tags is in the row whose key is null. */
  tagsOf?: (tradeId: string) => readonly string[];
}

export interface StatsRow {
  key: string | null;
  trades: number;
  wins: number;
  losses: number;
  /** wins / trades, 0..1. */
  winRate: number;
  pnlMinor: Minor;
  avgPnlMinor: Minor;
  avgWinMinor: Minor | null;
  avgLossMinor: Minor | null;
  /** Σ wins / |Σ losses|; null without a losing P&L. */
  profitFactor: number | null;
  avgDaysHeld: number | null;
  avgReturnOnCollateral: number | null;
  avgPctOfMaxProfit: number | null;
  /** The most negative P&L; null without a loss below zero. */
  largestLossMinor: Minor | null;
}

export function dteBucket(dte: number | null): string {
  if (dte === null) return 'unknown';
  if (dte <= 0) return '0';
  if (dte <= 7) return '1-7';
  if (dte <= 21) return '8-21';
  if (dte <= 45) return '22-45';
  return '46+';
}

export function deltaBucket(delta: number | null): string {
  if (delta === null) return 'unknown';
  const size = Math.abs(delta);
  if (size < 0.1) return '<0.10';
  if (size < 0.2) return '0.10-0.20';
  if (size < 0.3) return '0.20-0.30';
  if (size < 0.4) return '0.30-0.40';
  return '>=0.40';
}

/** The group of a trade, for every `groupBy` but `tag` (whose trades can be in several). */
function keyOf(trade: Trade, groupBy: Exclude<TradeGroup, 'tag'>): string {
  switch (groupBy) {
    case 'strategy':
      return trade.strategy;
    case 'outcome':
      return trade.outcome;
    case 'dteAtEntry':
      return dteBucket(trade.dteAtEntry);
    case 'deltaAtEntry':
      return deltaBucket(trade.deltaAtEntry);
    case 'zoneAtEntry':
      return trade.levelsAtEntry?.gammaZone ?? 'unknown';
    case 'strikeVsLevels':
      return trade.levelsAtEntry?.shortStrikeVs ?? 'unknown';
    case 'underlying':
      return trade.underlying;
    case 'month':
      return (trade.closeDay ?? '').slice(0, 7);
  }
}

/** Sums, not lists: the stats read every closed trade of a 100k-row journal per request. */
interface Acc {
  key: string | null;
  trades: number;
  wins: number;
  winMinor: number;
  lossMinor: number;
  pnlMinor: number;
  largestLossMinor: number | null;
  daysSum: number;
  daysCount: number;
  rocSum: number;
  rocCount: number;
  pctSum: number;
  pctCount: number;
}

function add(groups: Map<string | null, Acc>, key: string | null, trade: Trade, pnl: number): void {
  let acc = groups.get(key);
  if (!acc) {
    acc = { key, trades: 0, wins: 0, winMinor: 0, lossMinor: 0, pnlMinor: 0, largestLossMinor: null, daysSum: 0, daysCount: 0, rocSum: 0, rocCount: 0, pctSum: 0, pctCount: 0 };
    groups.set(key, acc);
  }
  acc.trades += 1;
  acc.pnlMinor += pnl;
  if (pnl > 0) {
    acc.wins += 1;
    acc.winMinor += pnl;
  } else {
    acc.lossMinor += pnl;
    if (pnl < 0 && (acc.largestLossMinor === null || pnl < acc.largestLossMinor)) acc.largestLossMinor = pnl;
  }
  if (trade.daysHeld !== null) {
    acc.daysSum += trade.daysHeld;
    acc.daysCount += 1;
  }
  if (trade.returnOnCollateral !== null) {
    acc.rocSum += trade.returnOnCollateral;
    acc.rocCount += 1;
  }
  if (trade.pctOfMaxProfit !== null) {
    acc.pctSum += trade.pctOfMaxProfit;
    acc.pctCount += 1;
  }
}

const mean = (sum: number, count: number): number | null => (count === 0 ? null : sum / count);

/** The order of the rows: the buckets as listed, months in time, everything else by key (untagged last). */
function rowOrder(groupBy: TradeGroup): (a: Acc, b: Acc) => number {
  const fixed: Partial<Record<TradeGroup, readonly string[]>> = { outcome: OUTCOME_BUCKETS, dteAtEntry: DTE_BUCKETS, deltaAtEntry: DELTA_BUCKETS, zoneAtEntry: ZONE_BUCKETS, strikeVsLevels: STRIKE_VS_BUCKETS };
  const order = fixed[groupBy];
  if (order) return (a, b) => order.indexOf(a.key ?? '') - order.indexOf(b.key ?? '');
  return (a, b) => (a.key === b.key ? 0 : a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : 1);
}

/**
 * Statistics of the closed trades whose P&L is known (not opened before history), per group. A win is P&L > 0; P&L
 * ≤ 0 is a loss, as for campaigns. Averages of ratios count the trades that have the ratio.
 */
export function tradeStats(book: TradeBook, query: StatsQuery): { groupBy: TradeGroup; rows: StatsRow[] } {
  const groups = new Map<string | null, Acc>();
  const { groupBy } = query;
  for (const trade of book.trades) {
    const pnl = trade.pnlMinor;
    if (trade.status !== 'closed' || pnl === null || trade.currency !== query.currency) continue;
    if (query.accountId !== undefined && trade.accountId !== query.accountId) continue;
    const day = trade.closeDay ?? '';
    if ((query.from !== undefined && day < query.from) || (query.to !== undefined && day > query.to)) continue;
    if (groupBy !== 'tag') {
      add(groups, keyOf(trade, groupBy), trade, pnl);
      continue;
    }
    const tags = query.tagsOf?.(trade.id) ?? [];
    if (tags.length === 0) add(groups, null, trade, pnl);
    for (const tag of tags) add(groups, tag, trade, pnl);
  }
  const rows = [...groups.values()].sort(rowOrder(groupBy)).map((acc): StatsRow => {
    const losses = acc.trades - acc.wins;
    return {
      key: acc.key,
      trades: acc.trades,
      wins: acc.wins,
      losses,
      winRate: acc.wins / acc.trades,
      pnlMinor: asMinor(acc.pnlMinor),
      avgPnlMinor: asMinor(Math.round(acc.pnlMinor / acc.trades)),
      avgWinMinor: acc.wins > 0 ? asMinor(Math.round(acc.winMinor / acc.wins)) : null,
      avgLossMinor: losses > 0 ? asMinor(Math.round(acc.lossMinor / losses)) : null,
      profitFactor: acc.lossMinor < 0 ? acc.winMinor / -acc.lossMinor : null,
      avgDaysHeld: mean(acc.daysSum, acc.daysCount),
      avgReturnOnCollateral: mean(acc.rocSum, acc.rocCount),
      avgPctOfMaxProfit: mean(acc.pctSum, acc.pctCount),
      largestLossMinor: asMinorOrNull(acc.largestLossMinor),
    };
  });
  return { groupBy, rows };
}
