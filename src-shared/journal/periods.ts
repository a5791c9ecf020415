/**
 * The ledger's day buckets: everything that happened on one journal day, per currency and per underlying. The
 * builder books into them as it walks the transactions; the period and yearly queries (analytics.ts) only read
 * them. Money is integer minor units. Conventions: docs/journal.md.
 */
import { TRANSACTION_TYPES } from './model';

export interface SymbolAgg {
  optionsPLMinor: number;
  stockPLMinor: number;
  premiumsMinor: number;
  dividendsMinor: number;
  interestMinor: number;
  feesMinor: number;
  rolls: number;
  trades: number;
}

/** Everything that happened on one journal day in one currency. */
export interface DayAgg {
  day: string;
  optionsPLMinor: number;
  stockPLMinor: number;
  lockedInMinor: number;
  premiumsMinor: number;
  dividendsMinor: number;
  interestMinor: number;
  /** Standalone FEE rows, positive = cost. */
  feesMinor: number;
  /** Commission + fees charged on fills and option settlements, positive = cost (inside realized P&L once closed). */
  commissionsMinor: number;
  /** Rows that removed more than was open (docs/journal.md §Unmatched closes), and the units beyond what was open. */
  unmatchedCloses: number;
  unmatchedQuantity: number;
  rolls: number;
  rollCreditsMinor: number;
  trades: number;
  expiredOptions: number;
  expiredContracts: number;
  assignments: number;
  /** P&L events: closing fills, settlements, dividends, interest, standalone fees. */
  plEvents: number;
  /** Count per transaction type, indexed like TRANSACTION_TYPES. */
  typeCounts: number[];
  /** Keyed by underlying (the ticker for stock). Rows without an underlying are not in here. */
  symbols: Map<string, SymbolAgg>;
}

export interface CurrencyDays {
  currency: string;
  /** Sorted ascending; `aggs[i].day === days[i]`. */
  days: string[];
  aggs: DayAgg[];
}

/** The summable part of a day: the same fields, so that a period is the sum of its days. */
export const TOTAL_FIELDS = [
  'optionsPLMinor',
  'stockPLMinor',
  'lockedInMinor',
  'premiumsMinor',
  'dividendsMinor',
  'interestMinor',
  'feesMinor',
  'commissionsMinor',
  'unmatchedCloses',
  'unmatchedQuantity',
  'rolls',
  'rollCreditsMinor',
  'trades',
] as const satisfies ReadonlyArray<keyof DayAgg>;
export type Totals = Pick<DayAgg, (typeof TOTAL_FIELDS)[number]>;

/** A period's sums before its first day. */
export function emptyTotals(): Totals {
  return {
    optionsPLMinor: 0,
    stockPLMinor: 0,
    lockedInMinor: 0,
    premiumsMinor: 0,
    dividendsMinor: 0,
    interestMinor: 0,
    feesMinor: 0,
    commissionsMinor: 0,
    unmatchedCloses: 0,
    unmatchedQuantity: 0,
    rolls: 0,
    rollCreditsMinor: 0,
    trades: 0,
  };
}

function emptySymbolAgg(): SymbolAgg {
  return { optionsPLMinor: 0, stockPLMinor: 0, premiumsMinor: 0, dividendsMinor: 0, interestMinor: 0, feesMinor: 0, rolls: 0, trades: 0 };
}

function emptyDayAgg(day: string): DayAgg {
  return {
    day,
    ...emptyTotals(),
    expiredOptions: 0,
    expiredContracts: 0,
    assignments: 0,
    plEvents: 0,
    typeCounts: new Array<number>(TRANSACTION_TYPES.length).fill(0),
    symbols: new Map(),
  };
}

/** The day buckets of a ledger being built: currency → day → aggregate. */
export class DayBook {
  private readonly buckets = new Map<string, Map<string, DayAgg>>();

  day(currency: string, day: string): DayAgg {
    let days = this.buckets.get(currency);
    if (!days) {
      days = new Map();
      this.buckets.set(currency, days);
    }
    let agg = days.get(day);
    if (!agg) {
      agg = emptyDayAgg(day);
      days.set(day, agg);
    }
    return agg;
  }

  /**
   * Starts from the days of a published ledger before `beforeDay` (a live ledger resumed from a checkpoint there): copies
   * without their rolls, which the ledger adds again from its roll list when it publishes.
   */
  restoreBefore(byCurrency: ReadonlyMap<string, CurrencyDays>, beforeDay: string): void {
    for (const [currency, days] of byCurrency) {
      const map = new Map<string, DayAgg>();
      for (const agg of days.aggs) {
        if (agg.day >= beforeDay) break;
        const symbols = new Map<string, SymbolAgg>();
        for (const [symbol, row] of agg.symbols) symbols.set(symbol, { ...row, rolls: 0 });
        map.set(agg.day, { ...agg, rolls: 0, rollCreditsMinor: 0, typeCounts: agg.typeCounts.slice(), symbols });
      }
      if (map.size > 0) this.buckets.set(currency, map);
    }
  }

  /** The underlying's row of a day; null for rows without an underlying (cash). */
  symbol(agg: DayAgg, underlying: string): SymbolAgg | null {
    if (underlying === '') return null;
    let row = agg.symbols.get(underlying);
    if (!row) {
      row = emptySymbolAgg();
      agg.symbols.set(underlying, row);
    }
    return row;
  }

  /** The days of every currency, sorted; the reporting currency first, then the others alphabetically. */
  finish(reportingCurrency: string): { currencies: string[]; byCurrency: Map<string, CurrencyDays> } {
    const byCurrency = new Map<string, CurrencyDays>();
    for (const [currency, dayMap] of this.buckets) {
      const days = [...dayMap.keys()].sort();
      const aggs = days.map((day) => dayMap.get(day) ?? emptyDayAgg(day));
      byCurrency.set(currency, { currency, days, aggs });
    }
    const currencies = [...byCurrency.keys()].sort((a, b) => {
      if (a === reportingCurrency) return -1;
      if (b === reportingCurrency) return 1;
      // Stryker disable next-line EqualityOperator: a map's keys are never equal, so `a <= b` orders them as `a < b` does
      return a < b ? -1 : 1;
    });
    return { currencies, byCurrency };
  }
}
