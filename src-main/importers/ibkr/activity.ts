/**
 * Interactive Brokers Activity Statement CSV (and the shorter "Transaction History" report, which shares
 * its layout). Every line is `<Section>,<Header|Data|SubTotal|Total|Notes>,...`; a section's Header row
 * names the columns of the Data rows that follow it, and a section may repeat with another header
 * (the Forex part of Trades says "Comm in USD" instead of "Comm/Fee").
 *
 * Times like `2021-12-17, 16:20:00` are New York wall-clock time; date-only cells get 16:00 New York.
 */
import type { RawTransaction, TransactionType } from '../../../src-shared/journal/model';
import { inferOptionFill } from '../common/amounts';
import { Columns, RowReader } from '../common/cells';
import { isBlankRecord, MAX_WHOLE_FILE_RECORDS, parseCsv, type CsvRecord } from '../common/csv';
import { clockTo24h, dayToUtc, isoToYmd, localToUtc } from '../common/dates';
import { NEW_YORK } from '../../../src-shared/zone';
import { withOption } from '../common/options';
import { ResultCollector, RowIdentity, accountFor, transaction } from '../common/result';
import type { FileHead } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { parseIbkrOptionSymbol, symbolFromCashDescription } from './symbols';
import { stateIbkrFigures } from './statements';
import { contractSizes, impliedStartPositions, statementPeriodEnd, type ContractSize } from './statement-positions';
import { mapIbkrActions, readIbkrActionRow, type IbkrActionRow } from './corporate-actions';
import { BROKER_LABELS } from '../../../src-shared/api/constants';
import { ZERO_MINOR, absMinor, negMinor, addMinor, maxMinor } from '../../../src-shared/money';

export const IBKR_ACTIVITY_SOURCE = 'ibkr-activity-csv';
export const IBKR_HISTORY_SOURCE = 'ibkr-history-csv';
const DEFAULT_ACCOUNT = 'Interactive Brokers';

interface Section {
  /** The Header row's names after the first two cells (the section name and `Header`). */
  columns: Columns;
  headerLine: number;
  /** False when the header lacked required columns (its Data rows are not read; the error is reported once). */
  usable: boolean;
}

const TRADE_COLUMNS = ['Asset Category', 'Currency', 'Symbol', 'Date/Time', 'Quantity', 'T. Price', 'Proceeds'] as const;
const CASH_SECTIONS: Record<string, { type: TransactionType; required: ReadonlyArray<string | readonly string[]> }> = {
  Dividends: { type: 'DIVIDEND', required: ['Currency', 'Date', 'Description', 'Amount'] },
  'Payment In Lieu Of Dividends': { type: 'DIVIDEND', required: ['Currency', 'Date', 'Description', 'Amount'] },
  'Withholding Tax': { type: 'DIVIDEND', required: ['Currency', 'Date', 'Description', 'Amount'] },
  'Deposits & Withdrawals': { type: 'DEPOSIT', required: ['Currency', ['Settle Date', 'Date'], 'Description', 'Amount'] },
  Fees: { type: 'FEE', required: ['Currency', 'Date', 'Description', 'Amount'] },
  'Transaction Fees': { type: 'FEE', required: ['Currency', ['Date/Time', 'Date'], 'Description', 'Amount'] },
  Interest: { type: 'INTEREST', required: ['Currency', 'Date', 'Description', 'Amount'] },
};
const HISTORY_COLUMNS = ['Date', 'Description', 'Transaction Type', 'Symbol', 'Quantity', 'Price', 'Net Amount'] as const;

/** An Activity Statement (or Transaction History) starts with its `Statement,Header,Field Name,Field Value` block. */
export function detectIbkrActivity(head: FileHead): boolean {
  return head.records.slice(0, 3).some((record) => record.cells[0]?.trim() === 'Statement' && record.cells[1]?.trim() === 'Header');
}

/** `2021-12-17, 16:20:00`, `2021-12-17 16:20:00`, `2021-12-17;162000`, `20211217`, `2022-07-28`, `20261231;233000 EST`. */
export function parseIbkrDateTime(text: string): string | null {
  const match = /^(\d{4}-?\d{2}-?\d{2})(?:[,;\sT]+(\d{1,2}:?\d{2}(?::?\d{2})?))?(?:\s*(?:EST|EDT|ET))?$/.exec(text.trim());
  const ymd = match?.[1] === undefined ? null : isoToYmd(match[1]);
  if (ymd === null) return null;
  if (match?.[2] === undefined) return dayToUtc(ymd);
  const clock = clockTo24h(match[2]);
  return clock === null ? null : localToUtc(ymd, clock, NEW_YORK);
}

