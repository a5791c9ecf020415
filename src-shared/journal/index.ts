/** The journal engine: build the ledger once, query it per request. Conventions: docs/journal.md. */
export { buildLedger } from './ledger';
export type { Ledger, LedgerOptions, LedgerWarnings, ChainRecord, RollRecord, OpenPosition, DayAgg, SymbolAgg, CurrencyDays } from './ledger';
export { performance, yearSummary, dayTotalMinor, isActiveDay } from './analytics';
export type { PerformanceQuery } from './analytics';
export { tradeDayOf, journalDate, journalToday, monthRange, weekRange, addDays, dayOfWeek, isIsoDate, JOURNAL_TIME_ZONE } from './dates';
