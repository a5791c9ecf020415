/**
 * Interactive Brokers Flex Query CSV. Users pick the columns and their order when they define the query, so
 * every column is found by name, and columns we do not use are ignored. Both trade query kinds are read:
 * - Activity Flex "Trades": `TradePrice`, `IBCommission`, `Taxes`, `NetCash`, `Open/CloseIndicator`,
 *   `Notes/Codes`, `IBOrderID`, `TransactionID`, `DateTime`;
 * - Trade Confirmation Flex: `Price`, `Commission`, `Tax`, `Amount`, `Proceeds`, `Code`, `OrderID`, `TradeID`,
 *   `Date/Time`, `TransactionType` (`TradeCancel` rows cancel an earlier execution);
 * and the Cash Transactions section (`Type`, `Amount`). A file may hold several sections, each with its own
 * header row; with "Include section code and line descriptor" every line starts `"HEADER","TRNT",...` or
 * `"DATA","TRNT",...`; `BOF/BOA/BOS/EOS/EOA/EOF` records and sections we do not read (positions, ...) are
 * ignored. With a `LevelOfDetail` column only `EXECUTION` rows are trades (summaries and closed lots repeat them).
 * Times (`20220311;162000`, `2021-03-03,10:32:45`) are read as New York time, IBKR's default for Flex.
 */
import type { ImportedTransaction, TransactionType } from '../../../src-shared/journal/model';
import { inferOptionFill } from '../common/amounts';
import { Columns, RowReader } from '../common/cells';
import { isBlankRecord, type CsvRecord } from '../common/csv';
import { clockTo24h, isoToYmd, localToUtc, mdyToYmd } from '../common/dates';
import { NEW_YORK } from '../../../src-shared/zone';
import { optionFields, rightOf, withOption, type OptionFields } from '../common/options';
import { ResultCollector, RowIdentity, accountFor, transaction } from '../common/result';
import { isProse, isTotalsRow, nameSet, readCsv, type FileHead } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { parseIbkrDateTime } from './activity';
import { parseIbkrOptionSymbol, symbolFromCashDescription } from './symbols';
import { BROKER_LABELS } from '../../../src-shared/api/constants';
import { ZERO_MINOR, absMinor, negMinor, addMinor, maxMinor } from '../../../src-shared/money';

export const IBKR_FLEX_SOURCE = 'ibkr-flex-csv';
const DEFAULT_ACCOUNT = 'Interactive Brokers';

/** The names each field has had across the Flex query kinds. */
const ALIASES = {
  account: ['ClientAccountID', 'AccountID', 'AccountAlias'],
  currency: ['CurrencyPrimary', 'Currency'],
  assetClass: ['AssetClass', 'AssetCategory', 'Asset Class'],
  price: ['TradePrice', 'Price'],
  commission: ['IBCommission', 'Commission'],
  taxes: ['Taxes', 'Tax'],
  codes: ['Notes/Codes', 'Code', 'Codes', 'Notes'],
  orderId: ['IBOrderID', 'OrderID'],
  dateTime: ['DateTime', 'Date/Time'],
  putCall: ['Put/Call', 'PutCall'],
  openClose: ['Open/CloseIndicator', 'OpenCloseIndicator'],
  buySell: ['Buy/Sell', 'BuySell'],
} as const;
/** What names a security when a query leaves Symbol out (docs/importers.md: such a query is read by ISIN). */
const SECURITY_IDS = ['ISIN', 'SecurityID', 'CUSIP'] as const;
const TRADE_REQUIRED = ['currency', 'assetClass', ['Symbol', ...SECURITY_IDS], 'Quantity', 'price', ['dateTime', 'TradeDate'], ['NetCash', 'Proceeds']] as const;
const CASH_REQUIRED = ['currency', 'Type', 'Amount', 'Description', ['dateTime', 'SettleDate', 'ReportDate', 'Date']] as const;
const CONTROL_RECORDS = new Set(['BOF', 'BOA', 'BOS', 'EOS', 'EOA', 'EOF']);

