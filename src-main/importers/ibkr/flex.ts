/**
 * Interactive Brokers Flex Query CSV. Columns are found by name (users pick and order them when they
 * define the query). A file may hold several sections (Trades, Cash Transactions), each starting with its
 * own header row; `BOF/BOA/BOS/EOS/EOA/EOF` header-and-trailer records are ignored.
 * Times (`20220311;162000`, `2022-03-11;16:20:00`) are read as New York time, IBKR's default for Flex.
 */
import type { ImportedTransaction, TransactionType } from '../../../src-shared/journal/model';
import { occSymbol } from '../../../src-shared/journal/model';
import { parseCsv, headerIndex, isBlankRecord } from '../common/csv';
import type { CsvRecord } from '../common/csv';
import {
  RowIdentity,
  ResultCollector,
  baseTransaction,
  cellAt,
  firstLines,
  missingColumns,
  moneyCell,
  numberCell,
  parseIsoDate,
} from '../common/importer-kit';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { parseIbkrDateTime } from './activity';

export const IBKR_FLEX_SOURCE = 'ibkr-flex-csv';

const TRADE_REQUIRED = ['ClientAccountID', 'CurrencyPrimary', 'AssetClass', 'Symbol', 'Quantity', 'TradePrice', 'Proceeds', 'IBCommission'];
const CASH_REQUIRED = ['ClientAccountID', 'CurrencyPrimary', 'Type', 'Amount', 'Description'];
const CONTROL_RECORDS = new Set(['BOF', 'BOA', 'BOS', 'EOS', 'EOA', 'EOF']);

function isFlexHeader(record: CsvRecord): boolean {
  const names = record.cells.map((cell) => cell.trim().toLowerCase());
  return names.includes('clientaccountid') && (names.includes('tradeprice') || names.includes('amount'));
}

