/**
 * TD Ameritrade's website history, `transactions.csv` (My Account → History & Statements → Transactions → Download):
 * one table and a footer,
 *
 *   DATE,TRANSACTION ID,DESCRIPTION,QUANTITY,SYMBOL,PRICE,COMMISSION,AMOUNT,REG FEE,SHORT-TERM RDM FEE,FUND REDEMPTION FEE, DEFERRED SALES CHARGE
 *   06/11/2021,35123456789,Bought 30 BP @ 27.71,30,BP,27.71,0.00,-831.30,,,,
 *   01/05/2021,31123456789,Sold 1 SPY Jan 15 2021 375.0 Put @ 2.15,1,SPY Jan 15 2021 375.0 Put,2.15,0.65,214.33,0.02,,,
 *   ***END OF FILE***
 *
 * (older downloads add `NET CASH BALANCE` after AMOUNT). Dates only (16:00 New York); AMOUNT is the net cash, after
 * the commission and the fee columns. The description says what a row is: `Bought` / `Sold` (shares, options,
 * bills), `Sold Short` / `Bought to Cover`, `REMOVAL OF OPTION DUE TO EXPIRATION|ASSIGNMENT|EXERCISE` (the option in
 * SYMBOL), dividends, interest, fees, funding. An option is written out in SYMBOL (`SPY Jan 15 2021 375.0 Put`, or
 * the older `SPY_011521P375`); a fill says buy or sell, and opens or closes by the file's own running position
 * (oldest first). Bills and bonds are priced in percent of par (their multiplier from the cash, importers/index.ts).
 * Listed oldest first in the files seen; read by their dates either way.
 */
import type { RawTransaction, TransactionType } from '../../../src-shared/journal/model';
import { ZERO_MINOR, absMinor, addMinor, subMinor, type Minor } from '../../../src-shared/money';
import { inferOptionFill, pricePerShareMinor } from '../common/amounts';
import type { RowReader } from '../common/cells';
import { dayToUtc, mdyToYmd } from '../common/dates';
import { optionFromText } from '../common/option-text';
import { optionFields, withOption, type OptionFields } from '../common/options';
import { ResultCollector, RowIdentity, accountFor, listingByDates, transaction } from '../common/result';
import { tableReaders, type FileHead, nameSet } from '../common/table';
import type { ParseOptions, ParseResult, RawRow } from '../types';

export const TD_TRANSACTIONS_SOURCE = 'tdameritrade-csv';
const REQUIRED = ['DATE', 'TRANSACTION ID', 'DESCRIPTION', 'QUANTITY', 'SYMBOL', 'PRICE', 'AMOUNT'] as const;
const FEE_COLUMNS = ['REG FEE', 'SHORT-TERM RDM FEE', 'FUND REDEMPTION FEE', 'DEFERRED SALES CHARGE'] as const;

export function isTdTransactionsHeader(names: Set<string>): boolean {
  return names.has('date') && names.has('transaction id') && names.has('description') && names.has('symbol') && names.has('amount') && (names.has('reg fee') || names.has('commission'));
}

export function detectTdTransactions(head: FileHead): boolean {
  return head.records.slice(0, 3).some((record) => isTdTransactionsHeader(nameSet(record.cells)));
}

/** `SPY_011521P375` (TD's older option symbol: root, MMDDYY, right, strike). */
function underscoredOption(text: string): OptionFields | null {
  const match = /^([A-Z][A-Z0-9.]*)_(\d{2})(\d{2})(\d{2})([CP])(\d+(?:\.\d+)?)$/.exec(text.trim().toUpperCase());
  if (match === null) return null;
  const [, root = '', mm = '', dd = '', yy = '', right = '', strike = ''] = match;
  return optionFields(root, `20${yy}-${mm}-${dd}`, right === 'C' ? 'C' : 'P', Number(strike));
}

/** The option a row names: SYMBOL first, else the description without its price. */
function optionOf(symbol: string, description: string): OptionFields | null {
  const at = description.indexOf('@');
  return underscoredOption(symbol) ?? optionFromText(symbol) ?? optionFromText(at < 0 ? description : description.slice(0, at));
}

/** `Bought 30 BP @ 27.71`, `Sold Short 100 XYZ @ 20`, `Bought to Cover ...`, `Sold 1 SPY Jan 15 2021 375.0 Put @ 2.15`. */
function fillOf(description: string): { verb: 'BOUGHT' | 'SOLD' | 'SOLD SHORT' | 'BOUGHT TO COVER'; quantity: number } | null {
  const words = description.toUpperCase().trim().split(/\s+/);
  let verb: 'BOUGHT' | 'SOLD' | 'SOLD SHORT' | 'BOUGHT TO COVER' | null = null;
  let at = 1;
  if (words[0] === 'BOUGHT' && words[1] === 'TO' && words[2] === 'COVER') {
    verb = 'BOUGHT TO COVER';
    at = 3;
  } else if (words[0] === 'SOLD' && words[1] === 'SHORT') {
    verb = 'SOLD SHORT';
    at = 2;
  } else if (words[0] === 'BOUGHT' || words[0] === 'SOLD') {
    verb = words[0];
  }
  if (verb === null) return null;
  const quantity = Number((words[at] ?? '').replace(/,/g, ''));
  return Number.isFinite(quantity) && quantity > 0 ? { verb, quantity } : null;
}

