/**
 * Interactive Brokers Activity Statement CSV (and the shorter "Transaction History" report, which shares
 * its layout). Every line is `<Section>,<Header|Data|SubTotal|Total|Notes>,...`; a section's Header row
 * names the columns of the Data rows that follow it, and a section may repeat with another header
 * (the Forex part of Trades says "Comm in USD" instead of "Comm/Fee").
 *
 * Times like `2021-12-17, 16:20:00` are New York wall-clock time; date-only cells get 16:00 New York.
 */
import { DateTime } from 'luxon';
import type { ImportedTransaction, TransactionType } from '../../../src-shared/journal/model';
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
  newYorkInstant,
  numberCell,
  parseClock,
  parseIsoDate,
  parseNumberCell,
} from '../common/importer-kit';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { parseIbkrOptionSymbol, symbolFromCashDescription } from './symbols';

export const IBKR_ACTIVITY_SOURCE = 'ibkr-activity-csv';
export const IBKR_HISTORY_SOURCE = 'ibkr-history-csv';
const DEFAULT_ACCOUNT = 'Interactive Brokers';

interface Section {
  /** The Header row's cells after the first two, lower-cased name → index in the full record. */
  columns: Map<string, number>;
  headerLine: number;
  /** False when the header lacked required columns (its Data rows are not read; the error is reported once). */
  usable: boolean;
}

const TRADE_COLUMNS = ['Asset Category', 'Currency', 'Symbol', 'Date/Time', 'Quantity', 'T. Price', 'Proceeds'] as const;
const CASH_SECTIONS: Record<string, { type: TransactionType; required: readonly string[] }> = {
  Dividends: { type: 'DIVIDEND', required: ['Currency', 'Date', 'Description', 'Amount'] },
  'Payment In Lieu Of Dividends': { type: 'DIVIDEND', required: ['Currency', 'Date', 'Description', 'Amount'] },
  'Withholding Tax': { type: 'DIVIDEND', required: ['Currency', 'Date', 'Description', 'Amount'] },
  'Deposits & Withdrawals': { type: 'DEPOSIT', required: ['Currency', 'Settle Date', 'Description', 'Amount'] },
  Fees: { type: 'FEE', required: ['Currency', 'Date', 'Description', 'Amount'] },
  'Transaction Fees': { type: 'FEE', required: ['Currency', 'Date/Time', 'Description', 'Amount'] },
  Interest: { type: 'INTEREST', required: ['Currency', 'Date', 'Description', 'Amount'] },
};
const HISTORY_COLUMNS = ['Date', 'Description', 'Transaction Type', 'Symbol', 'Quantity', 'Price', 'Net Amount'] as const;

export function detectIbkrActivity(text: string): boolean {
  const lines = firstLines(text, 3);
  return lines[0]?.startsWith('Statement,Header,Field Name,Field Value') === true;
}

/** `2021-12-17, 16:20:00`, `2021-12-17 16:20:00`, `2021-12-17;162000`, `20211217`, `2022-07-28`. */
export function parseIbkrDateTime(text: string): string | null {
  const match = /^(\d{4}-?\d{2}-?\d{2})(?:[,;\sT]+(\d{1,2}:?\d{2}(?::?\d{2})?))?(?:\s*(?:EST|EDT|ET))?$/.exec(text.trim());
  if (!match || match[1] === undefined) return null;
  const date = parseIsoDate(match[1]);
  if (!date) return null;
  if (match[2] === undefined) return newYorkInstant(date);
  const clock = parseClock(match[2]);
  if (!clock) return null;
  return newYorkInstant(date, clock.hour, clock.minute, clock.second);
}

function sectionColumns(record: CsvRecord): Map<string, number> {
  const names = record.cells.map((cell, index) => (index < 2 ? '' : cell));
  const map = headerIndex(names);
  map.delete('');
  return map;
}

