/** The journal engine: build the ledger once, query it per request. Conventions: docs/journal.md. */
export { buildLedger, resumeLedger } from './ledger';
export type { Ledger, LedgerOptions, LedgerWarnings, CampaignRecord, CampaignStep, RollRecord, OpenPosition, DayAgg, SymbolAgg, CurrencyDays, UnmatchedOpening } from './ledger';
export { performance, rangePeriod, yearSummary, dayTotalMinor, isActiveDay } from './analytics';
export type { DayPL, DayResult, PerformanceQuery, PerformanceResult, PeriodResult, SymbolResult, Totals, TotalsResult, YearResult } from './analytics';
export { buildTrades } from './trades';
export type { Trade, TradeBook, TradeLeg, TradeOptions } from './trades';
export { STRATEGIES, type Strategy, type StructureLeg } from './strategies';
export { entryLookupFromMarks, STRIKE_VS_LEVELS, type EntryFacts, type EntryLookup, type EntryQuery, type LevelsAtEntry, type StrikeVsLevels } from './trade-metrics';
export { queryTrades, tradeStats, TRADE_GROUPS, type StatsQuery, type StatsRow, type TradeGroup, type TradePage, type TradeQuery } from './trade-stats';
