/**
 * The /v1 JSON of the journal: the analytics and the journal service answer in domain values (money in integer minor
 * units), and these build the response objects, rounding money to cents once, here.
 */
import { isAdjustedOption } from '../../../src-shared/exposure/roots';
import type { AccountSummary } from '../../services/journal/ledger-index';
import type { AccountsResponseT, PerformanceResponseT, PeriodSummary, SummaryResponseT, TransactionJson } from '../../../src-shared/api/schemas';
import { dayTotalMinor, rangePeriod, type PerformanceResult, type PeriodResult, type TotalsResult, type YearResult } from '../../../src-shared/journal/index';
import type { Transaction } from '../../../src-shared/journal/model';
import type { AccountDividends } from '../../../src-shared/journal/ledger';
import { addMinor, asMinor, minorToCents, centsOrNull, minorToUnits, type Minor } from '../../../src-shared/money';

type PeriodJson = PerformanceResponseT['monthly'];

/** GET /journal/accounts: each account with its transactions, first and last trade days, and dividends outside campaigns. */
export function presentAccounts(list: { accounts: readonly AccountSummary[]; demo: boolean; accountDividends?: readonly AccountDividends[] }): AccountsResponseT {
  const dividendsOf = (id: string) =>
    (list.accountDividends ?? [])
      .filter((d) => d.accountId === id)
      .sort((a, b) => a.currency.localeCompare(b.currency))
      .map((d) => ({ currency: d.currency, amount: minorToCents(asMinor(d.dividendsMinor)) }));
  return {
    accounts: list.accounts.map((a) => ({ id: a.id, name: a.name, transactions: a.transactions, firstTradeDay: a.firstTradeDay, lastTradeDay: a.lastTradeDay, dividendsOutsideCampaigns: dividendsOf(a.id) })),
    demo: list.demo,
  };
}

/** Unmatched closes of a period: rows and units (fractional shares summed as floats: rounded past their noise). */
function presentUnmatched(totals: Pick<TotalsResult, 'unmatchedCloses' | 'unmatchedQuantity'>): PeriodSummary['unmatched'] {
  return { closes: totals.unmatchedCloses, quantity: Math.round(totals.unmatchedQuantity * 1e8) / 1e8 };
}

/** The summary of a period (or of another currency's totals). Unrealized P&L needs marks, which the journal has not. */
export function presentTotals(totals: TotalsResult): PeriodSummary {
  return {
    realizedPL: minorToCents(addMinor(totals.optionsPLMinor, totals.stockPLMinor)),
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
    commissions: minorToCents(totals.commissionsMinor),
    unmatched: presentUnmatched(totals),
    trades: totals.trades,
    marksAvailable: false,
  };
}

function presentByCurrency<T>(byCurrency: Record<string, TotalsResult>, present: (totals: TotalsResult) => T): Record<string, T> {
  const json: Record<string, T> = {};
  for (const [currency, totals] of Object.entries(byCurrency)) json[currency] = present(totals);
  return json;
}

export function presentPeriod(period: PeriodResult): PeriodJson {
  return {
    from: period.from,
    to: period.to,
    currency: period.currency,
    summary: presentTotals(period.totals),
    breakdown: {
      byDay: period.byDay.map((day) => ({
        date: day.date,
        pl: minorToCents(day.plMinor),
        realizedPL: minorToCents(day.realizedMinor),
        premiumsCollected: minorToCents(day.premiumsMinor),
        trades: day.trades,
      })),
      bySymbol: period.bySymbol.map((row) => ({
        symbol: row.symbol,
        pl: minorToCents(row.plMinor),
        realizedPL: minorToCents(addMinor(row.optionsPLMinor, row.stockPLMinor)),
        optionsPL: minorToCents(row.optionsPLMinor),
        stockPL: minorToCents(row.stockPLMinor),
        premiumsCollected: minorToCents(row.premiumsMinor),
        dividends: minorToCents(row.dividendsMinor),
        rolls: row.rolls,
        trades: row.trades,
      })),
    },
    byCurrency: presentByCurrency(period.byCurrency, presentTotals),
  };
}