export function parseIbkrActivity(text: string, options: ParseOptions): ParseResult {
  const parsed = parseCsv(text, ',', MAX_WHOLE_FILE_RECORDS);
  const isHistory = parsed.records.some((record) => record.cells[0] === 'Transaction History');
  const out = new ResultCollector('ibkr', isHistory ? IBKR_HISTORY_SOURCE : IBKR_ACTIVITY_SOURCE, 'oldest-first');
  // Statements list each section oldest first.
  if (parsed.error) {
    out.error(parsed.error.line, parsed.error.message);
    return out.result();
  }
  const records = parsed.records;
  if (!records.some((record) => record.cells[1] === 'Header' && record.cells[0] !== 'Statement')) {
    out.error(1, 'not an IBKR statement: no section headers after the Statement block (truncated file?)');
    return out.result();
  }

  // Account and base currency come from their own sections, which IBKR prints before the activity.
  let fileAccount = '';
  let baseCurrency = 'USD';
  for (const record of records) {
    const [section, kind, field, value] = record.cells;
    if (kind !== 'Data' || value === undefined) continue;
    if (section === 'Account Information' && field === 'Account' && fileAccount === '') fileAccount = value.trim();
    if ((section === 'Account Information' || section === 'Summary') && field === 'Base Currency') baseCurrency = value.trim();
  }
  const accountName = accountFor(fileAccount, options, DEFAULT_ACCOUNT);
  const periodEnd = statementPeriodEnd(records);
  const positions = impliedStartPositions(records, periodEnd);
  const contracts = contractSizes(records);

  const ids = new RowIdentity();
  const sections = new Map<string, Section>();
  let uncodedOptionTrades = 0;
  const actions: IbkrActionRow[] = [];

  for (const record of records) {
    if (isBlankRecord(record)) continue;
    const sectionName = (record.cells[0] ?? '').trim();
    const kind = (record.cells[1] ?? '').trim();
    if (kind === 'Header') {
      const columns = new Columns(record.cells, 2);
      const section: Section = { columns, headerLine: record.line, usable: true };
      const required = requiredColumns(sectionName, columns);
      if (required) {
        const missing = columns.missing(required);
        if (missing.length > 0) {
          section.usable = false;
          out.error(record.line, `the ${sectionName} header lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
        }
      }
      sections.set(sectionName, section);
      continue;
    }
    if (kind !== 'Data') continue;
    const section = sections.get(sectionName);
    if (!section || !section.usable) continue;
    const reader = new RowReader(record, section.columns, out);

    if (sectionName === 'Trades') {
      const discriminator = reader.text('DataDiscriminator');
      // ClosedLot rows detail which lots a closing order consumed: not cash movements of their own.
      if (discriminator !== '' && discriminator !== 'Order' && discriminator !== 'Trade') continue;
      out.rows += 1;
      if (!complete(out, record, section)) continue;
      if (mapTrade(out, reader, { accountName, positions, contracts }, ids) === 'uncoded') uncodedOptionTrades += 1;
      continue;
    }
    const cash = CASH_SECTIONS[sectionName];
    if (cash) {
      // Dividends, Interest, ... end with Data rows named "Total", "Total in USD", "Total Dividends in USD".
      if (/^total\b/i.test(reader.text('Currency')) || /^total\b/i.test(reader.text('Subtitle'))) continue;
      out.rows += 1;
      if (!complete(out, record, section)) continue;
      mapCash(out, reader, sectionName, cash.type, accountName, ids);
      continue;
    }
    if (sectionName === 'Transaction History') {
      out.rows += 1;
      if (!complete(out, record, section)) continue;
      mapHistory(out, reader, options, accountName, baseCurrency, ids);
      continue;
    }
    if (sectionName === 'Corporate Actions') {
      if (/^total/i.test(reader.text('Asset Category'))) continue;
      out.rows += 1;
      if (!complete(out, record, section)) continue;
      // Read here, mapped once the section is whole: one action's rows (new and old shares) become one transaction.
      const action = readIbkrActionRow(out, reader, ids);
      if (action !== null) actions.push(action);
    }
  }
  mapIbkrActions(out, actions, accountName);
  if (uncodedOptionTrades > 0) {
    out.warn(null, `${uncodedOptionTrades} option trade(s) carry no O/C code; opening or closing was inferred from the running position in this file`);
  }
  if (!isHistory) stateIbkrFigures(out, records, { accountName, baseCurrency });
  return out.result();
}

function requiredColumns(sectionName: string, columns: Columns): ReadonlyArray<string | readonly string[]> | null {
  if (sectionName === 'Trades') {
    const hasCommission = commissionColumn(columns) !== undefined;
    return hasCommission ? TRADE_COLUMNS : [...TRADE_COLUMNS, 'Comm/Fee'];
  }
  if (sectionName === 'Transaction History') return HISTORY_COLUMNS;
  return CASH_SECTIONS[sectionName]?.required ?? null;
}

/** A Data row shorter than its header is a cut-off file. */
function complete(out: ResultCollector, record: CsvRecord, section: Section): boolean {
  const needed = section.columns.width;
  if (record.cells.length >= needed) return true;
  out.error(record.line, `${record.cells.length} cells where the header of line ${section.headerLine} has ${needed} (a truncated row: is the file cut off?)`);
  return false;
}

/** `Comm/Fee`, or `Comm in USD` in the Forex part of Trades. */
function commissionColumn(columns: Columns): string | undefined {
  return columns.names.find(({ name }) => name === 'comm/fee' || name.startsWith('comm in '))?.name;
}

interface TradeContext {
  accountName: string;
  positions: Map<string, number>;
  contracts: ReadonlyMap<string, ContractSize>;
}

function mapTrade(out: ResultCollector, reader: RowReader, { accountName, positions, contracts }: TradeContext, ids: RowIdentity): 'ok' | 'uncoded' | 'failed' {
  const category = reader.text('Asset Category');
  const currency = reader.text('Currency');
  const rawSymbol = reader.text('Symbol');
  const rawDate = reader.text('Date/Time');
  if (category === 'Forex') {
    out.skip(reader.line, `currency conversion ${rawSymbol} is not a journal transaction`);
    return 'ok';
  }
  const tradeDate = parseIbkrDateTime(rawDate);
  if (tradeDate === null) reader.fail('Date/Time', `not a date: "${rawDate}"`);
  const quantity = reader.number('Quantity', { required: true });
  const price = reader.money('T. Price');
  const proceeds = reader.money('Proceeds');
  const commissionName = commissionColumn(reader.columns);
  const commission = commissionName === undefined ? ZERO_MINOR : reader.money(commissionName);
  const codes = reader
    .text('Code')
    .split(';')
    .map((code) => code.trim())
    .filter((code) => code !== '');
  const option = /option/i.test(category) ? parseIbkrOptionSymbol(rawSymbol) : null;
  if (/option/i.test(category) && option === null) reader.fail('Symbol', `not an IBKR option symbol: "${rawSymbol}"`);
  if (!reader.ok || tradeDate === null) return 'failed';

  let tx: RawTransaction = transaction({
    accountName,
    brokerRowId: ids.next(['T', accountName, category, currency, rawSymbol, rawDate, quantity, price, proceeds, commission, codes.join(';')]),
    type: 'OTHER',
    tradeDate,
    source: IBKR_ACTIVITY_SOURCE,
    symbol: rawSymbol,
    underlying: rawSymbol,
    quantity: Math.abs(quantity),
    priceMinor: absMinor(price),
    // IBKR's Proceeds exclude Comm/Fee, which is negative for a charge (positive for a rebate).
    amountMinor: addMinor(proceeds, commission),
    commissionMinor: maxMinor(ZERO_MINOR, negMinor(commission)),
    currency,
    description: `${rawSymbol}${codes.length > 0 ? ` (${codes.join(';')})` : ''}`,
  });

  let result: 'ok' | 'uncoded' = 'ok';
  if (category === 'Stocks' || category === 'ETFs') {
    // O on a sale opens a short; C on a buy covers it.
    tx.type = quantity >= 0 ? (codes.includes('C') ? 'BUY_TO_COVER' : 'BUY') : codes.includes('O') ? 'SELL_SHORT' : 'SELL';
  } else if (option !== null) {
    const size = contracts.get(rawSymbol);
    tx = withOption(tx, option, size?.multiplier ?? 100);
    // An adjusted option's root carries a digit (OPEN1): its underlying is the stock (OPEN).
    if (size !== undefined && size.multiplier !== 100) tx.underlying = size.underlying ?? (withoutTrailingDigits(option.underlying) || option.underlying);
    if (codes.includes('A') || codes.includes('Ep') || codes.includes('Ex')) {
      positions.set(option.symbol, (positions.get(option.symbol) ?? 0) + quantity);
      tx.type = codes.includes('A') ? 'ASSIGNMENT' : codes.includes('Ep') ? 'EXPIRATION' : 'EXERCISE';
    } else if (codes.includes('O') || codes.includes('C')) {
      positions.set(option.symbol, (positions.get(option.symbol) ?? 0) + quantity);
      const opening = codes.includes('O');
      tx.type = quantity >= 0 ? (opening ? 'BUY_TO_OPEN' : 'BUY_TO_CLOSE') : opening ? 'SELL_TO_OPEN' : 'SELL_TO_CLOSE';
    } else {
      tx.type = inferOptionFill(positions, option.symbol, quantity);
      result = 'uncoded';
    }
  } else {
    out.warn(reader.line, `asset category "${category}" is not mapped: kept as OTHER`);
  }
  out.add(reader.line, tx);
  return result;
}

function mapCash(
  out: ResultCollector,
  reader: RowReader,
  sectionName: string,
  sectionType: TransactionType,
  accountName: string,
  ids: RowIdentity,
): void {
  const currency = reader.text('Currency');
  const dateColumn = reader.has('Date') ? 'Date' : reader.has('Settle Date') ? 'Settle Date' : 'Date/Time';
  const rawDate = reader.text(dateColumn);
  const description = reader.text('Description');
  const tradeDate = parseIbkrDateTime(rawDate);
  if (tradeDate === null) reader.fail(dateColumn, `not a date: "${rawDate}"`);
  const amount = reader.money('Amount', { required: true });
  if (!reader.ok || tradeDate === null) return;
  let type: TransactionType = sectionType;
  if (sectionName === 'Deposits & Withdrawals') type = amount >= 0 ? 'DEPOSIT' : 'WITHDRAWAL';
  // Withholding on credit interest is a reduction of interest, not of a dividend.
  if (sectionName === 'Withholding Tax' && /credit interest/i.test(description)) type = 'INTEREST';
  const symbol = reader.text('Symbol') || symbolFromCashDescription(description);
  out.add(
    reader.line,
    transaction({
      accountName,
      brokerRowId: ids.next(['C', sectionName, accountName, currency, rawDate, description, amount]),
      type,
      tradeDate,
      source: IBKR_ACTIVITY_SOURCE,
      symbol,
      underlying: symbol,
      amountMinor: amount,
      currency,
      description,
    }),
  );
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
  reader: RowReader,
  options: ParseOptions,
  fileAccount: string,
  baseCurrency: string,
  ids: RowIdentity,
): void {
  const rawDate = reader.text('Date');
  const description = reader.text('Description');
  const kind = reader.text('Transaction Type');
  const symbol = reader.value('Symbol');
  const accountName = accountFor(reader.text('Account') || fileAccount, options, DEFAULT_ACCOUNT);
  const currency = reader.text('Currency') || baseCurrency;
  const tradeDate = parseIbkrDateTime(rawDate);
  if (tradeDate === null) reader.fail('Date', `not a date: "${rawDate}"`);
  const mapped = HISTORY_TYPES[kind.toLowerCase()];
  if (reader.ok && mapped === 'skip') {
    out.skip(reader.line, `"${kind}" (${description}) is a currency conversion, not a journal transaction`);
    return;
  }
  const quantity = reader.number('Quantity');
  const price = reader.money('Price');
  const commission = reader.money('Commission');
  const net = reader.money('Net Amount');
  if (!reader.ok || tradeDate === null || mapped === 'skip') return;
  let type: TransactionType = mapped ?? 'OTHER';
  if (mapped === undefined) out.warn(reader.line, `unknown transaction type "${kind}": kept as OTHER`);
  if (type === 'DIVIDEND' && symbol === '' && /interest/i.test(description)) type = 'INTEREST';
  let tx = transaction({
    accountName,
    brokerRowId: ids.next(['H', accountName, rawDate, kind, reader.text('Symbol'), description, quantity, price, net]),
    type,
    tradeDate,
    source: IBKR_HISTORY_SOURCE,
    symbol,
    underlying: symbol,
    quantity: Math.abs(quantity),
    priceMinor: absMinor(price),
    amountMinor: net,
    commissionMinor: maxMinor(ZERO_MINOR, negMinor(commission)),
    currency,
    description,
  });
  const option = type === 'BUY' || type === 'SELL' ? parseIbkrOptionSymbol(symbol) : null;
  // The report has no open/close flag; an option buy/sell is kept as a plain BUY/SELL of the contract.
  if (option) tx = withOption(tx, option);
  out.add(reader.line, tx);
}

export const ibkrActivityImporter: BrokerImporter = {
  id: 'ibkr',
  label: BROKER_LABELS.ibkr,
  formats: 'Activity Statement CSV (sections, codes A/C/Ep/Ex, currencies, BOM) and Transaction History',
  detect: detectIbkrActivity,
  parse: parseIbkrActivity,
};

/** `OPEN1` → `OPEN`: the digits an adjusted root ends in, cut by a scan from the end (a pattern `\d+$` retries at every digit). */
function withoutTrailingDigits(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) >= 48 && text.charCodeAt(end - 1) <= 57) end -= 1;
  return text.slice(0, end);
}
