/**
 * One trade row of an IBKR Flex query read: its security (by Symbol, else by ISIN), instant, quantity, price, costs
 * and option fields, whichever of the query kinds' names its columns carry. flex.ts settles the trades read.
 */
import type { RawTransaction } from '../../../src-shared/journal/model';
import type { RowReader } from '../common/cells';
import { clockTo24h, isoToYmd, localToUtc, mdyToYmd } from '../common/dates';
import { NEW_YORK } from '../../../src-shared/zone';
import { optionFields, rightOf, withOption, type OptionFields } from '../common/options';
import type { ResultCollector} from '../common/result';
import { accountFor, transaction } from '../common/result';
import type { ParseOptions } from '../types';
import { parseIbkrDateTime } from './activity';
import { parseIbkrOptionSymbol } from './symbols';
import { ZERO_MINOR, absMinor, negMinor, addMinor, maxMinor } from '../../../src-shared/money';

export const IBKR_FLEX_SOURCE = 'ibkr-flex-csv';
export const DEFAULT_ACCOUNT = 'Interactive Brokers';

/** What names a security when a query leaves Symbol out (docs/importers.md: such a query is read by ISIN). */
export const SECURITY_IDS = ['ISIN', 'SecurityID', 'CUSIP'] as const;

export interface FlexTrade {
  line: number;
  /** Shares named by their ISIN (a query without Symbol), to be renamed to their ticker where the file says it. */
  byId: string | null;
  tx: RawTransaction;
  /** The broker's id of the execution (TradeID/TransactionID), '' when the query left it out. */
  ownId: string;
  tradeId: string;
  cancels: string | null;
  signedQuantity: number;
  /** Set when the codes and indicators leave open or close unsaid (inferred later, oldest first). */
  needsInference: boolean;
  dropped: boolean;
}

/** `20220311;162000`, `2021-03-03,10:32:45`, `03/11/2022;16:20:00` (the query's date format), or a date and a time column. */
export function flexInstant(reader: RowReader): string | null {
  for (const column of ['dateTime', 'TradeDate', 'SettleDate', 'ReportDate', 'Date']) {
    const raw = reader.value(column);
    if (raw === '') continue;
    const time = column === 'TradeDate' ? reader.value('TradeTime') : '';
    const text = time === '' ? raw : `${raw};${time}`;
    const instant = parseIbkrDateTime(text) ?? usDateTime(text);
    if (instant === null) reader.fail(column, `not a date: "${text}"`);
    return instant;
  }
  reader.fail('dateTime', 'empty');
  return null;
}

function usDateTime(text: string): string | null {
  // The time starts with a character that is no separator: `[,;\s]+(\S+)` could share `,` and `;` between them.
  const match = /^(\d{1,2}\/\d{1,2}\/\d{4})(?:[,;\s]+([^\s,;]\S*))?$/.exec(text.trim());
  const ymd = match?.[1] === undefined ? null : mdyToYmd(match[1]);
  if (ymd === null) return null;
  const clock = clockTo24h(match?.[2] ?? '16:00:00');
  return clock === null ? null : localToUtc(ymd, clock, NEW_YORK);
}