interface Row {
  line: number;
  tx: RawTransaction;
  /** A fill of an option whose open or close is decided once the rows are in time order. */
  optionSide: 1 | -1 | null;
  /** NET CASH BALANCE after the row (older downloads), null without it. */
  balance?: Minor | null;
}

function typeOfCash(upper: string, amount: Minor): { type: TransactionType; warn: string | null } {
  if (/\bDIVIDEND|\bDIV\b|WITHHOLDING|FOREIGN TAX/.test(upper)) return { type: 'DIVIDEND', warn: null };
  if (upper.includes('INTEREST')) return { type: 'INTEREST', warn: null };
  if (/\bFEE\b/.test(upper)) return { type: 'FEE', warn: null };
  if (/FUNDING|WIRE|BILLPAY|BILL PAY|CHECK|INTERNAL TRANSFER|TRANSFER OF CASH|CASH MOVEMENT|JOURNAL|ACH\b|DEPOSIT|DISBURSEMENT/.test(upper)) {
    return { type: amount >= 0 ? 'DEPOSIT' : 'WITHDRAWAL', warn: null };
  }
  if (/CASH ALTERNATIVES (?:PURCHASE|REDEMPTION)|MONEY MARKET (?:PURCHASE|REDEMPTION)/.test(upper)) {
    return { type: 'OTHER', warn: 'cash swept to or from the money market fund inside the account: kept as OTHER' };
  }
  return { type: 'OTHER', warn: 'not understood: kept as OTHER' };
}

function readRow(reader: RowReader, accountName: string, ids: RowIdentity, out: ResultCollector): Row | null {
  const day = reader.date('DATE', mdyToYmd);
  const description = reader.text('DESCRIPTION');
  const symbol = reader.text('SYMBOL').toUpperCase();
  const quantity = Math.abs(reader.number('QUANTITY'));
  const priceMinor = absMinor(reader.money('PRICE'));
  const commissionMinor = absMinor(reader.money('COMMISSION'));
  let feesMinor = ZERO_MINOR;
  for (const column of FEE_COLUMNS) feesMinor = addMinor(feesMinor, absMinor(reader.money(column)));
  const amountMinor = reader.money('AMOUNT');
  const tradeDate = day === null ? null : dayToUtc(day);
  if (!reader.ok || tradeDate === null) return null;
  const id = reader.text('TRANSACTION ID');
  const base = (type: TransactionType): RawTransaction =>
    transaction({
      accountName,
      brokerRowId: id !== '' ? ids.own(id) : ids.next([reader.text('DATE'), description, symbol, reader.text('QUANTITY'), reader.text('PRICE'), reader.text('AMOUNT')]),
      type,
      tradeDate,
      source: TD_TRANSACTIONS_SOURCE,
      symbol,
      underlying: symbol,
      quantity,
      priceMinor,
      amountMinor,
      commissionMinor,
      feesMinor,
      orderId: id || null,
      description,
    });
  const upper = description.toUpperCase();
  const fill = fillOf(description);
  const option = fill !== null || upper.startsWith('REMOVAL OF OPTION') ? optionOf(symbol, description) : null;
  if (fill !== null) {
    const count = quantity > 0 ? quantity : fill.quantity;
    if (option !== null) {
      const tx = withOption({ ...base('BUY_TO_OPEN'), quantity: count }, option);
      return { line: reader.line, tx, optionSide: fill.verb === 'BOUGHT' || fill.verb === 'BOUGHT TO COVER' ? 1 : -1 };
    }
    const type: TransactionType = fill.verb === 'BOUGHT' ? 'BUY' : fill.verb === 'SOLD' ? 'SELL' : fill.verb === 'SOLD SHORT' ? 'SELL_SHORT' : 'BUY_TO_COVER';
    const tx = { ...base(type), quantity: count };
    // Share prices may be rounded (`@ 490.045`): the lot's cost is the cash, gross of the row's costs.
    const buying = type === 'BUY' || type === 'BUY_TO_COVER';
    const grossMinor = buying ? subMinor(subMinor(absMinor(amountMinor), commissionMinor), feesMinor) : addMinor(addMinor(absMinor(amountMinor), commissionMinor), feesMinor);
    if (tx.priceMinor === 0 && amountMinor !== 0) tx.priceMinor = pricePerShareMinor(grossMinor, count, 1);
    return { line: reader.line, tx, optionSide: null };
  }
  const removal = /^REMOVAL OF OPTION DUE TO (EXPIRATION|ASSIGNMENT|EXERCISE)/.exec(upper);
  if (removal !== null) {
    if (option === null) {
      out.warn(reader.line, `"${description}" names no option in SYMBOL ("${symbol}"): kept as OTHER`);
      return { line: reader.line, tx: base('OTHER'), optionSide: null };
    }
    const type: TransactionType = removal[1] === 'EXPIRATION' ? 'EXPIRATION' : removal[1] === 'ASSIGNMENT' ? 'ASSIGNMENT' : 'EXERCISE';
    return { line: reader.line, tx: withOption({ ...base(type), priceMinor: ZERO_MINOR }, option), optionSide: null };
  }
  if (/^TRANSFER OF SECURITY OR OPTION IN\b/.test(upper) && symbol !== '' && quantity > 0) {
    out.warn(reader.line, `${quantity} ${symbol} transferred in: a BUY at zero cost (the file gives no basis)`);
    return { line: reader.line, tx: { ...base('BUY'), priceMinor: ZERO_MINOR }, optionSide: null };
  }
  const cash = typeOfCash(upper, amountMinor);
  if (cash.warn !== null) out.warn(reader.line, `"${description}": ${cash.warn}`);
  const tx = base(cash.type);
  // A dividend names its security in parentheses when SYMBOL is empty: `QUALIFIED DIVIDEND (COST)`.
  const named = /\(([A-Z][A-Z0-9.]*)\)\s*$/.exec(upper)?.[1];
  if (tx.symbol === '' && named !== undefined && cash.type === 'DIVIDEND') {
    tx.symbol = named;
    tx.underlying = named;
  }
  return { line: reader.line, tx: { ...tx, quantity: 0, priceMinor: ZERO_MINOR }, optionSide: null };
}

