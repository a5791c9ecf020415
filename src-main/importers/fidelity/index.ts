/**
 * Fidelity "Accounts history" CSV:
 * `Run Date,Action,Symbol,Description,Type,Quantity,Price ($),Commission ($),Fees ($),Accrued Interest ($),Amount ($),Settlement Date`
 * (newer exports drop the ` ($)` suffixes and add currency columns: columns are found by name).
 * Blank/title lines come before the header and disclaimer paragraphs after the data. Options are written
 * ` -AAPL240119C190`; the action says what happened ("YOU SOLD OPENING TRANSACTION ...", "EXPIRED ...",
 * "ASSIGNED ..."), sometimes with an "as of" date, which then is the trade date. Dates only: 16:00 New York.
 */
import { DateTime } from 'luxon';
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
  isoDay,
  moneyCell,
  newYorkInstant,
  numberCell,
  parseUsDate,
} from '../common/importer-kit';
import type { CalendarDate, OptionFields } from '../common/importer-kit';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';

export const FIDELITY_SOURCE = 'fidelity-csv';

/** Each logical column and the header spellings Fidelity has used for it. */
const COLUMNS = {
  runDate: ['Run Date'],
  account: ['Account', 'Account Number', 'Account Name'],
  action: ['Action'],
  symbol: ['Symbol'],
  description: ['Description'],
  quantity: ['Quantity'],
  price: ['Price ($)', 'Price'],
  commission: ['Commission ($)', 'Commission'],
  fees: ['Fees ($)', 'Fees'],
  amount: ['Amount ($)', 'Amount'],
  currency: ['Currency'],
} as const;
type ColumnKey = keyof typeof COLUMNS;
const REQUIRED: ColumnKey[] = ['runDate', 'action', 'symbol', 'quantity', 'price', 'amount'];

export function detectFidelity(text: string): boolean {
  return firstLines(text, 6).some((line) => line.startsWith('Run Date,Action,Symbol'));
}

/** ` -AAPL240119C190`, `-SPY240119P452.5` → OCC fields. */
export function parseFidelityOption(text: string): OptionFields | null {
  const match = /^-([A-Z0-9.]+?)(\d{2})(\d{2})(\d{2})([CP])(\d+(?:\.\d+)?)$/.exec(text.trim().toUpperCase());
  if (!match) return null;
  const [, root, yy, mm, dd, rightText, strikeText] = match;
  if (root === undefined || yy === undefined || mm === undefined || dd === undefined || strikeText === undefined) return null;
  const expiration = `20${yy}-${mm}-${dd}`;
  const right = rightText === 'C' ? 'C' : 'P';
  const strike = Number(strikeText);
  return { symbol: occSymbol(root, expiration, right, strike), underlying: root, expiration, strike, right };
}

/** `as of Jan-19-2024`, `AS OF 01-19-24`, `as of 01/19/2024` inside an action. */
export function asOfDate(action: string): CalendarDate | null {
  const named = /\bas of ([A-Za-z]{3})-(\d{1,2})-(\d{4})\b/i.exec(action);
  if (named) {
    const dt = DateTime.fromFormat(`${named[1]}-${named[2]}-${named[3]}`, 'MMM-d-yyyy', { locale: 'en-US' });
    return dt.isValid ? { year: dt.year, month: dt.month, day: dt.day } : null;
  }
  const numeric = /\bas of (\d{1,2})[-/](\d{1,2})[-/](\d{2}|\d{4})\b/i.exec(action);
  if (numeric) return parseUsDate(`${numeric[1]}/${numeric[2]}/${numeric[3]}`);
  return null;
}

/** The action's type; `null` for an action we do not know. Cash movements signed later by the amount. */
function actionType(action: string, isOption: boolean): TransactionType | 'CASH' | null {
  const text = action.toUpperCase();
  if (text.includes('OPENING TRANSACTION')) return text.includes('YOU BOUGHT') ? 'BUY_TO_OPEN' : 'SELL_TO_OPEN';
  if (text.includes('CLOSING TRANSACTION')) return text.includes('YOU BOUGHT') ? 'BUY_TO_CLOSE' : 'SELL_TO_CLOSE';
  if (isOption && text.startsWith('EXPIRED')) return 'EXPIRATION';
  if (isOption && text.startsWith('ASSIGNED')) return 'ASSIGNMENT';
  if (isOption && text.startsWith('EXERCISED')) return 'EXERCISE';
  if (isOption) return null;
  if (text.startsWith('YOU BOUGHT') || text.startsWith('REINVESTMENT')) return 'BUY';
  if (text.startsWith('YOU SOLD')) return 'SELL';
  if (text.startsWith('DIVIDEND RECEIVED') || text.includes('FOREIGN TAX') || text.includes('NON-RESIDENT TAX')) return 'DIVIDEND';
  if (text.includes('INTEREST')) return 'INTEREST';
  if (text.includes('FEE CHARGED') || text.startsWith('ADR FEE') || text.includes(' FEE ')) return 'FEE';
  if (/ELECTRONIC FUNDS TRANSFER|DIRECT DEPOSIT|DIRECT DEBIT|CASH CONTRIBUTION|TRANSFERRED (FROM|TO)|WIRE TRANSFER|PARTIAL DISTRIBUTION|CHECK RECEIVED/.test(text)) {
    return 'CASH';
  }
  return null;
}