export function parseIbkrActivity(text: string, options: ParseOptions): ParseResult {
  const parsed = parseCsv(text);
  const isHistory = parsed.records.some((record) => record.cells[0] === 'Transaction History');
  const out = new ResultCollector('ibkr', isHistory ? IBKR_HISTORY_SOURCE : IBKR_ACTIVITY_SOURCE);
  if (parsed.error) out.error(parsed.error.line, parsed.error.message);
  const records = parsed.records;
  if (!records.some((record) => record.cells[1] === 'Header' && record.cells[0] !== 'Statement')) {
    out.error(1, 'not an IBKR statement: no section headers after the Statement block (truncated file?)');
    return out.result();
  }

  // Account and base currency come from their own sections, which IBKR prints before the activity.
  let accountName = options.accountName ?? '';
  let baseCurrency = 'USD';
  for (const record of records) {
    const [section, kind, field, value] = record.cells;
    if (kind !== 'Data' || value === undefined) continue;
    if (section === 'Account Information' && field === 'Account' && accountName === '') accountName = value.trim();
    if ((section === 'Account Information' || section === 'Summary') && field === 'Base Currency') baseCurrency = value.trim();
  }
  if (accountName === '') accountName = DEFAULT_ACCOUNT;
  const periodEnd = statementPeriodEnd(records);
  const startPositions = impliedStartPositions(records, periodEnd);

  const ids = new RowIdentity();
  const sections = new Map<string, Section>();
  const positions = new Map<string, number>();
  let uncodedOptionTrades = 0;

  for (const record of records) {
    if (isBlankRecord(record)) continue;
    const sectionName = (record.cells[0] ?? '').trim();
    const kind = (record.cells[1] ?? '').trim();
    if (kind === 'Header') {
      const columns = sectionColumns(record);
      const section: Section = { columns, headerLine: record.line, usable: true };
      const required = requiredColumns(sectionName, columns);
      if (required) {
        const missing = missingColumns(columns, required);
        if (missing.length > 0) {
          section.usable = false;
          out.error(record.line, `line ${record.line}: the ${sectionName} header lacks the column(s) ${missing.join(', ')}`);
        }
      }
      sections.set(sectionName, section);
      continue;
    }
    if (kind !== 'Data') continue;
    const section = sections.get(sectionName);
    if (!section || !section.usable) continue;
    const col = (name: string): number | undefined => section.columns.get(name.toLowerCase());

    if (sectionName === 'Trades') {
      const discriminator = cellAt(record, col('DataDiscriminator'));
      // ClosedLot rows detail which lots a closing order consumed: not cash movements of their own.
      if (discriminator !== '' && discriminator !== 'Order' && discriminator !== 'Trade') continue;
      out.rows += 1;
      if (!complete(out, record, section)) continue;
      const tx = mapTrade(out, record, col, commissionColumn(section.columns), accountName, positions, startPositions, ids);
      if (tx === 'uncoded') uncodedOptionTrades += 1;
      continue;
    }
    const cash = CASH_SECTIONS[sectionName];
    if (cash) {
      const currencyCell = cellAt(record, col('Currency'));
      const subtitleCell = cellAt(record, col('Subtitle'));
      // Dividends, Interest, ... end with Data rows named "Total", "Total in USD", "Total Dividends in USD".
      if (/^total\b/i.test(currencyCell) || /^total\b/i.test(subtitleCell)) continue;
      out.rows += 1;
      if (!complete(out, record, section)) continue;
      mapCash(out, record, col, sectionName, cash.type, accountName, ids);
      continue;
    }
    if (sectionName === 'Transaction History') {
      out.rows += 1;
      if (!complete(out, record, section)) continue;
      mapHistory(out, record, col, accountName, baseCurrency, ids);
      continue;
    }
    if (sectionName === 'Corporate Actions') {
      if (/^total/i.test(cellAt(record, col('Asset Category')))) continue;
      out.rows += 1;
      out.skip(record.line, 'corporate action: not mapped automatically (check splits and symbol changes by hand)');
    }
  }
  if (uncodedOptionTrades > 0) {
    out.warn(
      null,
      `${uncodedOptionTrades} option trade(s) carry no O/C code; opening or closing was inferred from the running position in this file`,
    );
  }
  return out.result();
}

