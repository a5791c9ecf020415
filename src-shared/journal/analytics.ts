/**
 * Period and yearly queries over a built ledger (DESIGN §5). They only walk the sorted day buckets of
 * the range (binary search to the first day), never the raw transactions. Money is summed in minor
 * units and rounded to cents once, at the end (`minorToCents`).
 */
import { minorToCents } from '../money';
import type { PerformanceResponseT, PeriodSummary, SummaryResponseT } from '../api/schemas';
import { TRANSACTION_TYPES } from './model';
import { journalDate, monthRange, weekRange } from './dates';
import type { CurrencyDays, DayAgg, Ledger, SymbolAgg } from './ledger';

type PeriodJson = PerformanceResponseT['monthly'];
type DayRow = PeriodJson['breakdown']['byDay'][number];
type SymbolRow = PeriodJson['breakdown']['bySymbol'][number];

export interface PerformanceQuery {
  period: 'weekly' | 'monthly';
  /** YYYY-MM-DD in the journal zone (a date-time is converted to it). */
  date: string;
  from?: string;
  to?: string;
}

/** The summable part of a day: the same fields, so that a period is the sum of its days. */
type Totals = Pick<
  DayAgg,
  'optionsPLMinor' | 'stockPLMinor' | 'lockedInMinor' | 'premiumsMinor' | 'dividendsMinor' | 'interestMinor' | 'feesMinor' | 'rolls' | 'rollCreditsMinor' | 'trades'
>;

function emptyTotals(): Totals {
  return { optionsPLMinor: 0, stockPLMinor: 0, lockedInMinor: 0, premiumsMinor: 0, dividendsMinor: 0, interestMinor: 0, feesMinor: 0, rolls: 0, rollCreditsMinor: 0, trades: 0 };
}

function addTotals(into: Totals, agg: DayAgg): void {
  into.optionsPLMinor += agg.optionsPLMinor;
  into.stockPLMinor += agg.stockPLMinor;
  into.lockedInMinor += agg.lockedInMinor;
  into.premiumsMinor += agg.premiumsMinor;
  into.dividendsMinor += agg.dividendsMinor;
  into.interestMinor += agg.interestMinor;
  into.feesMinor += agg.feesMinor;
  into.rolls += agg.rolls;
  into.rollCreditsMinor += agg.rollCreditsMinor;
  into.trades += agg.trades;
}

/** totalPL of a day (or any totals): realized + dividends + interest − standalone fees. */
export function dayTotalMinor(agg: Pick<DayAgg, 'optionsPLMinor' | 'stockPLMinor' | 'dividendsMinor' | 'interestMinor' | 'feesMinor'>): number {
  return agg.optionsPLMinor + agg.stockPLMinor + agg.dividendsMinor + agg.interestMinor - agg.feesMinor;
}

/** A day shows in byDay / calendar when something that the summary counts happened on it. */
export function isActiveDay(agg: DayAgg): boolean {
  return agg.trades > 0 || agg.plEvents > 0 || agg.rolls > 0;
}

