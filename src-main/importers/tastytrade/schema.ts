/**
 * tastytrade CSV layouts and the reading of one record into a broker-shaped row (before mapping).
 *
 * - current: `Date,Type,Sub Type,Action,Symbol,Instrument Type,Description,Value,Quantity,Average Price,
 *   Commissions,Fees,Multiplier,Root Symbol,Underlying Symbol,Expiration Date,Strike Price,Call or Put,
 *   Order #[,Total],Currency` (20 columns, or 21 with Total). Dates carry an offset.
 * - tastyworks 2021–2023: the current layout without `Sub Type`, `Total` and `Currency` (18 columns): the sub type is
 *   read from the description (`Removal of ... due to expiration.`, `Symbol change: ...`, `INTEREST ON CREDIT
 *   BALANCE`, ...), the currency is USD.
 * - legacy (tastyworks): `Date/Time,Transaction Code,Transaction Subcode,Symbol,Buy/Sell,Open/Close,
 *   Quantity,Expiration Date,Strike,Call/Put,Price,Fees,Amount,Description,Account Reference`.
 *   No offset (read as New York time), Symbol is the underlying, Price per share, Fees positive and
 *   commissions included, Amount gross.
 *
 * Futures (Instrument Type `Future`): `Value` is the day's mark-to-market cash of the position, not the trade's
 * value (0.00 on an opening fill, the day's variation on a closing one), and `Average Price` follows it. The fill
 * price is the description's `@ 5984.00`, the multiplier the Multiplier column, else the contract's (futures.ts).
 */
import type { OptionRight } from '../../../src-shared/journal/model';
import { occSymbol, parseOccSymbol } from '../../../src-shared/journal/model';
import { pricePerShareMinor } from '../common/amounts';
import { futuresMultiplier } from '../common/futures';
import type { RowReader } from '../common/cells';
import { clockTo24h, localToUtc, mdyToYmd, offsetIsoToUtc } from '../common/dates';
import { NEW_YORK } from '../../../src-shared/zone';
import type { RowIdentity } from '../common/result';
import { ZERO_MINOR, MINOR_PER_UNIT, absMinor, subMinor, asMinor, type Minor } from '../../../src-shared/money';

export const CURRENT_REQUIRED = [
  'Date', 'Type', 'Sub Type', 'Action', 'Symbol', 'Instrument Type', 'Description', 'Value', 'Quantity',
  'Average Price', 'Commissions', 'Fees', 'Multiplier', 'Root Symbol', 'Underlying Symbol', 'Expiration Date',
  'Strike Price', 'Call or Put', 'Order #', 'Currency',
] as const;

/** tastyworks' 2021–2023 export: the current layout before `Sub Type`, `Total` and `Currency` were added. */
export const TASTYWORKS_REQUIRED = CURRENT_REQUIRED.filter((name) => name !== 'Sub Type' && name !== 'Currency');

export const LEGACY_REQUIRED = [
  'Date/Time', 'Transaction Code', 'Transaction Subcode', 'Symbol', 'Buy/Sell', 'Open/Close', 'Quantity',
  'Expiration Date', 'Strike', 'Call/Put', 'Price', 'Fees', 'Amount', 'Description',
] as const;

export type Layout = 'current' | 'tastyworks' | 'legacy';

/** Which layout a header is, from its column names (in any order). */
export function layoutOf(names: Set<string>): Layout | null {
  if (names.has('date') && names.has('type') && names.has('sub type') && names.has('instrument type')) return 'current';
  if (names.has('date') && names.has('type') && names.has('action') && names.has('instrument type') && names.has('value')) return 'tastyworks';
  if (names.has('date/time') && names.has('transaction code') && names.has('transaction subcode')) return 'legacy';
  return null;
}

export type InstrumentKind = 'stock' | 'option' | 'future-option' | 'future' | 'none';

export interface OptionFields {
  root: string;
  expiration: string;
  strike: number;
  right: OptionRight;
}