/** The last day of `Statement,Data,Period,"January 5, 2021 - December 31, 2021"`, as YYYY-MM-DD. */
function statementPeriodEnd(records: CsvRecord[]): string | null {
  for (const record of records) {
    if (record.cells[0] !== 'Statement' || record.cells[2] !== 'Period') continue;
    const last = (record.cells[3] ?? '').split(' - ').pop() ?? '';
    const date = DateTime.fromFormat(last.trim(), 'MMMM d, yyyy', { locale: 'en-US' });
    return date.isValid ? date.toISODate() : null;
  }
  return null;
}

/**
 * Statements exported without O/C codes (the fixtures' trades-only export keeps only A, C, Ep) leave
 * opening vs closing to be inferred from the running position, which is unknown at the period start. An
 * option that expired before the period ended must be flat at its end, so its position at the start is
 * minus the file's net quantity (a lone buy of a put sold last year is a close, not an open).
 */
function impliedStartPositions(records: CsvRecord[], periodEnd: string | null): Map<string, number> {
  const starts = new Map<string, number>();
  if (periodEnd === null) return starts;
  let columns: Map<string, number> | null = null;
  const net = new Map<string, number>();
  for (const record of records) {
    if (record.cells[0] !== 'Trades') continue;
    if (record.cells[1] === 'Header') columns = sectionColumns(record);
    if (record.cells[1] !== 'Data' || columns === null) continue;
    const category = cellAt(record, columns.get('asset category'));
    const discriminator = cellAt(record, columns.get('datadiscriminator'));
    if (!/option/i.test(category) || (discriminator !== '' && discriminator !== 'Order' && discriminator !== 'Trade')) continue;
    const option = parseIbkrOptionSymbol(cellAt(record, columns.get('symbol')));
    const quantity = parseNumberCell(cellAt(record, columns.get('quantity')));
    if (!option || quantity === null || option.expiration >= periodEnd) continue;
    net.set(option.symbol, (net.get(option.symbol) ?? 0) + quantity);
  }
  for (const [symbol, quantity] of net) if (quantity !== 0) starts.set(symbol, -quantity);
  return starts;
}

function requiredColumns(sectionName: string, columns: Map<string, number>): readonly string[] | null {
  if (sectionName === 'Trades') {
    const hasCommission = [...columns.keys()].some((name) => name === 'comm/fee' || name.startsWith('comm in '));
    return hasCommission ? TRADE_COLUMNS : [...TRADE_COLUMNS, 'Comm/Fee'];
  }
  if (sectionName === 'Transaction History') return HISTORY_COLUMNS;
  return CASH_SECTIONS[sectionName]?.required ?? null;
}

/** A Data row shorter than its header is a cut-off file. */
function complete(out: ResultCollector, record: CsvRecord, section: Section): boolean {
  const needed = Math.max(...section.columns.values()) + 1;
  if (record.cells.length >= needed) return true;
  out.error(
    record.line,
    `line ${record.line}: ${record.cells.length} cells where the header of line ${section.headerLine} has ${needed} (truncated row)`,
  );
  return false;
}

/** `Comm/Fee`, or `Comm in USD` in the Forex part of Trades. */
function commissionColumn(columns: Map<string, number>): number | undefined {
  for (const [name, index] of columns) {
    if (name === 'comm/fee' || name.startsWith('comm in ')) return index;
  }
  return undefined;
}