function toSummary(totals: Totals): PeriodSummary {
  const realized = totals.optionsPLMinor + totals.stockPLMinor;
  return {
    realizedPL: minorToCents(realized),
    totalPL: minorToCents(dayTotalMinor(totals)),
    premiumsCollected: minorToCents(totals.premiumsMinor),
    lockedInPremiums: minorToCents(totals.lockedInMinor),
    rolls: totals.rolls,
    rollCredits: minorToCents(totals.rollCreditsMinor),
    dividends: minorToCents(totals.dividendsMinor),
    interest: minorToCents(totals.interestMinor),
    stockPL: minorToCents(totals.stockPLMinor),
    optionsPL: minorToCents(totals.optionsPLMinor),
    fees: minorToCents(totals.feesMinor),
    trades: totals.trades,
    marksAvailable: false,
  };
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

function periodOf(ledger: Ledger, from: string, to: string): PeriodJson {
  const reporting = ledger.byCurrency.get(ledger.reportingCurrency);
  const totals = emptyTotals();
  const byDay: DayRow[] = [];
  const symbols = new Map<string, SymbolAgg>();
  eachDay(reporting, from, to, (agg) => {
    addTotals(totals, agg);
    if (isActiveDay(agg)) {
      byDay.push({
        date: agg.day,
        pl: minorToCents(dayTotalMinor(agg)),
        realizedPL: minorToCents(agg.optionsPLMinor + agg.stockPLMinor),
        premiumsCollected: minorToCents(agg.premiumsMinor),
        trades: agg.trades,
      });
    }
    for (const [symbol, row] of agg.symbols) {
      const sum = symbols.get(symbol);
      if (!sum) {
        symbols.set(symbol, { ...row });
        continue;
      }
      sum.optionsPLMinor += row.optionsPLMinor;
      sum.stockPLMinor += row.stockPLMinor;
      sum.premiumsMinor += row.premiumsMinor;
      sum.dividendsMinor += row.dividendsMinor;
      sum.interestMinor += row.interestMinor;
      sum.feesMinor += row.feesMinor;
      sum.rolls += row.rolls;
      sum.trades += row.trades;
    }
  });
  const ranked = [...symbols].map(([symbol, row]) => ({ symbol, row, plMinor: dayTotalMinor(row) }));
  ranked.sort((a, b) => Math.abs(b.plMinor) - Math.abs(a.plMinor) || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  const bySymbol: SymbolRow[] = ranked.map(({ symbol, row, plMinor }) => ({
    symbol,
    pl: minorToCents(plMinor),
    realizedPL: minorToCents(row.optionsPLMinor + row.stockPLMinor),
    optionsPL: minorToCents(row.optionsPLMinor),
    stockPL: minorToCents(row.stockPLMinor),
    premiumsCollected: minorToCents(row.premiumsMinor),
    dividends: minorToCents(row.dividendsMinor),
    rolls: row.rolls,
    trades: row.trades,
  }));
  const byCurrency: Record<string, PeriodSummary> = {};
  for (const currency of ledger.currencies) {
    if (currency === ledger.reportingCurrency) continue;
    const other = rangeTotals(ledger.byCurrency.get(currency), from, to);
    if (other.any) byCurrency[currency] = toSummary(other.totals);
  }
  return { from, to, currency: ledger.reportingCurrency, summary: toSummary(totals), breakdown: { byDay, bySymbol }, byCurrency };
}

/**
 * `/journal/performance`: the calendar month and the Monday–Sunday week containing `date`, plus the
 * custom range when from/to are given (from > to gives an empty range). `range` and `calendar` follow
 * the custom range if any, else the chosen period.
 */
export function performance(ledger: Ledger, query: PerformanceQuery): Omit<PerformanceResponseT, 'accounts' | 'demo'> {
  const date = journalDate(query.date);
  const month = monthRange(date);
  const week = weekRange(date);
  const monthly = periodOf(ledger, month.from, month.to);
  const weekly = periodOf(ledger, week.from, week.to);
  const hasCustom = query.from !== undefined && query.to !== undefined;
  const custom = hasCustom ? periodOf(ledger, query.from ?? '', query.to ?? '') : undefined;
  const chosen = custom ?? (query.period === 'weekly' ? weekly : monthly);
  const calendarDays = chosen.breakdown.byDay.map((row) => ({ date: row.date, pl: row.pl, trades: row.trades }));
  const response: Omit<PerformanceResponseT, 'accounts' | 'demo'> = {
    monthly,
    weekly,
    range: { period: custom ? 'custom' : query.period, from: chosen.from, to: chosen.to },
    calendar: { from: chosen.from, to: chosen.to, days: calendarDays },
  };
  if (custom) response.custom = custom;
  return response;
}

/** `/journal/summary` for one calendar year (journal-zone dates), in the reporting currency. */
export function yearSummary(ledger: Ledger, year: number): Omit<SummaryResponseT, 'accounts' | 'demo'> {
  const from = `${String(year).padStart(4, '0')}-01-01`;
  const to = `${String(year).padStart(4, '0')}-12-31`;
  const reporting = ledger.byCurrency.get(ledger.reportingCurrency);
  const totals = emptyTotals();
  const typeCounts = new Array<number>(TRANSACTION_TYPES.length).fill(0);
  const monthlyMinor = new Array<number>(12).fill(0);
  const daily: SummaryResponseT['chartData']['daily'] = [];
  const series: SummaryResponseT['stats']['equity']['series'] = [];
  let expiredOptions = 0;
  let expiredContracts = 0;
  let assignments = 0;
  let cumulativeMinor = 0;
  let peakMinor = 0;
  let maxDrawdownMinor = 0;
  let active = 0;
  let winning = 0;
  let losing = 0;
  let best: { date: string; plMinor: number } | null = null;
  let worst: { date: string; plMinor: number } | null = null;

  eachDay(reporting, from, to, (agg) => {
    addTotals(totals, agg);
    for (let i = 0; i < typeCounts.length; i += 1) typeCounts[i] = (typeCounts[i] ?? 0) + (agg.typeCounts[i] ?? 0);
    expiredOptions += agg.expiredOptions;
    expiredContracts += agg.expiredContracts;
    assignments += agg.assignments;
    if (agg.plEvents === 0) return;
    const plMinor = dayTotalMinor(agg);
    const monthIndex = Number(agg.day.slice(5, 7)) - 1;
    monthlyMinor[monthIndex] = (monthlyMinor[monthIndex] ?? 0) + plMinor;
    cumulativeMinor += plMinor;
    peakMinor = Math.max(peakMinor, cumulativeMinor);
    maxDrawdownMinor = Math.max(maxDrawdownMinor, peakMinor - cumulativeMinor);
    active += 1;
    if (plMinor > 0) winning += 1;
    else if (plMinor < 0) losing += 1;
    if (!best || plMinor > best.plMinor) best = { date: agg.day, plMinor };
    if (!worst || plMinor < worst.plMinor) worst = { date: agg.day, plMinor };
    daily.push({ date: agg.day, pl: minorToCents(plMinor), cumulative: minorToCents(cumulativeMinor) });
    series.push({ date: agg.day, equity: minorToCents(cumulativeMinor) });
  });

  let opened = 0;
  let closed = 0;
  let openedUpToYear = 0;
  let closedUpToYear = 0;
  let wins = 0;
  let losses = 0;
  for (const chain of ledger.chains) {
    if (chain.currency !== ledger.reportingCurrency) continue;
    if (chain.openDay <= to) openedUpToYear += 1;
    if (chain.openDay >= from && chain.openDay <= to) opened += 1;
    if (chain.closeDay === null) continue;
    if (chain.closeDay <= to) closedUpToYear += 1;
    if (chain.closeDay >= from && chain.closeDay <= to) {
      closed += 1;
      if (chain.plMinor > 0) wins += 1;
      else losses += 1;
    }
  }

  const tradesByType: Record<string, number> = {};
  TRANSACTION_TYPES.forEach((type, index) => {
    tradesByType[type] = typeCounts[index] ?? 0;
  });

  const byCurrency: SummaryResponseT['byCurrency'] = {};
  for (const currency of ledger.currencies) {
    if (currency === ledger.reportingCurrency) continue;
    const other = rangeTotals(ledger.byCurrency.get(currency), from, to);
    if (!other.any) continue;
    byCurrency[currency] = {
      totalPL: minorToCents(dayTotalMinor(other.totals)),
      realizedPL: minorToCents(other.totals.optionsPLMinor + other.totals.stockPLMinor),
      premiumsCollected: minorToCents(other.totals.premiumsMinor),
      dividends: minorToCents(other.totals.dividendsMinor),
    };
  }

  const dayValue = (value: { date: string; plMinor: number } | null) => (value ? { date: value.date, pl: minorToCents(value.plMinor) } : null);
  return {
    year,
    currency: ledger.reportingCurrency,
    stats: {
      rolls: totals.rolls,
      expiredOptions,
      expiredContracts,
      assignments,
      totalPremium: minorToCents(totals.premiumsMinor),
      totalRealizedPnl: minorToCents(totals.optionsPLMinor + totals.stockPLMinor),
      lockedInPremiums: minorToCents(totals.lockedInMinor),
      optionsPL: minorToCents(totals.optionsPLMinor),
      stockPL: minorToCents(totals.stockPLMinor),
      dividends: minorToCents(totals.dividendsMinor),
      interest: minorToCents(totals.interestMinor),
      fees: minorToCents(totals.feesMinor),
      totalPL: minorToCents(dayTotalMinor(totals)),
      trades: totals.trades,
      chains: { opened, closed, open: openedUpToYear - closedUpToYear, wins, losses, winRate: closed > 0 ? wins / closed : null },
      equity: { series, maxDrawdown: minorToCents(maxDrawdownMinor) },
      tradingDays: { active, winning, losing, bestDay: dayValue(best), worstDay: dayValue(worst) },
      tradesByType,
    },
    chartData: {
      daily,
      monthly: monthlyMinor.map((plMinor, index) => ({ month: `${from.slice(0, 4)}-${String(index + 1).padStart(2, '0')}`, pl: minorToCents(plMinor) })),
    },
    byCurrency,
  };
}