/** One tastytrade record, typed and normalised, in the file's own vocabulary. */
export interface TastyRow {
  line: number;
  rowId: string;
  tradeDate: string;
  /** The raw date text: rows of one corporate action share it. */
  dateText: string;
  /** `Trade`, `Receive Deliver`, `Money Movement`. */
  type: string;
  subType: string;
  /** `BUY_TO_OPEN`, ... or '' (legacy rows get one built from Buy/Sell and Open/Close). */
  action: string;
  kind: InstrumentKind;
  symbol: string;
  underlying: string;
  option: OptionFields | null;
  quantity: number;
  valueMinor: Minor;
  commissionMinor: Minor;
  feesMinor: Minor;
  /** Net cash effect: the Total column when present, else Value − commissions − fees. */
  totalMinor: Minor;
  multiplier: number;
  priceMinor: Minor;
  orderId: string | null;
  description: string;
  currency: string;
  /** Legacy files name the account (`Individual...39`). */
  account: string;
}

function kindOf(instrumentType: string): InstrumentKind {
  switch (instrumentType.trim().toLowerCase()) {
    case 'equity option':
    case 'index option':
      return 'option';
    case 'future option':
      return 'future-option';
    case 'future':
      return 'future';
    case '':
      return 'none';
    default:
      // Equity, ETF, Cryptocurrency, Bond...: traded as units with multiplier 1.
      return 'stock';
  }
}

function rightOf(text: string): OptionRight | null {
  const upper = text.trim().toUpperCase();
  if (upper === 'CALL' || upper === 'C') return 'C';
  if (upper === 'PUT' || upper === 'P') return 'P';
  return null;
}

function parseStrike(reader: RowReader, column: string): number | null {
  const strike = reader.number(column, { required: true });
  if (reader.ok && !(strike > 0)) reader.fail(column, `not a strike: "${reader.text(column)}"`);
  return reader.ok ? strike : null;
}