function mapTrade(
  out: ResultCollector,
  record: CsvRecord,
  col: (name: string) => number | undefined,
  commissionIndex: number | undefined,
  accountName: string,
  positions: Map<string, number>,
  startPositions: Map<string, number>,
  ids: RowIdentity,
): 'ok' | 'uncoded' | 'failed' {
  const category = cellAt(record, col('Asset Category'));
  const currency = cellAt(record, col('Currency'));
  const rawSymbol = cellAt(record, col('Symbol'));
  const rawDate = cellAt(record, col('Date/Time'));
  if (category === 'Forex') {
    out.skip(record.line, `currency conversion ${rawSymbol} is not a journal transaction`);
    return 'ok';
  }
  const tradeDate = parseIbkrDateTime(rawDate);
  if (tradeDate === null) {
    out.error(record.line, `line ${record.line}, column "Date/Time": not a date: "${rawDate}"`);
    return 'failed';
  }
  const quantity = numberCell(out, record, col('Quantity'), 'Quantity', null);
  const price = moneyCell(out, record, col('T. Price'), 'T. Price');
  const proceeds = moneyCell(out, record, col('Proceeds'), 'Proceeds');
  const commission = commissionIndex === undefined ? 0 : moneyCell(out, record, commissionIndex, 'Comm/Fee');
  if (quantity === null || price === null || proceeds === null || commission === null) return 'failed';
  const codes = cellAt(record, col('Code'))
    .split(';')
    .map((code) => code.trim())
    .filter((code) => code !== '');

  const tx: ImportedTransaction = {
    ...baseTransaction(IBKR_ACTIVITY_SOURCE, accountName),
    symbol: rawSymbol,
    underlying: rawSymbol,
    quantity: Math.abs(quantity),
    priceMinor: Math.abs(price),
    // IBKR's Proceeds exclude Comm/Fee, which is negative for a charge (positive for a rebate).
    amountMinor: proceeds + commission,
    commissionMinor: Math.max(0, -commission),
    currency,
    tradeDate,
    description: `${rawSymbol}${codes.length > 0 ? ` (${codes.join(';')})` : ''}`,
  };
  tx.brokerRowId = ids.next(['T', accountName, category, currency, rawSymbol, rawDate, quantity, price, proceeds, commission, codes.join(';')]);

  let result: 'ok' | 'uncoded' = 'ok';
  if (category === 'Stocks' || category === 'ETFs') {
    tx.type = quantity >= 0 ? 'BUY' : 'SELL';
  } else if (/option/i.test(category)) {
    const option = parseIbkrOptionSymbol(rawSymbol);
    if (!option) {
      out.error(record.line, `line ${record.line}, column "Symbol": not an IBKR option symbol: "${rawSymbol}"`);
      return 'failed';
    }
    Object.assign(tx, option, { isOption: true, multiplier: 100 });
    const before = positions.get(option.symbol) ?? startPositions.get(option.symbol) ?? 0;
    positions.set(option.symbol, before + quantity);
    if (codes.includes('A')) tx.type = 'ASSIGNMENT';
    else if (codes.includes('Ep')) tx.type = 'EXPIRATION';
    else if (codes.includes('Ex')) tx.type = 'EXERCISE';
    else {
      let opening: boolean;
      if (codes.includes('O')) opening = true;
      else if (codes.includes('C')) opening = false;
      else {
        opening = before === 0 || Math.sign(before) === Math.sign(quantity);
        result = 'uncoded';
      }
      tx.type = quantity >= 0 ? (opening ? 'BUY_TO_OPEN' : 'BUY_TO_CLOSE') : opening ? 'SELL_TO_OPEN' : 'SELL_TO_CLOSE';
    }
  } else {
    tx.type = 'OTHER';
    out.warn(record.line, `line ${record.line}: asset category "${category}" is not mapped; kept as OTHER`);
  }
  out.add(record.line, tx);
  return result;
}

function mapCash(
  out: ResultCollector,
  record: CsvRecord,
  col: (name: string) => number | undefined,
  sectionName: string,
  sectionType: TransactionType,
  accountName: string,
  ids: RowIdentity,
): void {
  const currency = cellAt(record, col('Currency'));
  const dateColumn = col('Date') !== undefined ? 'Date' : col('Settle Date') !== undefined ? 'Settle Date' : 'Date/Time';
  const rawDate = cellAt(record, col(dateColumn));
  const description = cellAt(record, col('Description'));
  const tradeDate = parseIbkrDateTime(rawDate);
  if (tradeDate === null) {
    out.error(record.line, `line ${record.line}, column "${dateColumn}": not a date: "${rawDate}"`);
    return;
  }
  const amount = moneyCell(out, record, col('Amount'), 'Amount');
  if (amount === null) return;
  let type: TransactionType = sectionType;
  if (sectionName === 'Deposits & Withdrawals') type = amount >= 0 ? 'DEPOSIT' : 'WITHDRAWAL';
  // Withholding on credit interest is a reduction of interest, not of a dividend.
  if (sectionName === 'Withholding Tax' && /credit interest/i.test(description)) type = 'INTEREST';
  const symbol = cellAt(record, col('Symbol')) || symbolFromCashDescription(description);
  out.add(record.line, {
    ...baseTransaction(IBKR_ACTIVITY_SOURCE, accountName),
    brokerRowId: ids.next(['C', sectionName, accountName, currency, rawDate, description, amount]),
    type,
    symbol,
    underlying: symbol,
    amountMinor: amount,
    currency,
    tradeDate,
    description,
  });
}

