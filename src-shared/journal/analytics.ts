/**
 * Period and yearly queries over a built ledger (docs/journal.md). They only walk the sorted day buckets of
 * the range (binary search to the first day), never the raw transactions. Results are domain values: money in
 * integer minor units, summed exactly; the server's presenters round to cents for the /v1 JSON.
 */
import { TRADE_ROW_TYPES } from './constants';
import { TRANSACTION_TYPES } from './model';
import { monthRange, weekRange } from '../calendar';
import { dateOfQuery as journalDate } from '../zone';
import type { CurrencyDays, DayAgg, Ledger, SymbolAgg } from './ledger';
import { emptyTotals, TOTAL_FIELDS, type Totals } from './periods';
import { minorFields, asMinor, type Minor, type MinorFields } from '../money';

export type { Totals } from './periods';

/** A period's sums as the queries hand them out: the money fields branded (the day buckets keep plain numbers). */
export type TotalsResult = MinorFields<Totals>;

export interface PerformanceQuery {
  period: 'weekly' | 'monthly';
  /** YYYY-MM-DD in the journal zone (a date-time is converted to it). */
  date: string;
  from?: string;
  to?: string;
}

/** The summable part of a symbol's day. */
const SYMBOL_FIELDS = ['optionsPLMinor', 'stockPLMinor', 'premiumsMinor', 'dividendsMinor', 'interestMinor', 'feesMinor', 'rolls', 'trades'] as const satisfies ReadonlyArray<keyof SymbolAgg>;

/** Adds the fields of `from` into `into` (integers: minor units and counts, exact). */
function addFields<K extends string>(into: Record<K, number>, from: Readonly<Record<K, number>>, fields: readonly K[]): void {
  for (const field of fields) into[field] += from[field];
}

function addTotals(into: Totals, agg: DayAgg): void {
  addFields(into, agg, TOTAL_FIELDS);
}

/** totalPL of a day (or any totals): realized + dividends + interest − standalone fees. */
export function dayTotalMinor(agg: Pick<DayAgg, 'optionsPLMinor' | 'stockPLMinor' | 'dividendsMinor' | 'interestMinor' | 'feesMinor'>): Minor {
  return asMinor(agg.optionsPLMinor + agg.stockPLMinor + agg.dividendsMinor + agg.interestMinor - agg.feesMinor);
}

/** A day shows in byDay / calendar when something that the summary counts happened on it. */
export function isActiveDay(agg: DayAgg): boolean {
  return agg.trades > 0 || agg.plEvents > 0 || agg.rolls > 0;
}