type SectionKind = 'trades' | 'cash' | 'other';

/** What a Flex header introduces, from its names. */
function sectionKind(names: Set<string>): SectionKind | null {
  if (!names.has('clientaccountid') && !names.has('accountid') && !names.has('assetclass')) return null;
  if (names.has('markprice') || names.has('positionvalue')) return 'other';
  if (names.has('tradeprice') || (names.has('price') && (names.has('quantity') || names.has('buy/sell') || names.has('tradeid')))) return 'trades';
  if (names.has('type') && names.has('amount') && !names.has('quantity')) return 'cash';
  return 'other';
}

/** The cells of a record without the `HEADER`/`DATA` and section-code prefix, and that prefix. */
function unprefixed(record: CsvRecord): { kind: 'HEADER' | 'DATA' | null; code: string; offset: number } {
  const first = record.cells[0]?.trim().toUpperCase() ?? '';
  if (first === 'HEADER' || first === 'DATA') return { kind: first, code: record.cells[1]?.trim().toUpperCase() ?? '', offset: 2 };
  return { kind: null, code: '', offset: 0 };
}

export function detectIbkrFlex(head: FileHead): boolean {
  return head.records.slice(0, 8).some((record) => {
    const { offset } = unprefixed(record);
    const kind = sectionKind(nameSet(record.cells.slice(offset)));
    return kind === 'trades' || kind === 'cash';
  });
}

const CASH_TYPES: Record<string, TransactionType> = {
  dividends: 'DIVIDEND',
  'payment in lieu of dividends': 'DIVIDEND',
  'withholding tax': 'DIVIDEND',
  '871(m) withholding': 'DIVIDEND',
  'broker interest received': 'INTEREST',
  'broker interest paid': 'INTEREST',
  'bond interest received': 'INTEREST',
  'bond interest paid': 'INTEREST',
  'other fees': 'FEE',
  'advisor fees': 'FEE',
  'commission adjustments': 'FEE',
  'deposits/withdrawals': 'DEPOSIT',
  'deposits & withdrawals': 'DEPOSIT',
};

interface Section {
  kind: SectionKind;
  columns: Columns;
  headerLine: number;
  usable: boolean;
}

interface FlexTrade {
  line: number;
  /** Shares named by their ISIN (a query without Symbol), to be renamed to their ticker where the file says it. */
  byId: string | null;
  tx: ImportedTransaction;
  /** The broker's id of the execution (TradeID/TransactionID), '' when the query left it out. */
  ownId: string;
  tradeId: string;
  cancels: string | null;
  signedQuantity: number;
  /** Set when the codes and indicators leave open or close unsaid (inferred later, oldest first). */
  needsInference: boolean;
  dropped: boolean;
}