/** /journal/performance without the journal's accounts and demo flag (the route adds them). */
export function presentPerformance(result: PerformanceResult): Omit<PerformanceResponseT, 'accounts' | 'demo'> {
  const monthly = presentPeriod(result.monthly);
  const weekly = presentPeriod(result.weekly);
  const custom = result.custom === undefined ? undefined : presentPeriod(result.custom);
  const shown = rangePeriod(result);
  const json: Omit<PerformanceResponseT, 'accounts' | 'demo'> = {
    monthly,
    weekly,
    range: result.range,
    calendar: { from: shown.from, to: shown.to, days: shown.byDay.map((day) => ({ date: day.date, pl: minorToCents(day.plMinor), trades: day.trades })) },
  };
  if (custom !== undefined) json.custom = custom;
  return json;
}

/** /journal/summary without the journal's accounts and demo flag. */
export function presentYear(result: YearResult): Omit<SummaryResponseT, 'accounts' | 'demo'> {
  const { totals } = result;
  const dayValue = (day: { date: string; plMinor: Minor } | null) => (day === null ? null : { date: day.date, pl: minorToCents(day.plMinor) });
  const yearText = String(result.year).padStart(4, '0');
  return {
    year: result.year,
    currency: result.currency,
    stats: {
      rolls: totals.rolls,
      expiredOptions: result.expiredOptions,
      expiredContracts: result.expiredContracts,
      assignments: result.assignments,
      totalPremium: minorToCents(totals.premiumsMinor),
      totalRealizedPnl: minorToCents(addMinor(totals.optionsPLMinor, totals.stockPLMinor)),
      lockedInPremiums: minorToCents(totals.lockedInMinor),
      optionsPL: minorToCents(totals.optionsPLMinor),
      stockPL: minorToCents(totals.stockPLMinor),
      dividends: minorToCents(totals.dividendsMinor),
      interest: minorToCents(totals.interestMinor),
      fees: minorToCents(totals.feesMinor),
      commissions: minorToCents(totals.commissionsMinor),
      unmatched: presentUnmatched(totals),
      totalPL: minorToCents(dayTotalMinor(totals)),
      trades: totals.trades,
      chains: result.campaigns,
      equity: { series: result.daily.map((day) => ({ date: day.date, equity: minorToCents(day.cumulativeMinor) })), maxDrawdown: minorToCents(result.maxDrawdownMinor) },
      tradingDays: { ...result.tradingDays, bestDay: dayValue(result.tradingDays.bestDay), worstDay: dayValue(result.tradingDays.worstDay) },
      tradesByType: result.tradesByType,
      otherRowsByType: result.otherRowsByType,
    },
    chartData: {
      daily: result.daily.map((day) => ({ date: day.date, pl: minorToCents(day.plMinor), cumulative: minorToCents(day.cumulativeMinor) })),
      monthly: result.monthlyMinor.map((plMinor, index) => ({ month: `${yearText}-${String(index + 1).padStart(2, '0')}`, pl: minorToCents(plMinor) })),
    },
    byCurrency: presentByCurrency(result.byCurrency, (other) => ({
      totalPL: minorToCents(dayTotalMinor(other)),
      realizedPL: minorToCents(addMinor(other.optionsPLMinor, other.stockPLMinor)),
      premiumsCollected: minorToCents(other.premiumsMinor),
      dividends: minorToCents(other.dividendsMinor),
      commissions: minorToCents(other.commissionsMinor),
      unmatched: presentUnmatched(other),
    })),
  };
}

export function presentTransaction(tx: Omit<Transaction, 'accountId'> & { accountId: string }, realizedMinor: Minor | null): TransactionJson {
  return {
    id: tx.id,
    accountId: tx.accountId,
    accountName: tx.accountName,
    type: tx.type,
    symbol: tx.symbol,
    underlying: tx.underlying,
    isOption: tx.isOption,
    expiration: tx.expiration,
    strike: tx.strike,
    right: tx.right,
    quantity: tx.quantity,
    price: minorToUnits(tx.priceMinor),
    multiplier: tx.multiplier,
    amount: minorToCents(tx.amountMinor),
    commission: minorToCents(tx.commissionMinor),
    fees: minorToCents(tx.feesMinor),
    currency: tx.currency,
    tradeDate: tx.tradeDate,
    tradeDay: tx.tradeDay,
    adjusted: isAdjustedOption(tx),
    orderId: tx.orderId,
    description: tx.description,
    source: tx.source,
    importId: tx.importId,
    inferred: tx.inferred === true,
    realizedPL: centsOrNull(realizedMinor),
  };
}