export function detectIbkrFlex(text: string): boolean {
  for (const line of firstLines(text, 3)) {
    const names = line.split(',').map((cell) => cell.replace(/"/g, '').trim().toLowerCase());
    if (names.includes('clientaccountid') && (names.includes('tradeprice') || names.includes('amount'))) return true;
  }
  return false;
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

interface FlexSection {
  kind: 'trades' | 'cash';
  columns: Map<string, number>;
  headerLine: number;
}

export function parseIbkrFlex(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('ibkr', IBKR_FLEX_SOURCE);
  const parsed = parseCsv(text);
  if (parsed.error) out.error(parsed.error.line, parsed.error.message);
  const ids = new RowIdentity();
  let section: FlexSection | null = null;
  let sawHeader = false;

  for (const record of parsed.records) {
    if (isBlankRecord(record)) continue;
    if (CONTROL_RECORDS.has(cellAt(record, 0))) continue;
    if (isFlexHeader(record)) {
      sawHeader = true;
      const columns = headerIndex(record.cells);
      const kind = columns.has('tradeprice') ? 'trades' : 'cash';
      const missing = missingColumns(columns, kind === 'trades' ? TRADE_REQUIRED : CASH_REQUIRED);
      const hasDate = columns.has('datetime') || columns.has('tradedate') || columns.has('settledate') || columns.has('reportdate');
      if (!hasDate) missing.push(kind === 'trades' ? 'DateTime or TradeDate' : 'DateTime or SettleDate');
      if (missing.length > 0) {
        out.error(record.line, `line ${record.line}: the Flex ${kind} header lacks the column(s) ${missing.join(', ')}`);
        section = null;
      } else {
        section = { kind, columns, headerLine: record.line };
      }
      continue;
    }
    if (!sawHeader) {
      out.error(record.line, `line ${record.line}: data before any Flex header row`);
      continue;
    }
    if (section === null) continue;
    out.rows += 1;
    const needed = Math.max(...section.columns.values()) + 1;
    if (record.cells.length < needed) {
      out.error(record.line, `line ${record.line}: ${record.cells.length} cells where the header of line ${section.headerLine} has ${needed} (truncated row)`);
      continue;
    }
    if (section.kind === 'trades') mapFlexTrade(out, record, section.columns, options, ids);
    else mapFlexCash(out, record, section.columns, options, ids);
  }
  if (!sawHeader) out.error(1, 'no Flex Query header row (ClientAccountID, ..., TradePrice or Amount)');
  return out.result();
}

function flexDate(out: ResultCollector, record: CsvRecord, columns: Map<string, number>, names: string[]): string | null {
  for (const name of names) {
    const index = columns.get(name.toLowerCase());
    const raw = cellAt(record, index);
    if (index === undefined || raw === '') continue;
    const instant = parseIbkrDateTime(raw);
    if (instant === null) out.error(record.line, `line ${record.line}, column "${name}": not a date: "${raw}"`);
    return instant;
  }
  out.error(record.line, `line ${record.line}, column "${names[0] ?? 'DateTime'}": empty`);
  return null;
}

function mapFlexTrade(
  out: ResultCollector,
  record: CsvRecord,
  columns: Map<string, number>,
  options: ParseOptions,
  ids: RowIdentity,
): void {
  const col = (name: string): number | undefined => columns.get(name.toLowerCase());
  const assetClass = cellAt(record, col('AssetClass')).toUpperCase();
  const symbol = cellAt(record, col('Symbol'));
  if (assetClass === 'CASH') {
    out.skip(record.line, `currency conversion ${symbol} is not a journal transaction`);
    return;
  }
  const accountName = cellAt(record, col('ClientAccountID')) || options.accountName || 'Interactive Brokers';
  const tradeDate = flexDate(out, record, columns, ['DateTime', 'TradeDate']);
  const quantity = numberCell(out, record, col('Quantity'), 'Quantity', null);
  const price = moneyCell(out, record, col('TradePrice'), 'TradePrice');
  const proceeds = moneyCell(out, record, col('Proceeds'), 'Proceeds');
  const commission = moneyCell(out, record, col('IBCommission'), 'IBCommission');
  const taxes = moneyCell(out, record, col('Taxes'), 'Taxes');
  const netCashRaw = cellAt(record, col('NetCash'));
  const netCash = netCashRaw === '' ? null : moneyCell(out, record, col('NetCash'), 'NetCash');
  if (tradeDate === null || quantity === null || price === null || proceeds === null || commission === null || taxes === null) return;
  if (netCashRaw !== '' && netCash === null) return;
  const codes = cellAt(record, col('Notes/Codes'))
    .split(';')
    .map((code) => code.trim())
    .filter((code) => code !== '');
  const side = cellAt(record, col('Buy/Sell')).toUpperCase();
  const buying = side === '' ? quantity >= 0 : side.startsWith('BUY');
  const transactionId = cellAt(record, col('TransactionID')) || cellAt(record, col('TradeID'));
  const orderId = cellAt(record, col('IBOrderID'));

  const tx: ImportedTransaction = {
    ...baseTransaction(IBKR_FLEX_SOURCE, accountName),
    brokerRowId: transactionId !== '' ? transactionId : ids.next([accountName, symbol, tradeDate, quantity, price, proceeds]),
    symbol,
    underlying: symbol,
    quantity: Math.abs(quantity),
    priceMinor: Math.abs(price),
    amountMinor: netCash ?? proceeds + commission + taxes,
    commissionMinor: Math.max(0, -commission),
    feesMinor: Math.max(0, -taxes),
    currency: cellAt(record, col('CurrencyPrimary')),
    tradeDate,
    orderId: orderId === '' || orderId === '0' ? null : orderId,
    description: cellAt(record, col('Description')) || symbol,
  };

  if (assetClass === 'STK') {
    tx.type = buying ? 'BUY' : 'SELL';
  } else if (assetClass === 'OPT' || assetClass === 'FOP') {
    const underlying = cellAt(record, col('UnderlyingSymbol'));
    const expiryRaw = cellAt(record, col('Expiry'));
    const expiry = parseIsoDate(expiryRaw);
    const strike = numberCell(out, record, col('Strike'), 'Strike', null);
    const rightText = cellAt(record, col('Put/Call')).toUpperCase();
    const multiplier = numberCell(out, record, col('Multiplier'), 'Multiplier', 100);
    if (expiry === null) {
      out.error(record.line, `line ${record.line}, column "Expiry": not a date: "${expiryRaw}"`);
      return;
    }
    if (rightText !== 'C' && rightText !== 'P' && rightText !== 'CALL' && rightText !== 'PUT') {
      out.error(record.line, `line ${record.line}, column "Put/Call": expected C or P, got "${rightText}"`);
      return;
    }
    if (strike === null || multiplier === null || underlying === '') {
      if (underlying === '') out.error(record.line, `line ${record.line}, column "UnderlyingSymbol": empty`);
      return;
    }
    const right = rightText.startsWith('C') ? 'C' : 'P';
    const expiration = `${expiry.year}-${String(expiry.month).padStart(2, '0')}-${String(expiry.day).padStart(2, '0')}`;
    Object.assign(tx, {
      symbol: occSymbol(underlying, expiration, right, strike),
      underlying,
      isOption: true,
      expiration,
      strike,
      right,
      multiplier,
    });
    const openClose = cellAt(record, col('Open/CloseIndicator')).toUpperCase();
    if (codes.includes('A')) tx.type = 'ASSIGNMENT';
    else if (codes.includes('Ep')) tx.type = 'EXPIRATION';
    else if (codes.includes('Ex')) tx.type = 'EXERCISE';
    else if (openClose.startsWith('O')) tx.type = buying ? 'BUY_TO_OPEN' : 'SELL_TO_OPEN';
    else if (openClose.startsWith('C')) tx.type = buying ? 'BUY_TO_CLOSE' : 'SELL_TO_CLOSE';
    else {
      tx.type = 'OTHER';
      out.warn(record.line, `line ${record.line}: option trade without Open/CloseIndicator or code; kept as OTHER`);
    }
  } else {
    tx.type = 'OTHER';
    out.warn(record.line, `line ${record.line}: asset class "${assetClass}" is not mapped; kept as OTHER`);
  }
  out.add(record.line, tx);
}

function mapFlexCash(
  out: ResultCollector,
  record: CsvRecord,
  columns: Map<string, number>,
  options: ParseOptions,
  ids: RowIdentity,
): void {
  const col = (name: string): number | undefined => columns.get(name.toLowerCase());
  const accountName = cellAt(record, col('ClientAccountID')) || options.accountName || 'Interactive Brokers';
  const kind = cellAt(record, col('Type'));
  const description = cellAt(record, col('Description'));
  const tradeDate = flexDate(out, record, columns, ['DateTime', 'SettleDate', 'ReportDate']);
  const amount = moneyCell(out, record, col('Amount'), 'Amount');
  if (tradeDate === null || amount === null) return;
  let type: TransactionType | undefined = CASH_TYPES[kind.toLowerCase()];
  if (type === undefined) {
    type = 'OTHER';
    out.warn(record.line, `line ${record.line}: unknown cash transaction type "${kind}"; kept as OTHER`);
  }
  if (type === 'DEPOSIT' && amount < 0) type = 'WITHDRAWAL';
  if (type === 'DIVIDEND' && /withholding/i.test(kind) && /interest/i.test(description)) type = 'INTEREST';
  const symbol = cellAt(record, col('Symbol'));
  const transactionId = cellAt(record, col('TransactionID'));
  out.add(record.line, {
    ...baseTransaction(IBKR_FLEX_SOURCE, accountName),
    brokerRowId: transactionId !== '' ? transactionId : ids.next([accountName, kind, symbol, tradeDate, amount, description]),
    type,
    symbol,
    underlying: symbol,
    amountMinor: amount,
    currency: cellAt(record, col('CurrencyPrimary')),
    tradeDate,
    description,
  });
}

export const ibkrFlexImporter: BrokerImporter = {
  id: 'ibkr',
  label: 'Interactive Brokers Flex Query (CSV)',
  detect: detectIbkrFlex,
  parse: parseIbkrFlex,
};
