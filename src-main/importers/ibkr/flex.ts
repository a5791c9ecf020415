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
import type { TransactionType } from '../../../src-shared/journal/model';
import { inferOptionFill } from '../common/amounts';
import { Columns, RowReader } from '../common/cells';
import { isBlankRecord, type CsvRecord } from '../common/csv';
import { ResultCollector, RowIdentity, accountFor, transaction } from '../common/result';
import { isProse, isTotalsRow, nameSet, readCsv, type FileHead } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { DEFAULT_ACCOUNT, IBKR_FLEX_SOURCE, SECURITY_IDS, flexInstant, readTrade, type FlexTrade } from './flex-trades';
import { symbolFromCashDescription } from './symbols';
import { BROKER_LABELS } from '../../../src-shared/api/constants';

export { IBKR_FLEX_SOURCE };

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