export function parseFidelity(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('fidelity', FIDELITY_SOURCE);
  const parsed = parseCsv(text);
  if (parsed.error) out.error(parsed.error.line, parsed.error.message);
  const headerAt = parsed.records.findIndex((record) => cellAt(record, 0) === 'Run Date');
  const header = parsed.records[headerAt];
  if (headerAt < 0 || !header) {
    out.error(1, 'no "Run Date,Action,Symbol,..." header line');
    return out.result();
  }
  const index = headerIndex(header.cells);
  const columns = new Map<ColumnKey, number>();
  for (const [key, names] of Object.entries(COLUMNS) as Array<[ColumnKey, readonly string[]]>) {
    const found = names.map((name) => index.get(name.toLowerCase())).find((at) => at !== undefined);
    if (found !== undefined) columns.set(key, found);
  }
  const missing = REQUIRED.filter((key) => !columns.has(key)).map((key) => COLUMNS[key][0]);
  if (missing.length > 0) {
    out.error(header.line, `line ${header.line}: the header lacks the column(s) ${missing.join(', ')}`);
    return out.result();
  }
  const col = (key: ColumnKey): number | undefined => columns.get(key);
  const needed = Math.max(...columns.values()) + 1;
  const ids = new RowIdentity();

  for (const record of parsed.records.slice(headerAt + 1)) {
    if (isBlankRecord(record)) continue;
    const first = cellAt(record, 0);
    // The trailing disclaimer is prose in one cell ("The data and information in this spreadsheet...",
    // "Date downloaded 01/31/2024 ..."); a data row always has its columns.
    if (record.cells.filter((cell) => cell.trim() !== '').length <= 1 && parseUsDate(first) === null) continue;
    out.rows += 1;
    if (record.cells.length < needed) {
      out.error(record.line, `line ${record.line}: ${record.cells.length} cells where the header has ${needed} (truncated row)`);
      continue;
    }
    mapRow(out, record, col, options, ids);
  }
  return out.result();
}

function mapRow(
  out: ResultCollector,
  record: CsvRecord,
  col: (key: ColumnKey) => number | undefined,
  options: ParseOptions,
  ids: RowIdentity,
): void {
  const rawDate = cellAt(record, col('runDate'));
  const runDate = parseUsDate(rawDate);
  if (!runDate) {
    out.error(record.line, `line ${record.line}, column "Run Date": not a date: "${rawDate}"`);
    return;
  }
  const action = cellAt(record, col('action'));
  const rawSymbol = cellAt(record, col('symbol'));
  const quantity = numberCell(out, record, col('quantity'), 'Quantity');
  const price = moneyCell(out, record, col('price'), 'Price ($)');
  const commission = moneyCell(out, record, col('commission'), 'Commission ($)');
  const fees = moneyCell(out, record, col('fees'), 'Fees ($)');
  const amount = moneyCell(out, record, col('amount'), 'Amount ($)');
  if (quantity === null || price === null || commission === null || fees === null || amount === null) return;
  const tradeDate = newYorkInstant(asOfDate(action) ?? runDate);
  if (tradeDate === null) return;

  const option = rawSymbol.startsWith('-') ? parseFidelityOption(rawSymbol) : null;
  if (rawSymbol.startsWith('-') && !option) {
    out.error(record.line, `line ${record.line}, column "Symbol": not a Fidelity option symbol: "${rawSymbol}"`);
    return;
  }
  const mapped = actionType(action, option !== null);
  let type: TransactionType;
  if (mapped === null) {
    type = 'OTHER';
    out.warn(record.line, `line ${record.line}: unknown Fidelity action "${action}"; kept as OTHER`);
  } else if (mapped === 'CASH') {
    type = amount >= 0 ? 'DEPOSIT' : 'WITHDRAWAL';
  } else {
    type = mapped;
  }
  const accountName = options.accountName ?? (cellAt(record, col('account')) || 'Fidelity');
  const tx: ImportedTransaction = {
    ...baseTransaction(FIDELITY_SOURCE, accountName),
    brokerRowId: ids.next([accountName, isoDay(runDate), action, rawSymbol, quantity, price, amount]),
    type,
    symbol: rawSymbol,
    underlying: rawSymbol,
    quantity: Math.abs(quantity),
    priceMinor: Math.abs(price),
    amountMinor: amount,
    commissionMinor: Math.abs(commission),
    feesMinor: Math.abs(fees),
    currency: cellAt(record, col('currency')) || 'USD',
    tradeDate,
    // The action carries the whole story ("YOU SOLD OPENING TRANSACTION PUT (AAPL) ..."); Description is a short name.
    description: action || cellAt(record, col('description')),
  };
  if (option) Object.assign(tx, option, { isOption: true, multiplier: 100 });
  out.add(record.line, tx);
}

export const fidelityImporter: BrokerImporter = {
  id: 'fidelity',
  label: 'Fidelity accounts history (CSV)',
  detect: detectFidelity,
  parse: parseFidelity,
};