export function parseIbkrFlex(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('ibkr', IBKR_FLEX_SOURCE, 'oldest-first');
  const records = readCsv(out, text);
  if (records === null) return out.result();
  const ids = new RowIdentity();
  const sections = new Map<string, Section>();
  let current: Section | null = null;
  let sawHeader = false;
  const trades: FlexTrade[] = [];
  /** ISIN → ticker, from what the file says beside an ISIN (an option's UnderlyingSecurityID, a dividend's description). */
  const tickers = new Map<string, string>();

  for (const record of records) {
    // Titles, disclaimers and totals a user's tool may add are not data; nor are the BOF/EOF control records.
    if (isBlankRecord(record) || isProse(record) || isTotalsRow(record)) continue;
    if (CONTROL_RECORDS.has(record.cells[0]?.trim().toUpperCase() ?? '')) continue;
    const { kind: prefix, code, offset } = unprefixed(record);
    const names = nameSet(record.cells.slice(offset));
    const kind = prefix === 'DATA' ? null : sectionKind(names);
    if (kind !== null) {
      sawHeader = true;
      const columns = new Columns(record.cells, offset, ALIASES);
      const section: Section = { kind, columns, headerLine: record.line, usable: true };
      if (kind !== 'other') {
        const missing = columns.missing(kind === 'trades' ? TRADE_REQUIRED : CASH_REQUIRED);
        if (missing.length > 0) {
          section.usable = false;
          out.error(record.line, `the Flex ${kind === 'trades' ? 'trades' : 'cash transactions'} header lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
        }
      }
      current = section;
      sections.set(code, section);
      continue;
    }
    const section = prefix === 'DATA' ? (sections.get(code) ?? null) : current;
    if (!sawHeader || section === null) {
      out.error(record.line, 'data before any Flex header row');
      continue;
    }
    if (section.kind === 'other' || !section.usable) continue;
    const reader = new RowReader(record, section.columns, out);
    const level = reader.text('LevelOfDetail').toUpperCase();
    if (section.kind === 'trades' && level !== '' && level !== 'EXECUTION') continue;
    out.rows += 1;
    if (record.cells.length < section.columns.width) {
      out.error(record.line, `${record.cells.length} cells where the header of line ${section.headerLine} has ${section.columns.width} (a truncated row: is the file cut off?)`);
      continue;
    }
    if (section.kind === 'trades') {
      const trade = readTrade(out, reader, options);
      if (trade) trades.push(trade);
      const underlyingId = reader.value('UnderlyingSecurityID').toUpperCase();
      const underlying = reader.value('UnderlyingSymbol').toUpperCase();
      if (underlyingId !== '' && underlying !== '') tickers.set(underlyingId, underlying);
    } else {
      mapCash(out, reader, options, ids, tickers);
    }
  }
  if (!sawHeader) out.error(1, 'no Flex Query header row (ClientAccountID, ..., TradePrice or Amount)');
  if (out.errors.length > 0) return out.result();
  nameByTicker(out, trades, tickers);
  settleTrades(out, trades, ids);
  return out.result();
}

/**
 * Shares of a query without a Symbol column are named by their ISIN; where the file says the ticker beside that ISIN
 * (an option's UnderlyingSecurityID and UnderlyingSymbol, a dividend's `AAPL(US0378331005)`) they take it, so that
 * they join their options' campaign. The rest keep the ISIN, with one warning naming them.
 */
function nameByTicker(out: ResultCollector, trades: readonly FlexTrade[], tickers: ReadonlyMap<string, string>): void {
  const unnamed = new Set<string>();
  for (const trade of trades) {
    if (trade.byId === null) continue;
    const ticker = tickers.get(trade.byId);
    if (ticker === undefined) {
      unnamed.add(trade.byId);
      continue;
    }
    trade.tx.symbol = ticker;
    trade.tx.underlying = ticker;
  }
  if (unnamed.size > 0) {
    const list = [...unnamed].slice(0, 5).join(', ');
    out.warn(null, `the Flex query has no Symbol column: shares of ${unnamed.size} security${unnamed.size === 1 ? '' : 'ies'} are named by ISIN (${list}${unnamed.size > 5 ? ', ...' : ''}), apart from options on them; add Symbol to the query's Trades fields for tickers`);
  }
}

/** `20220311;162000`, `2021-03-03,10:32:45`, `03/11/2022;16:20:00` (the query's date format), or a date and a time column. */
function flexInstant(reader: RowReader): string | null {
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

function readTrade(out: ResultCollector, reader: RowReader, options: ParseOptions): FlexTrade | null {
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
  let tx: ImportedTransaction = transaction({
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

/**
 * Cancellations remove the execution they cancel (a `TradeCancel` row names it by OrigTradeID); open or close is
 * inferred, oldest first, where nothing said it; ids come last, so that a corrected execution that reuses the
 * cancelled one's TradeID keeps it.
 */
function settleTrades(out: ResultCollector, trades: FlexTrade[], ids: RowIdentity): void {
  for (const cancel of trades.filter((trade) => trade.cancels !== null)) {
    cancel.dropped = true;
    const original = trades.find((trade) => trade !== cancel && !trade.dropped && trade.cancels === null && trade.tradeId !== '' && trade.tradeId === cancel.cancels);
    if (original === undefined) {
      out.warn(cancel.line, `cancellation of trade ${cancel.cancels || '(no id)'}, which is not in this file: nothing imported for it; check that trade`);
      out.skip(cancel.line, `cancels trade ${cancel.cancels || '(no id)'}, not in this file`);
      continue;
    }
    original.dropped = true;
    out.skip(original.line, `execution cancelled by line ${cancel.line}`);
    out.skip(cancel.line, `cancels the execution on line ${original.line}`);
  }
  const live = trades.filter((trade) => !trade.dropped);
  const positions = new Map<string, number>();
  let inferred = 0;
  for (const trade of [...live].sort((a, b) => a.tx.tradeDate.localeCompare(b.tx.tradeDate) || a.line - b.line)) {
    if (trade.needsInference) {
      trade.tx.type = inferOptionFill(positions, trade.tx.symbol, trade.signedQuantity);
      inferred += 1;
    } else if (trade.tx.isOption) {
      positions.set(trade.tx.symbol, (positions.get(trade.tx.symbol) ?? 0) + trade.signedQuantity);
    }
  }
  if (inferred > 0) out.warn(null, `${inferred} option trade(s) carry neither Open/CloseIndicator nor an O/C code; opening or closing was inferred from the running position in this file`);
  for (const trade of live) {
    if (trade.tx.type === 'OTHER') out.warn(trade.line, `asset class of ${trade.tx.symbol} is not mapped: kept as OTHER`);
    const id = trade.ownId !== '' ? ids.own(trade.ownId) : ids.next([trade.tx.accountName, trade.tx.symbol, trade.tx.tradeDate, trade.signedQuantity, trade.tx.priceMinor, trade.tx.amountMinor]);
    out.add(trade.line, { ...trade.tx, brokerRowId: id });
  }
}

function mapCash(out: ResultCollector, reader: RowReader, options: ParseOptions, ids: RowIdentity, tickers: Map<string, string>): void {
  const accountName = accountFor(reader.text('account'), options, DEFAULT_ACCOUNT);
  const kind = reader.text('Type');
  const description = reader.text('Description');
  const tradeDate = flexInstant(reader);
  const amount = reader.money('Amount', { required: true });
  if (!reader.ok || tradeDate === null) return;
  let type: TransactionType | undefined = CASH_TYPES[kind.toLowerCase()];
  if (type === undefined) {
    type = 'OTHER';
    out.warn(reader.line, `unknown cash transaction type "${kind}": kept as OTHER`);
  }
  if (type === 'DEPOSIT' && amount < 0) type = 'WITHDRAWAL';
  if (type === 'DIVIDEND' && /withholding/i.test(kind) && /interest/i.test(description)) type = 'INTEREST';
  // Without a Symbol column the description names the security: `AAPL(US0378331005) Cash Dividend ...`.
  const described = symbolFromCashDescription(description);
  const isin = /\(([A-Z]{2}[A-Z0-9]{9}\d)\)/.exec(description)?.[1];
  if (described !== '' && isin !== undefined) tickers.set(isin, described);
  const symbol = reader.has('Symbol') ? reader.value('Symbol') : described;
  const transactionId = reader.value('TransactionID');
  out.add(
    reader.line,
    transaction({
      accountName,
      brokerRowId: transactionId !== '' ? ids.own(transactionId) : ids.next([accountName, kind, symbol, tradeDate, amount, description]),
      type,
      tradeDate,
      source: IBKR_FLEX_SOURCE,
      symbol,
      underlying: symbol,
      amountMinor: amount,
      currency: reader.text('currency').toUpperCase(),
      description,
    }),
  );
}

export const ibkrFlexImporter: BrokerImporter = {
  id: 'ibkr',
  label: BROKER_LABELS.ibkr,
  formats: 'Flex Query CSV (Activity Flex trades and cash transactions, Trade Confirmation Flex; columns in any order)',
  detect: detectIbkrFlex,
  parse: parseIbkrFlex,
};
