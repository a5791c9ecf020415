import type { ImportedTransaction, OptionRight, Transaction, TransactionType } from '../src-shared/journal/model';
import { occSymbol } from '../src-shared/journal/model';
import { dayOfInstant as tradeDayOf } from '../src-shared/zone';
import { asMinor, toMinor } from '../src-shared/money';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contractColumns } from '../src-main/importers/common/options';
import { parseImport } from '../src-main/importers/index';
import { BROKER_FIXTURES_SHARED } from './paths';
import { asAccountId, asTicker } from '../src-shared/ids';

/** What the store does to an imported row: an id, an account id and the New York trade day. */
export function stored(rows: readonly ImportedTransaction[], options: { fastDay?: boolean } = {}): Transaction[] {
  return rows.map((row, index) => ({
    ...row,
    id: `${row.source}:${row.brokerRowId}:${String(index).padStart(7, '0')}`,
    accountId: asAccountId(row.accountName),
    importId: 1,
    tradeDay: options.fastDay ? row.tradeDate.slice(0, 10) : tradeDayOf(row.tradeDate),
  }));
}

/** Webull settles positions past their expiration by inference: "now" is fixed so the real files do not age. */
export const REAL_FILES_AS_OF = new Date('2026-03-09T00:00:00Z');

/** A real broker file of ../shared/fixtures/brokers imported in-process (detected as the app detects it) and stored. */
export function loadRealBrokerFile(file: string): Transaction[] {
  const parsed = parseImport(readFileSync(join(BROKER_FIXTURES_SHARED, file), 'utf8'), 'auto', { asOf: REAL_FILES_AS_OF });
  if (!parsed.ok) throw new Error(`${file}: ${parsed.detail}`);
  return stored(parsed.result.transactions.map((row) => row.transaction));
}

let counter = 0;

interface TxInput {
  type: TransactionType;
  /** Underlying ticker. */
  ticker?: string;
  option?: { expiration: string; strike: number; right: OptionRight };
  quantity?: number;
  /** Per share, currency units. */
  price?: number;
  commission?: number;
  fees?: number;
  /** Cash amount, currency units (dividends, interest, fees); trades derive it. */
  amount?: number;
  /** ISO instant, or a New York date-time `YYYY-MM-DDTHH:MM` (converted). */
  at: string;
  account?: string;
  currency?: string;
  orderId?: string | null;
  id?: string;
  previousSymbol?: string;
  multiplier?: number;
  /** `manual` for an opening entered by hand (default `test`). */
  source?: string;
}

/** A neutral transaction written by hand, money in currency units (converted exactly to minor units). */
export function tx(input: TxInput): Transaction {
  counter += 1;
  const ticker = input.ticker ?? 'XYZ';
  const isOption = input.option !== undefined;
  const multiplier = input.multiplier ?? (isOption ? 100 : 1);
  const quantity = input.quantity ?? 0;
  const priceMinor = toMinor(input.price ?? 0);
  const commissionMinor = toMinor(input.commission ?? 0);
  const feesMinor = toMinor(input.fees ?? 0);
  const sells = ['SELL_TO_OPEN', 'SELL_TO_CLOSE', 'SELL', 'SELL_SHORT'].includes(input.type);
  const buys = ['BUY_TO_OPEN', 'BUY_TO_CLOSE', 'BUY', 'BUY_TO_COVER'].includes(input.type);
  const gross = Math.round(priceMinor * quantity * multiplier);
  const amountMinor = input.amount !== undefined ? toMinor(input.amount) : asMinor((sells ? gross : buys ? -gross : 0) - commissionMinor - feesMinor);
  const instant = /z|[+-]\d\d:?\d\d$/i.test(input.at) ? input.at : nyToUtc(input.at);
  const row: ImportedTransaction = {
    accountName: input.account ?? 'acct',
    brokerRowId: input.id ?? `r${counter}`,
    type: input.type,
    symbol: input.option ? occSymbol(ticker, input.option.expiration, input.option.right, input.option.strike) : ticker,
    underlying: asTicker(ticker),
    ...contractColumns(input.option ?? null),
    quantity, priceMinor, multiplier, amountMinor, commissionMinor, feesMinor,
    currency: input.currency ?? 'USD',
    tradeDate: instant,
    orderId: input.orderId ?? null,
    description: '',
    source: input.source ?? 'test',
    ...(input.previousSymbol ? { previousSymbol: input.previousSymbol } : {}),
  };
  return {
    ...row,
    id: input.id ?? `id${String(counter).padStart(6, '0')}`,
    accountId: asAccountId(row.accountName),
    importId: 1,
    tradeDay: tradeDayOf(instant),
  };
}

import { DateTime } from 'luxon';
function nyToUtc(local: string): string {
  const parsed = DateTime.fromISO(local, { zone: 'America/New_York' });
  return parsed.toUTC().toISO() ?? local;
}

import { buildLedger, performance, yearSummary, type Ledger, type PerformanceQuery } from '../src-shared/journal/index';
import { presentPerformance, presentPeriod, presentYear } from '../src-main/server/presenters/journal';

/** /journal/performance as the API sends it (without accounts): the analytics, presented. */
export function performanceJson(ledger: Ledger, query: PerformanceQuery) {
  return presentPerformance(performance(ledger, query));
}

/** /journal/summary as the API sends it (without accounts). */
export function yearJson(ledger: Ledger, year: number) {
  return presentYear(yearSummary(ledger, year));
}

export function ledgerOf(transactions: readonly Transaction[], reportingCurrency = 'USD'): Ledger {
  return buildLedger(transactions, { reportingCurrency });
}

/** The summary over all time (a custom range wide enough for every test). */
export function allTime(ledger: Ledger) {
  const result = performance(ledger, { period: 'monthly', date: '2024-01-01', from: '1990-01-01', to: '2100-12-31' });
  if (!result.custom) throw new Error('custom range missing');
  return presentPeriod(result.custom);
}
