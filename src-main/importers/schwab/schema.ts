/**
 * Schwab "Transactions" CSV export (schwab.com → History → Export):
 *   [optional title row `"Transactions  for account XXXX-1234 as of 03/15/2024 ..."`]
 *   `"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"`
 *   rows, newest first; [optional trailing `"Transactions Total","","",...,"-$26,582.91"`].
 * Dates are `MM/DD/YYYY` or `MM/DD/YYYY as of MM/DD/YYYY` (posted on the first, effective on the second;
 * we date the row by the "as of" date, when the trade or event happened). Money is `$1,234.56`/`-$1,234.56`.
 * Options are `XYZ 03/20/2026 50.00 P`.
 */
import type { OptionRight } from '../../../src-shared/journal/model';
import { occSymbol } from '../../../src-shared/journal/model';
import type { RowReader } from '../common/cells';
import { dayToUtc, mdyToYmd } from '../common/dates';
import type { RowIdentity } from '../common/result';
import { absMinor, type Minor } from '../../../src-shared/money';

export const REQUIRED = ['Date', 'Action', 'Symbol', 'Description', 'Quantity', 'Price', 'Fees & Comm', 'Amount'] as const;

/** True for the header (its column names, in any order). */
export function isHeader(names: Set<string>): boolean {
  return names.has('date') && names.has('action') && names.has('fees & comm') && names.has('amount');
}

export interface SchwabOption {
  root: string;
  expiration: string;
  strike: number;
  right: OptionRight;
  symbol: string;
}

/** `XYZ 03/20/2026 50.00 P` → OCC fields; null for anything else. */
export function parseSchwabOption(text: string): SchwabOption | null {
  const match = /^(\S+)\s+(\d{1,2}\/\d{1,2}\/\d{4})\s+(\d+(?:\.\d+)?)\s+([CP])$/.exec(text.trim().toUpperCase());
  if (!match) return null;
  const [, root, date, strikeText, rightText] = match;
  if (root === undefined || date === undefined || strikeText === undefined || rightText === undefined) return null;
  const expiration = mdyToYmd(date);
  if (expiration === null) return null;
  const right: OptionRight = rightText === 'C' ? 'C' : 'P';
  const strike = Number(strikeText);
  return { root, expiration, strike, right, symbol: occSymbol(root, expiration, right, strike) };
}

export interface SchwabRow {
  line: number;
  rowId: string;
  /** Effective date (the "as of" date when there is one), YYYY-MM-DD. */
  day: string;
  tradeDate: string;
  action: string;
  symbol: string;
  option: SchwabOption | null;
  /** Signed as in the file (corporate actions give the removed security a negative quantity). */
  quantity: number;
  priceMinor: Minor;
  feesMinor: Minor;
  amountMinor: Minor;
  description: string;
}

/** `03/15/2024` or `03/15/2024 as of 03/14/2024` → the effective date. */
export function effectiveDay(text: string): string | null {
  const match = /^(\S+)(?:\s+as\s+of\s+(\S+))?$/i.exec(text.trim());
  if (!match?.[1]) return null;
  return mdyToYmd(match[2] ?? match[1]);
}

export function readRow(reader: RowReader, identity: RowIdentity): SchwabRow | null {
  const record = reader.record;
  const dateText = reader.text('Date');
  const day = effectiveDay(dateText);
  const tradeDate = day !== null ? dayToUtc(day) : null;
  if (tradeDate === null) reader.fail('Date', `not a date (MM/DD/YYYY [as of MM/DD/YYYY]): "${dateText}"`);
  const action = reader.text('Action');
  if (action === '') reader.fail('Action', 'empty');
  const symbol = reader.text('Symbol');
  const quantity = reader.number('Quantity');
  const priceMinor = absMinor(reader.money('Price'));
  const feesMinor = absMinor(reader.money('Fees & Comm'));
  const amountMinor = reader.money('Amount');
  if (!reader.ok || day === null || tradeDate === null) return null;
  return {
    line: record.line,
    rowId: identity.next(REQUIRED.map((name) => reader.text(name))),
    day,
    tradeDate,
    action,
    symbol,
    option: parseSchwabOption(symbol),
    quantity,
    priceMinor,
    feesMinor,
    amountMinor,
    description: reader.text('Description'),
  };
}
