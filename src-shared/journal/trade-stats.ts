/**
 * The trades list and its statistics (docs/journal.md §Trades and strategies): filters and pages over a built
 * TradeBook, and rows per group (strategy, dte or |delta| bucket at entry, gamma zone, strike against the levels,
 * underlying, month, tag) over closed trades. Reads only what buildTrades made: one pass over the trades.
 */
import type { Strategy } from './strategies';
import type { Trade, TradeBook } from './trades';

export const TRADE_GROUPS = ['strategy', 'dteAtEntry', 'deltaAtEntry', 'zoneAtEntry', 'strikeVsLevels', 'underlying', 'month', 'tag'] as const;
export type TradeGroup = (typeof TRADE_GROUPS)[number];

/** Bucket keys in the order rows are listed (the DESIGN's buckets, then `unknown`). */
export const DTE_BUCKETS = ['0', '1-7', '8-21', '22-45', '46+', 'unknown'] as const;
export const DELTA_BUCKETS = ['<0.10', '0.10-0.20', '0.20-0.30', '0.30-0.40', '>=0.40', 'unknown'] as const;
export const ZONE_BUCKETS = ['positive', 'negative', 'unknown'] as const;
export const STRIKE_VS_BUCKETS = ['below_put_wall', 'put_wall_to_flip', 'flip_to_call_wall', 'above_call_wall', 'unknown'] as const;

export interface TradeQuery {
  status?: 'open' | 'closed';
  strategy?: Strategy;
  /** The underlying, matched without case. */
  symbol?: string;
  accountId?: string;
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
  const symbol = query.symbol?.toUpperCase();
  const matches = (trade: Trade): boolean =>
    (query.status === undefined || trade.status === query.status) &&
    (query.strategy === undefined || trade.strategy === query.strategy) &&
    (symbol === undefined || trade.underlying.toUpperCase() === symbol) &&
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
  accountId?: string;
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
  pnlMinor: number;
  avgPnlMinor: number;
  avgWinMinor: number | null;
  avgLossMinor: number | null;
  /** Σ wins / |Σ losses|; null without a losing P&L. */
  profitFactor: number | null;
  avgDaysHeld: number | null;
  avgReturnOnCollateral: number | null;
  avgPctOfMaxProfit: number | null;
  /** The most negative P&L; null without a loss below zero. */
  largestLossMinor: number | null;
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

function keysOf(trade: Trade, query: StatsQuery): ReadonlyArray<string | null> {
  switch (query.groupBy) {
    case 'strategy':
      return [trade.strategy];
    case 'dteAtEntry':
      return [dteBucket(trade.dteAtEntry)];
    case 'deltaAtEntry':
      return [deltaBucket(trade.deltaAtEntry)];
    case 'zoneAtEntry':
      return [trade.levelsAtEntry?.gammaZone ?? 'unknown'];
    case 'strikeVsLevels':
      return [trade.levelsAtEntry?.shortStrikeVs ?? 'unknown'];
    case 'underlying':
      return [trade.underlying];
    case 'month':
      return [(trade.closeDay ?? '').slice(0, 7)];
    case 'tag': {
      const tags = query.tagsOf?.(trade.id) ?? [];
      return tags.length > 0 ? tags : [null];
    }
  }
}

interface Acc {
  key: string | null;
  trades: number;
  wins: number;
  winMinor: number;
  lossMinor: number;
  pnlMinor: number;
  largestLossMinor: number | null;
  days: number[];
  roc: number[];
  pct: number[];
}

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length);

/** The order of the rows: the buckets as listed, months in time, everything else by key (untagged last). */
function rowOrder(groupBy: TradeGroup): (a: Acc, b: Acc) => number {
  const fixed: Partial<Record<TradeGroup, readonly string[]>> = { dteAtEntry: DTE_BUCKETS, deltaAtEntry: DELTA_BUCKETS, zoneAtEntry: ZONE_BUCKETS, strikeVsLevels: STRIKE_VS_BUCKETS };
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
  for (const trade of book.trades) {
    const pnl = trade.pnlMinor;
    if (trade.status !== 'closed' || pnl === null || trade.currency !== query.currency) continue;
    if (query.accountId !== undefined && trade.accountId !== query.accountId) continue;
    const day = trade.closeDay ?? '';
    if ((query.from !== undefined && day < query.from) || (query.to !== undefined && day > query.to)) continue;
    for (const key of keysOf(trade, query)) {
      let acc = groups.get(key);
      if (!acc) {
        acc = { key, trades: 0, wins: 0, winMinor: 0, lossMinor: 0, pnlMinor: 0, largestLossMinor: null, days: [], roc: [], pct: [] };
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
      if (trade.daysHeld !== null) acc.days.push(trade.daysHeld);
      if (trade.returnOnCollateral !== null) acc.roc.push(trade.returnOnCollateral);
      if (trade.pctOfMaxProfit !== null) acc.pct.push(trade.pctOfMaxProfit);
    }
  }
  const rows = [...groups.values()].sort(rowOrder(query.groupBy)).map((acc): StatsRow => {
    const losses = acc.trades - acc.wins;
    return {
      key: acc.key,
      trades: acc.trades,
      wins: acc.wins,
      losses,
      winRate: acc.wins / acc.trades,
      pnlMinor: acc.pnlMinor,
      avgPnlMinor: Math.round(acc.pnlMinor / acc.trades),
      avgWinMinor: acc.wins > 0 ? Math.round(acc.winMinor / acc.wins) : null,
      avgLossMinor: losses > 0 ? Math.round(acc.lossMinor / losses) : null,
      profitFactor: acc.lossMinor < 0 ? acc.winMinor / -acc.lossMinor : null,
      avgDaysHeld: mean(acc.days),
      avgReturnOnCollateral: mean(acc.roc),
      avgPctOfMaxProfit: mean(acc.pct),
      largestLossMinor: acc.largestLossMinor,
    };
  });
  return { groupBy: query.groupBy, rows };
}
