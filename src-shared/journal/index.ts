/** The journal engine: build the ledger once, query it per request. Conventions: docs/journal.md. */
export { buildLedger, resumeLedger } from './ledger';
export type { Ledger, LedgerOptions, LedgerWarnings, ChainRecord, ChainStep, RollRecord, OpenPosition, DayAgg, SymbolAgg, CurrencyDays, UnmatchedOpening } from './ledger';
export { performance, rangePeriod, yearSummary, dayTotalMinor, isActiveDay } from './analytics';
export type { DayPL, DayResult, PerformanceQuery, PerformanceResult, PeriodResult, SymbolResult, Totals, YearResult } from './analytics';
