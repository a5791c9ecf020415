/**
 * E*TRADE transaction history CSV:
 * `TransactionDate,TransactionType,SecurityType,Symbol,Quantity,Amount,Price,Commission,Description`,
 * preceded by `For Account:,#####1234` and `Download Date:,...` lines. Options (SecurityType OPTN) are
 * described `PUT AAPL 01/19/24 180.000`. Dates are MM/DD/YY without time: 16:00 New York.
 * Amount is net of Commission.
 */
import type { ImportedTransaction, TransactionType } from '../../../src-shared/journal/model';
import { occSymbol } from '../../../src-shared/journal/model';
import { parseCsv, isBlankRecord } from '../common/csv';
import type { CsvRecord } from '../common/csv';
import {
  RowIdentity,
  ResultCollector,
  baseTransaction,
  cellAt,
  firstLines,
  impliedFeesMinor,
  isoDay,
  headerColumns,
  moneyCell,
  newYorkInstant,
  numberCell,
  parseUsDate,
} from '../common/importer-kit';
import type { OptionFields } from '../common/importer-kit';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';

export const ETRADE_SOURCE = 'etrade-csv';
const REQUIRED = ['TransactionDate', 'TransactionType', 'SecurityType', 'Symbol', 'Quantity', 'Amount', 'Price', 'Commission', 'Description'];

export function detectEtrade(text: string): boolean {
  return firstLines(text, 8).some((line) => line.startsWith('TransactionDate,TransactionType,SecurityType'));
}

/** `PUT AAPL 01/19/24 180.000` (also `CALL SPY 03/15/24 480.50`). */
export function parseEtradeOption(description: string): OptionFields | null {
  const match = /^(CALL|PUT)\s+([A-Z0-9.]+)\s+(\d{1,2}\/\d{1,2}\/\d{2,4})\s+(\d+(?:\.\d+)?)\b/i.exec(description.trim());
  if (!match || match[1] === undefined || match[2] === undefined || match[3] === undefined || match[4] === undefined) return null;
  const date = parseUsDate(match[3]);
  if (!date) return null;
  const underlying = match[2].toUpperCase();
  const expiration = isoDay(date);
  const right = match[1].toUpperCase() === 'CALL' ? 'C' : 'P';
  const strike = Number(match[4]);
  return { symbol: occSymbol(underlying, expiration, right, strike), underlying, expiration, strike, right };
}

type Mapped = TransactionType | 'CASH' | 'BOUGHT' | 'SOLD';

const TYPES: Record<string, Mapped> = {
  bought: 'BOUGHT',
  sold: 'SOLD',
  'bought to open': 'BUY_TO_OPEN',
  'sold short': 'SELL_TO_OPEN',
  'sold to open': 'SELL_TO_OPEN',
  'bought to cover': 'BUY_TO_CLOSE',
  'bought to close': 'BUY_TO_CLOSE',
  'sold to close': 'SELL_TO_CLOSE',
  'option expiration': 'EXPIRATION',
  expired: 'EXPIRATION',
  'option assignment': 'ASSIGNMENT',
  assigned: 'ASSIGNMENT',
  assignment: 'ASSIGNMENT',
  'option exercise': 'EXERCISE',
  exercised: 'EXERCISE',
  exercise: 'EXERCISE',
  dividend: 'DIVIDEND',
  'qualified dividend': 'DIVIDEND',
  'non-qualified dividend': 'DIVIDEND',
  'tax withholding': 'DIVIDEND',
  'foreign tax withheld': 'DIVIDEND',
  reinvest: 'BUY',
  'dividend reinvestment': 'BUY',
  interest: 'INTEREST',
  'interest income': 'INTEREST',
  'margin interest': 'INTEREST',
  fee: 'FEE',
  'service fee': 'FEE',
  'adr fee': 'FEE',
  'misc fee': 'FEE',
  transfer: 'CASH',
  'online transfer': 'CASH',
  deposit: 'CASH',
  withdrawal: 'CASH',
  wire: 'CASH',
  'wire in': 'CASH',
  'wire out': 'CASH',
  ach: 'CASH',
  'direct deposit': 'CASH',
  contribution: 'CASH',
  adjustment: 'OTHER',
  journal: 'OTHER',
};