export function readTrade(out: ResultCollector, reader: RowReader, options: ParseOptions): FlexTrade | null {
  const assetClass = reader.text('assetClass').toUpperCase();
  const securityId = SECURITY_IDS.map((column) => reader.value(column).toUpperCase()).find((id) => id !== '') ?? '';
  const byId = !reader.has('Symbol') && (assetClass === 'STK' || assetClass === 'ETF') ? securityId : null;
  if (byId === '') reader.fail(SECURITY_IDS.find((column) => reader.has(column)) ?? 'ISIN', 'empty, and the query has no Symbol column: nothing names the security (add Symbol to the query)');
  const symbol = reader.has('Symbol') ? reader.text('Symbol') : (byId ?? reader.text('Description'));
  if (assetClass === 'CASH') {
    out.skip(reader.line, `currency conversion ${symbol} is not a journal transaction`);
    return null;
  }
  const tradeDate = flexInstant(reader);
  const quantity = reader.number('Quantity', { required: true });
  const price = reader.money('price');
  const commission = reader.money('commission');
  const taxes = reader.money('taxes');
  const netCash = reader.optionalMoney('NetCash');
  const proceeds = reader.money('Proceeds');
  const multiplierCell = reader.value('Multiplier');
  const multiplier = multiplierCell === '' ? null : reader.number('Multiplier');
  if (!reader.ok || tradeDate === null) return null;
  const codes = reader
    .text('codes')
    .split(';')
    .map((code) => code.trim())
    .filter((code) => code !== '');
  const transactionType = reader.text('TransactionType');
  const sideText = reader.text('buySell').toUpperCase();
  const cancel = /cancel/i.test(transactionType) || codes.includes('Ca') || /\(CA\.?\)/.test(sideText);
  const buying = sideText === '' ? quantity >= 0 : sideText.startsWith('BUY');
  const signedQuantity = buying ? Math.abs(quantity) : -Math.abs(quantity);
  const orderId = reader.value('orderId');
  const accountName = accountFor(reader.text('account'), options, DEFAULT_ACCOUNT);
  let tx: RawTransaction = transaction({
    accountName,
    brokerRowId: '',
    type: 'OTHER',
    tradeDate,
    source: IBKR_FLEX_SOURCE,
    symbol,
    underlying: symbol,
    quantity: Math.abs(quantity),
    priceMinor: absMinor(price),
    amountMinor: netCash ?? addMinor(proceeds, commission, taxes),
    commissionMinor: maxMinor(ZERO_MINOR, negMinor(commission)),
    feesMinor: maxMinor(ZERO_MINOR, negMinor(taxes)),
    currency: reader.text('currency').toUpperCase(),
    orderId: orderId === '' || orderId === '0' ? null : orderId,
    description: reader.text('Description') || symbol,
  });
  const trade: FlexTrade = {
    line: reader.line,
    byId: byId === '' ? null : byId,
    tx,
    ownId: reader.value('TransactionID') || reader.value('TradeID') || reader.value('ExecID'),
    tradeId: reader.value('TradeID'),
    cancels: cancel ? reader.value('OrigTradeID') || reader.value('TradeID') : null,
    signedQuantity,
    needsInference: false,
    dropped: false,
  };
  if (assetClass === 'STK' || assetClass === 'ETF') {
    // Opening a sale is a short sale; closing a buy, its cover.
    const openClose = reader.text('openClose').toUpperCase();
    const opening = openClose.startsWith('O') || (openClose === '' && codes.includes('O'));
    const closing = openClose.startsWith('C') || (openClose === '' && codes.includes('C'));
    tx.type = buying ? (closing ? 'BUY_TO_COVER' : 'BUY') : opening ? 'SELL_SHORT' : 'SELL';
  } else if (assetClass === 'OPT' || assetClass === 'FOP' || assetClass === 'FSFOP') {
    const option = flexOption(reader);
    if (option === null) return null;
    tx = withOption(tx, option, multiplier ?? 100);
    const openClose = reader.text('openClose').toUpperCase();
    if (codes.includes('A')) tx.type = 'ASSIGNMENT';
    else if (codes.includes('Ep')) tx.type = 'EXPIRATION';
    else if (codes.includes('Ex')) tx.type = 'EXERCISE';
    else if (openClose.startsWith('O') || (openClose === '' && codes.includes('O'))) tx.type = buying ? 'BUY_TO_OPEN' : 'SELL_TO_OPEN';
    else if (openClose.startsWith('C') || (openClose === '' && codes.includes('C'))) tx.type = buying ? 'BUY_TO_CLOSE' : 'SELL_TO_CLOSE';
    else trade.needsInference = true;
  }
  trade.tx = tx;
  return trade;
}

/**
 * The option of a Flex trade row: UnderlyingSymbol/Expiry/Strike/Put-Call, else its Symbol (OCC or `KWEB 17DEC21
 * 30 P`). An adjusted option (`OPEN1 17OCT25 9 C` on OPEN after a corporate action) keeps its own root, so that it
 * is not the standard contract of the same strike; its underlying is UnderlyingSymbol.
 */
function flexOption(reader: RowReader): OptionFields | null {
  const underlying = reader.value('UnderlyingSymbol');
  const expiryText = reader.value('Expiry');
  // A query without Symbol still describes the contract: `AAPL 19JAN24 180 P`.
  const named = reader.has('Symbol') ? reader.text('Symbol') : reader.text('Description');
  const own = parseIbkrOptionSymbol(named);
  if (own !== null && underlying !== '' && own.underlying !== underlying.toUpperCase()) return { ...own, underlying: underlying.toUpperCase() };
  if (underlying !== '' && expiryText !== '') {
    const expiration = reader.date('Expiry', (text) => isoToYmd(text) ?? mdyToYmd(text));
    const right = rightOf(reader.text('putCall'));
    if (right === null) reader.fail('putCall', `expected C or P, got "${reader.text('putCall')}"`);
    const strike = reader.number('Strike', { required: true });
    if (!reader.ok || expiration === null || right === null) return null;
    const option = optionFields(underlying, expiration, right, strike);
    if (option === null) reader.fail('Strike', `not a strike: "${reader.text('Strike')}"`);
    return option;
  }
  const column = reader.has('Symbol') ? 'Symbol' : 'Description';
  if (own === null) reader.fail(column, `not an option (the query has no UnderlyingSymbol and Expiry): "${named}"`);
  return own;
}