export function parseTdTransactions(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('thinkorswim', TD_TRANSACTIONS_SOURCE, 'by-dates');
  const accountName = accountFor(null, options, 'TD Ameritrade');
  const ids = new RowIdentity();
  const rows: Row[] = [];
  for (const reader of tableReaders(out, text, {
    isHeader: isTdTransactionsHeader,
    required: REQUIRED,
    what: 'a TD Ameritrade transactions.csv',
    headerHint: 'DATE,TRANSACTION ID,DESCRIPTION,QUANTITY,SYMBOL,PRICE,COMMISSION,AMOUNT,REG FEE,...',
  })) {
    const row = readRow(reader, accountName, ids, out);
    if (row === null) continue;
    row.balance = reader.has('NET CASH BALANCE') && reader.text('NET CASH BALANCE') !== '' ? reader.money('NET CASH BALANCE') : null;
    rows.push(row);
  }
  if (out.errors.length > 0) return out.result();
  // Open or close from the running position, oldest row first (rows of one day in the file's own order).
  const listed: RawRow[] = rows.map((row) => ({ line: row.line, transaction: row.tx }));
  const newestFirst = listingByDates(listed) === 'newest-first';
  const chronological = newestFirst ? [...rows].reverse() : rows;
  const held = new Map<string, number>();
  for (const row of chronological) {
    if (row.optionSide !== null) {
      row.tx.type = inferOptionFill(held, row.tx.symbol, row.optionSide * row.tx.quantity);
    } else if (row.tx.isOption && (row.tx.type === 'EXPIRATION' || row.tx.type === 'ASSIGNMENT' || row.tx.type === 'EXERCISE')) {
      const before = held.get(row.tx.symbol) ?? 0;
      const left = row.tx.quantity > 0 ? Math.max(0, Math.abs(before) - row.tx.quantity) : 0;
      held.set(row.tx.symbol, Math.sign(before) * left);
    }
  }
  for (const row of rows) out.add(row.line, row.tx);
  // The running NET CASH BALANCE of older downloads: its change over the file is the net cash of its rows.
  const balanced = chronological.filter((row) => row.balance !== null && row.balance !== undefined);
  const first = balanced[0];
  const final = balanced[balanced.length - 1];
  if (first?.balance != null && final?.balance != null) {
    const opening = subMinor(first.balance, first.tx.amountMinor);
    out.state({
      what: 'cash_total',
      label: 'NET CASH BALANCE (the last less the balance before the first row)',
      line: final.line,
      asOf: final.tx.tradeDate,
      from: null,
      currency: 'USD',
      accountName,
      rows: 'all',
      valueMinor: subMinor(final.balance, opening),
      symbol: null,
      quantity: null,
      costMinor: null,
    });
  }
  return out.result();
}
