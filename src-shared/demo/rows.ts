/**
 * What the generated journals share (src-shared/demo/journal.ts, wheel.ts): a neutral transaction built from a few
 * inputs, with the cash the broker would book, and Black–Scholes prices for the simulated fills.
 */
import { occSymbol, type ImportedTransaction, type OptionRight, type TransactionType } from '../journal/model';
import { addDays, dayOfWeek, isoInstant } from '../calendar';
import { NEW_YORK, zonedTimeToMs } from '../zone';
import { asMinor } from '../money';
import { asTicker } from '../ids';

/** Standard normal CDF (Abramowitz–Stegun 26.2.17, |error| < 7.5e-8). */
function normCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const poly = t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  const tail = Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI) * poly;
  return x >= 0 ? 1 - tail : tail;
}

export function blackScholes(right: OptionRight, spot: number, strike: number, tYears: number, iv: number, rate = 0.04): number {
  if (tYears <= 0) return Math.max(0, right === 'C' ? spot - strike : strike - spot);
  const sqrtT = Math.sqrt(tYears);
  const d1 = (Math.log(spot / strike) + (rate + (iv * iv) / 2) * tYears) / (iv * sqrtT);
  const d2 = d1 - iv * sqrtT;
  const df = Math.exp(-rate * tYears);
  return right === 'C' ? spot * normCdf(d1) - strike * df * normCdf(d2) : strike * df * normCdf(-d2) - spot * normCdf(-d1);
}

/** Price → minor units, on the cent grid. */
export function centsMinor(units: number): number {
  return Math.round(units * 100) * 100;
}

export interface RowInput {
  type: TransactionType;
  ticker: string;
  option?: { expiration: string; strike: number; right: OptionRight };
  quantity: number;
  priceMinor: number;
  commissionMinor: number;
  feesMinor: number;
  tradeDate: string;
  orderId: string | null;
  description: string;
  amountMinor?: number;
}

const CASH_SIGN: Partial<Record<TransactionType, number>> = {
  SELL_TO_OPEN: 1,
  SELL_TO_CLOSE: 1,
  SELL: 1,
  BUY_TO_OPEN: -1,
  BUY_TO_CLOSE: -1,
  BUY: -1,
};

export function row(account: string, source: string, currency: string, id: string, input: RowInput): ImportedTransaction {
  const multiplier = input.option ? 100 : 1;
  const gross = Math.round(input.priceMinor * input.quantity * multiplier);
  const sign = CASH_SIGN[input.type] ?? 0;
  return {
    accountName: account,
    brokerRowId: id,
    type: input.type,
    symbol: input.option ? occSymbol(input.ticker, input.option.expiration, input.option.right, input.option.strike) : input.ticker,
    underlying: asTicker(input.ticker),
    isOption: input.option !== undefined,
    expiration: input.option?.expiration ?? null,
    strike: input.option?.strike ?? null,
    right: input.option?.right ?? null,
    quantity: input.quantity,
    // The demo's figures are hand-made counts of minor units: branded here, where they become transactions.
    priceMinor: asMinor(input.priceMinor),
    multiplier,
    amountMinor: asMinor(input.amountMinor ?? sign * gross - input.commissionMinor - input.feesMinor),
    commissionMinor: asMinor(input.commissionMinor),
    feesMinor: asMinor(input.feesMinor),
    currency,
    tradeDate: input.tradeDate,
    orderId: input.orderId,
    description: input.description,
    source,
  };
}

/** First Friday on or after `date`. */
export function fridayOnOrAfter(date: string): string {
  return addDays(date, (5 - dayOfWeek(date) + 7) % 7);
}

/** A New York wall-clock time of `day` as a compact UTC instant. */
export function nyInstant(day: string, hour: number, minute: number): string {
  return isoInstant(zonedTimeToMs(day, { hour, minute }, NEW_YORK), { compact: true });
}