/** Option fields of a current-layout row: from the OCC symbol when it parses, else from the columns. */
function currentOption(reader: RowReader, kind: InstrumentKind): OptionFields | null {
  const symbol = reader.text('Symbol');
  const occ = kind === 'option' ? parseOccSymbol(symbol) : null;
  if (occ) return occ;
  const expiration = reader.date('Expiration Date', mdyToYmd);
  if (expiration === null) return null;
  const strike = parseStrike(reader, 'Strike Price');
  const right = rightOf(reader.text('Call or Put'));
  if (right === null) {
    reader.fail('Call or Put', `expected CALL or PUT: "${reader.text('Call or Put')}"`);
    return null;
  }
  if (strike === null) return null;
  // Futures options have no OCC symbol: the root is the product code (`./MESZ5EXX5` → `/MESZ5EXX5`).
  const rootText = reader.text('Root Symbol') || symbol.split(/\s+/)[0] || '';
  const root = rootText.replace(/^\.\//, '/').replace(/\s+/g, '');
  return { root, expiration, strike, right };
}

export function optionSymbol(option: OptionFields): string {
  return occSymbol(option.root, option.expiration, option.right, option.strike);
}

/**
 * The sub type of a tastyworks 2021–2023 row (that layout has no such column), from what its type, action and
 * description say — the names the current layout gives the same rows. '' when they say none of them.
 */
export function inferredSubType(type: string, action: string, description: string, symbol: string): string {
  const text = description.trim();
  const code = type.trim().toLowerCase();
  if (code === 'receive deliver') {
    if (/due to expiration/i.test(text)) return 'Expiration';
    if (/due to assignment/i.test(text)) return 'Assignment';
    if (/due to exercise/i.test(text)) return 'Exercise';
    if (/^symbol change/i.test(text)) return 'Symbol Change';
    if (/^reverse split/i.test(text)) return 'Reverse Split';
    if (/^(?:forward|stock) split/i.test(text)) return 'Forward Split';
    if (/^stock merger/i.test(text)) return 'Stock Merger';
    if (/^special dividend/i.test(text)) return 'Special Dividend';
    if (/\bACAT\b/i.test(text)) return 'ACAT';
    return '';
  }
  if (code !== 'money movement') return '';
  const upper = text.toUpperCase();
  if (upper.includes('INTEREST ON CREDIT BALANCE')) return 'Credit Interest';
  if (/^FROM \d{1,2}\/\d{1,2} THRU/.test(upper)) return 'Debit Interest';
  if (upper.includes('REGULATORY FEE')) return 'Balance Adjustment';
  if (upper.includes('LENDING')) return 'Fully Paid Stock Lending Income';
  if (/\bFEE\b/.test(upper)) return 'Fee';
  if (/WIRE|ACH|DEPOSIT|WITHDRAW|TRANSFER|FUNDS/.test(upper)) return 'Transfer';
  // Dividends name the paying company (`UWM HOLDINGS CORPORATION`) beside its ticker.
  return symbol.trim() !== '' && action.trim() === '' ? 'Dividend' : '';
}

/** `Bought 1 /MESZ5 @ 6000.25` → 6000.25 in minor units; null when the description gives no price. */
function describedPrice(description: string): Minor | null {
  const at = description.lastIndexOf('@');
  if (at < 0) return null;
  const text = description.slice(at + 1).trim().replace(/,/g, '');
  return /^\d+(?:\.\d+)?$/.test(text) ? asMinor(Math.round(Number(text) * MINOR_PER_UNIT)) : null;
}

export function readCurrentRow(reader: RowReader, identity: RowIdentity, hasTotal: boolean): TastyRow | null {
  const record = reader.record;
  const dateText = reader.text('Date');
  const tradeDate = offsetIsoToUtc(dateText) ?? usLocalToUtc(dateText);
  if (tradeDate === null) reader.fail('Date', `not a date with offset (2025-10-03T20:55:09+0100): "${dateText}"`);
  const kind = kindOf(reader.text('Instrument Type'));
  const option = kind === 'option' || kind === 'future-option' ? currentOption(reader, kind) : null;
  const quantity = Math.abs(reader.number('Quantity'));
  const valueMinor = reader.money('Value');
  const commissionMinor = absMinor(reader.money('Commissions'));
  const feesMinor = absMinor(reader.money('Fees'));
  const totalMinor = hasTotal ? reader.money('Total') : subMinor(subMinor(valueMinor, commissionMinor), feesMinor);
  const multiplierText = reader.value('Multiplier');
  let multiplier = 1;
  if (multiplierText !== '') {
    multiplier = reader.number('Multiplier');
    if (reader.ok && !(multiplier > 0)) reader.fail('Multiplier', `must be positive: "${multiplierText}"`);
  } else if (option !== null) {
    multiplier = 100;
  } else if (kind === 'future') {
    multiplier = futuresMultiplier(reader.text('Root Symbol') || reader.text('Symbol')) ?? 1;
  }
  // A future's Value is the day's mark-to-market cash: the fill is the description's price.
  const futurePrice = kind === 'future' ? (describedPrice(reader.text('Description')) ?? absMinor(reader.money('Average Price'))) : null;
  if (!reader.ok || tradeDate === null) return null;
  const symbolText = reader.text('Symbol');
  const underlying = reader.text('Underlying Symbol') || (option ? option.root : symbolText);
  const subType = reader.has('Sub Type') ? reader.text('Sub Type') : inferredSubType(reader.text('Type'), reader.text('Action'), reader.text('Description'), symbolText);
  const action = reader.text('Action').toUpperCase() || subType.toUpperCase().replace(/\s+/g, '_');
  return {
    line: record.line,
    // The 20 columns both current layouts share, so a 21-column re-export of the same rows dedupes.
    rowId: identity.next(CURRENT_REQUIRED.map((name) => reader.text(name))),
    tradeDate,
    dateText,
    type: reader.text('Type'),
    subType,
    action,
    kind,
    symbol: option ? optionSymbol(option) : symbolText.replace(/\s+/g, ' '),
    underlying: underlying.replace(/^\.\//, '/'),
    option,
    quantity,
    valueMinor,
    commissionMinor,
    feesMinor,
    totalMinor,
    multiplier,
    priceMinor: futurePrice ?? pricePerShareMinor(valueMinor, quantity, multiplier),
    orderId: reader.text('Order #') || null,
    description: reader.text('Description'),
    currency: reader.text('Currency').toUpperCase() || 'USD',
    account: '',
  };
}

/** `01/29/2021 7:31 PM` (the exporting browser's local time, read as New York time) to a UTC instant. */
function usLocalToUtc(dateText: string): string | null {
  // The date, then the time after the first blank (split by position: linear whatever the text).
  const text = dateText.trim();
  const blank = text.search(/\s/);
  if (blank < 0) return null;
  const ymd = mdyToYmd(text.slice(0, blank));
  const clock = clockTo24h(text.slice(blank + 1).trim());
  return ymd !== null && clock !== null ? localToUtc(ymd, clock, NEW_YORK) : null;
}

export function readLegacyRow(reader: RowReader, identity: RowIdentity): TastyRow | null {
  const record = reader.record;
  const dateText = reader.text('Date/Time');
  const tradeDate = usLocalToUtc(dateText);
  if (tradeDate === null) reader.fail('Date/Time', `not a date (01/29/2021 7:31 PM): "${dateText}"`);
  const ticker = reader.text('Symbol');
  let option: OptionFields | null = null;
  if (reader.text('Expiration Date') !== '' || reader.text('Call/Put') !== '') {
    const expiration = reader.date('Expiration Date', mdyToYmd);
    const strike = parseStrike(reader, 'Strike');
    const right = rightOf(reader.text('Call/Put'));
    if (right === null) reader.fail('Call/Put', `expected C or P: "${reader.text('Call/Put')}"`);
    if (expiration !== null && strike !== null && right !== null) option = { root: ticker, expiration, strike, right };
  }
  const quantity = Math.abs(reader.number('Quantity'));
  const priceMinor = absMinor(reader.money('Price'));
  const valueMinor = reader.money('Amount');
  // Legacy Fees are one positive number: commissions and regulatory fees together.
  const feesMinor = absMinor(reader.money('Fees'));
  if (!reader.ok || tradeDate === null) return null;
  const multiplier = option ? 100 : 1;
  const side = reader.text('Buy/Sell').toUpperCase();
  const effect = reader.text('Open/Close').toUpperCase();
  const action =
    (side === 'BUY' || side === 'SELL') && (effect === 'OPEN' || effect === 'CLOSE')
      ? `${side}_TO_${effect}`
      : reader.text('Transaction Subcode').toUpperCase().replace(/\s+/g, '_');
  const code = reader.text('Transaction Code');
  return {
    line: record.line,
    rowId: identity.next(LEGACY_REQUIRED.map((name) => reader.text(name)).concat(reader.text('Account Reference'))),
    tradeDate,
    dateText,
    type: code,
    subType: reader.text('Transaction Subcode'),
    action,
    kind: option ? 'option' : ticker === '' ? 'none' : 'stock',
    symbol: option ? optionSymbol(option) : ticker,
    underlying: ticker,
    option,
    quantity,
    valueMinor,
    commissionMinor: ZERO_MINOR,
    feesMinor,
    totalMinor: subMinor(valueMinor, feesMinor),
    multiplier,
    priceMinor: priceMinor !== 0 ? priceMinor : pricePerShareMinor(valueMinor, quantity, multiplier),
    orderId: null,
    description: reader.text('Description'),
    currency: 'USD',
    account: reader.text('Account Reference'),
  };
}