export function parseEtrade(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('etrade', ETRADE_SOURCE);
  const parsed = parseCsv(text);
  if (parsed.error) out.error(parsed.error.line, parsed.error.message);
  let fileAccount = '';
  const headerAt = parsed.records.findIndex((record) => {
    if (/^for account:?$/i.test(cellAt(record, 0))) fileAccount = cellAt(record, 1);
    return cellAt(record, 0) === 'TransactionDate';
  });
  const header = parsed.records[headerAt];
  if (headerAt < 0 || !header) {
    out.error(1, 'no "TransactionDate,TransactionType,..." header line');
    return out.result();
  }
  const table = headerColumns(out, header, REQUIRED);
  if (table === null) return out.result();
  const { col, needed } = table;
  const accountName = options.accountName ?? (fileAccount || 'E*TRADE');
  const ids = new RowIdentity();
  const positions = new Map<string, number>();
  let inferred = 0;

  // E*TRADE lists newest first; the running position for plain Bought/Sold options needs oldest first.
  const rows = parsed.records.slice(headerAt + 1).filter((record) => !isBlankRecord(record));
  const dated = rows.map((record, order) => ({ record, order, day: parseUsDate(cellAt(record, col('TransactionDate'))) }));
  const chronological = [...dated].sort((a, b) => {
    if (a.day && b.day) {
      const byDay = isoDay(a.day).localeCompare(isoDay(b.day));
      if (byDay !== 0) return byDay;
    }
    return b.order - a.order;
  });
  for (const { record } of chronological) {
    out.rows += 1;
    if (record.cells.length < needed) {
      out.error(record.line, `line ${record.line}: ${record.cells.length} cells where the header has ${needed} (truncated row)`);
      continue;
    }
    if (mapRow(out, record, col, accountName, ids, positions) === 'inferred') inferred += 1;
  }
  out.transactions.sort((a, b) => a.line - b.line);
  out.errors.sort((a, b) => a.line - b.line);
  out.warnings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  if (inferred > 0) {
    out.warn(null, `${inferred} option trade(s) say only Bought/Sold; opening or closing was inferred from the running position in this file`);
  }
  return out.result();
}

const POSITION_SIGN: Partial<Record<TransactionType, number>> = { BUY_TO_OPEN: 1, BUY_TO_CLOSE: 1, SELL_TO_OPEN: -1, SELL_TO_CLOSE: -1 };

function mapRow(
  out: ResultCollector,
  record: CsvRecord,
  col: (name: string) => number | undefined,
  accountName: string,
  ids: RowIdentity,
  positions: Map<string, number>,
): 'ok' | 'inferred' | 'failed' {
  const rawDate = cellAt(record, col('TransactionDate'));
  const date = parseUsDate(rawDate);
  if (!date) {
    out.error(record.line, `line ${record.line}, column "TransactionDate": not a date: "${rawDate}"`);
    return 'failed';
  }
  const kind = cellAt(record, col('TransactionType'));
  const securityType = cellAt(record, col('SecurityType')).toUpperCase();
  const symbol = cellAt(record, col('Symbol'));
  const description = cellAt(record, col('Description'));
  const quantity = numberCell(out, record, col('Quantity'), 'Quantity');
  const amount = moneyCell(out, record, col('Amount'), 'Amount');
  const price = moneyCell(out, record, col('Price'), 'Price');
  const commission = moneyCell(out, record, col('Commission'), 'Commission');
  const tradeDate = newYorkInstant(date);
  if (quantity === null || amount === null || price === null || commission === null || tradeDate === null) return 'failed';

  const isOption = securityType === 'OPTN' || securityType === 'OPT';
  const option = isOption ? parseEtradeOption(description) : null;
  if (isOption && !option) {
    out.error(record.line, `line ${record.line}, column "Description": no option contract in "${description}"`);
    return 'failed';
  }
  const tx: ImportedTransaction = {
    ...baseTransaction(ETRADE_SOURCE, accountName),
    brokerRowId: ids.next([accountName, rawDate, kind, securityType, symbol, quantity, amount, price, commission, description]),
    symbol,
    underlying: symbol,
    quantity: Math.abs(quantity),
    priceMinor: Math.abs(price),
    amountMinor: amount,
    commissionMinor: Math.abs(commission),
    tradeDate,
    description,
  };
  if (option) Object.assign(tx, option, { isOption: true, multiplier: 100 });

  let result: 'ok' | 'inferred' = 'ok';
  const mapped = TYPES[kind.toLowerCase()];
  if (mapped === undefined) {
    tx.type = 'OTHER';
    out.warn(record.line, `line ${record.line}: unknown E*TRADE transaction type "${kind}"; kept as OTHER`);
  } else if (mapped === 'CASH') {
    tx.type = amount >= 0 ? 'DEPOSIT' : 'WITHDRAWAL';
  } else if (mapped === 'BOUGHT' || mapped === 'SOLD') {
    const buying = mapped === 'BOUGHT';
    if (option) {
      const before = positions.get(option.symbol) ?? 0;
      const signed = buying ? tx.quantity : -tx.quantity;
      const opening = before === 0 || Math.sign(before) === Math.sign(signed);
      tx.type = buying ? (opening ? 'BUY_TO_OPEN' : 'BUY_TO_CLOSE') : opening ? 'SELL_TO_OPEN' : 'SELL_TO_CLOSE';
      result = 'inferred';
    } else {
      tx.type = buying ? 'BUY' : 'SELL';
    }
  } else {
    tx.type = mapped;
  }
  tx.feesMinor = impliedFeesMinor(tx);
  if (option) {
    const delta = POSITION_SIGN[tx.type] ?? 0;
    const before = positions.get(option.symbol) ?? 0;
    // Expiration/assignment/exercise flatten the contract.
    const after = ['EXPIRATION', 'ASSIGNMENT', 'EXERCISE'].includes(tx.type) ? 0 : before + delta * tx.quantity;
    positions.set(option.symbol, after);
  }
  out.add(record.line, tx);
  return result;
}

export const etradeImporter: BrokerImporter = {
  id: 'etrade',
  label: 'E*TRADE transaction history (CSV)',
  detect: detectEtrade,
  parse: parseEtrade,
};