/** Index of the first day ≥ `from`. */
function lowerBound(days: readonly string[], from: string): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((days[mid] ?? '') < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Calls `visit` for each day bucket with from ≤ day ≤ to, in date order. */
function eachDay(series: CurrencyDays | undefined, from: string, to: string, visit: (agg: DayAgg) => void): void {
  if (!series || from > to) return;
  for (let i = lowerBound(series.days, from); i < series.aggs.length; i += 1) {
    const agg = series.aggs[i];
    if (!agg || agg.day > to) break;
    visit(agg);
  }
}

function rangeTotals(series: CurrencyDays | undefined, from: string, to: string): { totals: Totals; any: boolean } {
  const totals = emptyTotals();
  let any = false;
  eachDay(series, from, to, (agg) => {
    addTotals(totals, agg);
    any = true;
  });
  return { totals, any };
}

/** A day of a period that counts (see isActiveDay): its total P&L, realized, premiums and trades. */
export interface DayResult {
  date: string;
  plMinor: Minor;
  realizedMinor: Minor;
  premiumsMinor: Minor;
  trades: number;
}

/** The totals of every currency but the reporting one, for those with activity in the range. */
function otherCurrencies(ledger: Ledger, from: string, to: string): Record<string, TotalsResult> {
  const byCurrency: Record<string, TotalsResult> = {};
  for (const currency of ledger.currencies) {
    if (currency === ledger.reportingCurrency) continue;
    const other = rangeTotals(ledger.byCurrency.get(currency), from, to);
    if (other.any) byCurrency[currency] = minorFields(other.totals);
  }
  return byCurrency;
}

/** A symbol's totals over a period (the summable part of its days). */
export interface SymbolResult extends MinorFields<SymbolAgg> {
  symbol: string;
  /** totalPL of the symbol: realized + dividends + interest − standalone fees. */
  plMinor: Minor;
}

/** One period (a week, a month, a custom range) in the reporting currency, with the other currencies apart. */
export interface PeriodResult {
  from: string;
  to: string;
  currency: string;
  totals: TotalsResult;
  byDay: DayResult[];
  /** Largest |P&L| first, then by symbol. */
  bySymbol: SymbolResult[];
  /** Other currencies with activity in the period, never mixed into `totals`. */
  byCurrency: Record<string, TotalsResult>;
}

function periodOf(ledger: Ledger, from: string, to: string): PeriodResult {
  const reporting = ledger.byCurrency.get(ledger.reportingCurrency);
  const totals = emptyTotals();
  const byDay: DayResult[] = [];
  const symbols = new Map<string, SymbolAgg>();
  eachDay(reporting, from, to, (agg) => {
    addTotals(totals, agg);
    if (isActiveDay(agg)) {
      byDay.push({ date: agg.day, plMinor: dayTotalMinor(agg), realizedMinor: asMinor(agg.optionsPLMinor + agg.stockPLMinor), premiumsMinor: asMinor(agg.premiumsMinor), trades: agg.trades });
    }
    for (const [symbol, row] of agg.symbols) {
      const sum = symbols.get(symbol);
      if (sum) addFields(sum, row, SYMBOL_FIELDS);
      else symbols.set(symbol, { ...row });
    }
  });
  const bySymbol: SymbolResult[] = [...symbols].map(([symbol, row]) => ({ symbol, ...minorFields(row), plMinor: dayTotalMinor(row) }));
  bySymbol.sort((a, b) => Math.abs(b.plMinor) - Math.abs(a.plMinor) || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  return { from, to, currency: ledger.reportingCurrency, totals: minorFields(totals), byDay, bySymbol, byCurrency: otherCurrencies(ledger, from, to) };
}

export interface PerformanceResult {
  monthly: PeriodResult;
  weekly: PeriodResult;
  custom?: PeriodResult;
  /** The custom range if any, else the chosen period: what the calendar shows. */
  range: { period: 'weekly' | 'monthly' | 'custom'; from: string; to: string };
}

/**
 * `/journal/performance`: the calendar month and the Monday–Sunday week containing `date`, plus the
 * custom range when from/to are given (from > to gives an empty range). `range` follows the custom range if any,
 * else the chosen period.
 */
export function performance(ledger: Ledger, query: PerformanceQuery): PerformanceResult {
  const date = journalDate(query.date);
  const month = monthRange(date);
  const week = weekRange(date);
  const monthly = periodOf(ledger, month.from, month.to);
  const weekly = periodOf(ledger, week.from, week.to);
  const custom = query.from !== undefined && query.to !== undefined ? periodOf(ledger, query.from, query.to) : undefined;
  const chosen = custom ?? (query.period === 'weekly' ? weekly : monthly);
  const result: PerformanceResult = { monthly, weekly, range: { period: custom ? 'custom' : query.period, from: chosen.from, to: chosen.to } };
  if (custom) result.custom = custom;
  return result;
}

/** The period of a performance result that `range` names (the calendar's days are its active days). */
export function rangePeriod(result: PerformanceResult): PeriodResult {
  return result.custom ?? (result.range.period === 'weekly' ? result.weekly : result.monthly);
}

export interface DayPL {
  date: string;
  plMinor: Minor;
}

export interface YearResult {
  year: number;
  currency: string;
  totals: TotalsResult;
  expiredOptions: number;
  expiredContracts: number;
  assignments: number;
  campaigns: { opened: number; closed: number; open: number; wins: number; losses: number; winRate: number | null };
  /** Days with P&L events, in date order, with the cumulative P&L of the year after each. */
  daily: Array<DayPL & { cumulativeMinor: Minor }>;
  /** Largest peak-to-trough fall of the cumulative P&L (≥ 0). */
  maxDrawdownMinor: Minor;
  tradingDays: { active: number; winning: number; losing: number; bestDay: DayPL | null; worstDay: DayPL | null };
  /** Count of each trade type (fills and settlements, every one named, 0 included). */
  tradesByType: Record<string, number>;
  /** Count of each other type (deposits, dividends, fees...: not trades, issue 18), every one named. */
  otherRowsByType: Record<string, number>;
  /** P&L of each calendar month, January first. */
  monthlyMinor: Minor[];
  /** Other currencies with activity in the year. */
  byCurrency: Record<string, TotalsResult>;
}

/** Opened, closed and open campaigns of the reporting currency as of the year's end; wins and losses of those closed in it. */
function campaignCounts(ledger: Ledger, from: string, to: string): YearResult['campaigns'] {
  const counts = { opened: 0, closed: 0, openedUpToYear: 0, closedUpToYear: 0, wins: 0, losses: 0 };
  for (const campaign of ledger.campaigns) {
    if (campaign.currency !== ledger.reportingCurrency) continue;
    if (campaign.openDay <= to) counts.openedUpToYear += 1;
    if (campaign.openDay >= from && campaign.openDay <= to) counts.opened += 1;
    if (campaign.closeDay === null) continue;
    if (campaign.closeDay <= to) counts.closedUpToYear += 1;
    if (campaign.closeDay >= from && campaign.closeDay <= to) {
      counts.closed += 1;
      if (campaign.plMinor > 0) counts.wins += 1;
      else counts.losses += 1;
    }
  }
  const { opened, closed, wins, losses } = counts;
  return { opened, closed, open: counts.openedUpToYear - counts.closedUpToYear, wins, losses, winRate: closed > 0 ? wins / closed : null };
}

/** `/journal/summary` for one calendar year (journal-zone dates), in the reporting currency. */
export function yearSummary(ledger: Ledger, year: number): YearResult {
  const from = `${String(year).padStart(4, '0')}-01-01`;
  const to = `${String(year).padStart(4, '0')}-12-31`;
  const totals = emptyTotals();
  const typeCounts = new Array<number>(TRANSACTION_TYPES.length).fill(0);
  const monthlyMinor = new Array<number>(12).fill(0);
  const daily: YearResult['daily'] = [];
  const events = { expiredOptions: 0, expiredContracts: 0, assignments: 0 };
  const tradingDays: YearResult['tradingDays'] = { active: 0, winning: 0, losing: 0, bestDay: null, worstDay: null };
  const equity = { cumulativeMinor: 0, peakMinor: 0, maxDrawdownMinor: 0 };

  eachDay(ledger.byCurrency.get(ledger.reportingCurrency), from, to, (agg) => {
    addTotals(totals, agg);
    for (let i = 0; i < typeCounts.length; i += 1) typeCounts[i] = (typeCounts[i] ?? 0) + (agg.typeCounts[i] ?? 0);
    addFields(events, agg, ['expiredOptions', 'expiredContracts', 'assignments']);
    if (agg.plEvents === 0) return;
    const plMinor = dayTotalMinor(agg);
    const monthIndex = Number(agg.day.slice(5, 7)) - 1;
    monthlyMinor[monthIndex] = (monthlyMinor[monthIndex] ?? 0) + plMinor;
    equity.cumulativeMinor += plMinor;
    equity.peakMinor = Math.max(equity.peakMinor, equity.cumulativeMinor);
    equity.maxDrawdownMinor = Math.max(equity.maxDrawdownMinor, equity.peakMinor - equity.cumulativeMinor);
    tradingDays.active += 1;
    if (plMinor > 0) tradingDays.winning += 1;
    else if (plMinor < 0) tradingDays.losing += 1;
    if (!tradingDays.bestDay || plMinor > tradingDays.bestDay.plMinor) tradingDays.bestDay = { date: agg.day, plMinor };
    if (!tradingDays.worstDay || plMinor < tradingDays.worstDay.plMinor) tradingDays.worstDay = { date: agg.day, plMinor };
    daily.push({ date: agg.day, plMinor, cumulativeMinor: asMinor(equity.cumulativeMinor) });
  });

  const tradesByType: Record<string, number> = {};
  const otherRowsByType: Record<string, number> = {};
  TRANSACTION_TYPES.forEach((type, index) => {
    (TRADE_ROW_TYPES.includes(type) ? tradesByType : otherRowsByType)[type] = typeCounts[index] ?? 0;
  });

  return {
    year,
    currency: ledger.reportingCurrency,
    totals: minorFields(totals),
    ...events,
    campaigns: campaignCounts(ledger, from, to),
    daily,
    maxDrawdownMinor: asMinor(equity.maxDrawdownMinor),
    tradingDays,
    tradesByType,
    otherRowsByType,
    monthlyMinor: monthlyMinor.map(asMinor),
    byCurrency: otherCurrencies(ledger, from, to),
  };
}