const HISTORY_TYPES: Record<string, TransactionType | 'skip'> = {
  buy: 'BUY',
  sell: 'SELL',
  dividend: 'DIVIDEND',
  'payment in lieu': 'DIVIDEND',
  'foreign tax withholding': 'DIVIDEND',
  'withholding tax': 'DIVIDEND',
  'credit interest': 'INTEREST',
  'debit interest': 'INTEREST',
  deposit: 'DEPOSIT',
  withdrawal: 'WITHDRAWAL',
  'other fee': 'FEE',
  'other fees': 'FEE',
  commission: 'FEE',
  adjustment: 'OTHER',
  'forex trade component': 'skip',
};

function mapHistory(
  out: ResultCollector,
  record: CsvRecord,
  col: (name: string) => number | undefined,
  fileAccount: string,
  baseCurrency: string,
  ids: RowIdentity,
): void {
  const rawDate = cellAt(record, col('Date'));
  const description = cellAt(record, col('Description'));
  const kind = cellAt(record, col('Transaction Type'));
  const rawSymbol = cellAt(record, col('Symbol'));
  const symbol = rawSymbol === '-' ? '' : rawSymbol;
  const accountName = cellAt(record, col('Account')) || fileAccount;
  const currency = cellAt(record, col('Currency')) || baseCurrency;
  const tradeDate = parseIbkrDateTime(rawDate);
  if (tradeDate === null) {
    out.error(record.line, `line ${record.line}, column "Date": not a date: "${rawDate}"`);
    return;
  }
  const mapped = HISTORY_TYPES[kind.toLowerCase()];
  if (mapped === 'skip') {
    out.skip(record.line, `"${kind}" (${description}) is a currency conversion, not a journal transaction`);
    return;
  }
  const quantity = numberCell(out, record, col('Quantity'), 'Quantity');
  const price = moneyCell(out, record, col('Price'), 'Price');
  const commission = moneyCell(out, record, col('Commission'), 'Commission');
  const net = moneyCell(out, record, col('Net Amount'), 'Net Amount');
  if (quantity === null || price === null || commission === null || net === null) return;
  let type: TransactionType = mapped ?? 'OTHER';
  if (mapped === undefined) out.warn(record.line, `line ${record.line}: unknown transaction type "${kind}"; kept as OTHER`);
  if (type === 'DIVIDEND' && symbol === '' && /interest/i.test(description)) type = 'INTEREST';
  const tx: ImportedTransaction = {
    ...baseTransaction(IBKR_HISTORY_SOURCE, accountName),
    brokerRowId: ids.next(['H', accountName, rawDate, kind, rawSymbol, description, quantity, price, net]),
    type,
    symbol,
    underlying: symbol,
    quantity: Math.abs(quantity),
    priceMinor: Math.abs(price),
    amountMinor: net,
    commissionMinor: Math.max(0, -commission),
    currency,
    tradeDate,
    description,
  };
  const option = type === 'BUY' || type === 'SELL' ? parseIbkrOptionSymbol(symbol) : null;
  if (option) {
    // The report has no open/close flag; an option buy/sell is kept as a plain BUY/SELL of the contract.
    Object.assign(tx, option, { isOption: true, multiplier: 100 });
  }
  out.add(record.line, tx);
}

export const ibkrActivityImporter: BrokerImporter = {
  id: 'ibkr',
  label: 'Interactive Brokers Activity Statement (CSV)',
  detect: detectIbkrActivity,
  parse: parseIbkrActivity,
};
