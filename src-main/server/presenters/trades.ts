/**
 * The /v1 JSON of trades and their stats (docs/journal.md §Trades and strategies): the service answers in minor
 * units, rounded to cents once, here.
 */
import type { AnnotationResponseT, StatsRowJson, TimelineEntryJson, TradeJson } from '../../../src-shared/api/schemas';
import { FILLS } from '../../../src-shared/journal/model';
import { BUYS } from '../../../src-shared/journal/order';
import { mainLeg } from '../../../src-shared/journal/strategies';
import type { StatsRow } from '../../../src-shared/journal/trade-stats';
import type { TimelineEntry, Trade } from '../../../src-shared/journal/trades';
import { centsOrNull, minorToCents, minorToUnits } from '../../../src-shared/money';
import type { AnnotationResult, StatsResult, TradeDetailResult, TradeRow, TradesResult } from '../../services/journal/trades';

/** The option the entry figures describe (strategies.ts mainLeg), or null for a trade of shares alone. */
function presentMainLeg(trade: Trade): TradeJson['mainLeg'] {
  const leg = mainLeg(trade.structure);
  if (leg === null || leg.expiration === null || leg.strike === null || leg.right === null) return null;
  return { symbol: leg.symbol, expiration: leg.expiration, strike: leg.strike, right: leg.right, side: leg.side < 0 ? 'short' : 'long', contracts: leg.quantity };
}

export function presentTrade(row: TradeRow): TradeJson {
  const t = row.trade;
  return {
    id: t.id,
    accountId: t.accountId,
    accountName: row.accountName,
    currency: t.currency,
    underlying: t.underlying,
    strategy: t.strategy,
    status: t.status,
    outcome: t.outcome,
    rolled: t.rolled,
    openedBeforeHistory: t.openedBeforeHistory,
    openedAt: t.openedAt,
    closedAt: t.closedAt,
    daysHeld: t.daysHeld,
    legs: t.legs.map((leg) => ({
      transactionId: leg.txId,
      type: leg.type,
      symbol: leg.symbol,
      tradeDate: leg.tradeDate,
      date: leg.day,
      role: leg.role,
      quantity: leg.quantity,
      realizedPL: centsOrNull(leg.realizedMinor),
    })),
    credit: centsOrNull(t.creditMinor),
    maxProfit: centsOrNull(t.maxProfitMinor),
    maxLoss: centsOrNull(t.maxLossMinor),
    collateral: centsOrNull(t.collateralMinor),
    collateralRule: t.collateralRule,
    pnl: centsOrNull(t.pnlMinor),
    optionPL: centsOrNull(t.optionPLMinor),
    unrealizedPL: centsOrNull(row.unrealizedMinor),
    returnOnCollateral: row.returnOnCollateral,
    pctOfMaxProfit: row.pctOfMaxProfit,
    dteAtEntry: t.dteAtEntry,
    deltaAtEntry: t.deltaAtEntry,
    mainLeg: presentMainLeg(t),
    entrySnapshot: t.entrySnapshot,
    levelsAtEntry: row.levelsAtEntry,
    rolls: t.rolls,
    campaignId: t.campaignId,
    note: row.note,
    tags: row.tags,
  };
}

export function presentTrades(result: TradesResult) {
  return { currency: result.currency, levelsScope: result.levelsScope, trades: result.trades.map(presentTrade), pagination: result.pagination };
}

function presentTimelineEntry({ leg, transaction: tx, runningRealizedMinor }: TimelineEntry): TimelineEntryJson {
  return {
    transactionId: leg.txId,
    tradeDate: leg.tradeDate,
    date: leg.day,
    type: leg.type,
    side: FILLS.has(leg.type) ? (BUYS.has(leg.type) ? 'buy' : 'sell') : null,
    symbol: leg.symbol,
    expiration: tx?.expiration ?? null,
    strike: tx?.strike ?? null,
    right: tx?.right ?? null,
    role: leg.role,
    roll: leg.roll,
    quantity: leg.quantity,
    rowQuantity: tx === null ? null : Math.abs(tx.quantity),
    price: tx === null ? null : minorToUnits(tx.priceMinor),
    inferred: tx?.inferred === true,
    costs: minorToCents(leg.costsMinor),
    cash: minorToCents(leg.cashMinor),
    realizedPL: centsOrNull(leg.realizedMinor),
    runningRealizedPL: centsOrNull(runningRealizedMinor),
  };
}

/** One trade: its list row and its timeline. */
export function presentTradeDetail(result: TradeDetailResult) {
  return { currency: result.currency, levelsScope: result.levelsScope, trade: presentTrade(result.row), timeline: result.timeline.map(presentTimelineEntry) };
}

function presentStatsRow(row: StatsRow): StatsRowJson {
  return {
    key: row.key,
    trades: row.trades,
    wins: row.wins,
    losses: row.losses,
    winRate: row.winRate,
    pnl: minorToCents(row.pnlMinor),
    avgPnl: minorToCents(row.avgPnlMinor),
    avgWin: centsOrNull(row.avgWinMinor),
    avgLoss: centsOrNull(row.avgLossMinor),
    profitFactor: row.profitFactor,
    avgDaysHeld: row.avgDaysHeld,
    avgReturnOnCollateral: row.avgReturnOnCollateral,
    avgPctOfMaxProfit: row.avgPctOfMaxProfit,
    largestLoss: centsOrNull(row.largestLossMinor),
  };
}

export function presentStats(result: StatsResult) {
  return { currency: result.currency, groupBy: result.groupBy, rows: result.rows.map(presentStatsRow) };
}

export function presentAnnotation(result: AnnotationResult): AnnotationResponseT {
  return { kind: result.kind, id: result.id, note: result.note, tags: result.tags, updatedAt: result.updatedAt };
}
