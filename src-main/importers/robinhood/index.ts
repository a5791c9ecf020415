/**
 * Robinhood account activity CSV:
 * `"Activity Date","Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount"`.
 * Amounts are net (there is no fee column); options are named in the description
 * (`TSLA 7/16/2021 Put $600.00`); stock descriptions span lines (name, CUSIP, "2 ASTS Options Assigned");
 * a disclaimer row (nine empty cells and a tenth with text) ends the file. Dates only: 16:00 New York.
 */
import type { ImportedTransaction, TransactionType } from '../../../src-shared/journal/model';
import { occSymbol } from '../../../src-shared/journal/model';
import type { CsvRecord } from '../common/csv';
import {
  RowIdentity,
  ResultCollector,
  baseTransaction,
  cellAt,
  firstLines,
  impliedFeesMinor,
  isoDay,
  headerTable,
  moneyCell,
  newYorkInstant,
  numberCell,
  parseUsDate,
} from '../common/importer-kit';
import type { OptionFields } from '../common/importer-kit';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';

export const ROBINHOOD_SOURCE = 'robinhood-csv';
const REQUIRED = ['Activity Date', 'Instrument', 'Description', 'Trans Code', 'Quantity', 'Price', 'Amount'] as const;

/** Trans codes → type. Cash movements are typed by the sign of the amount (`DEPOSIT` here means "by sign"). */
const CODES: Record<string, TransactionType> = {
  BUY: 'BUY',
  SELL: 'SELL',
  BTO: 'BUY_TO_OPEN',
  STO: 'SELL_TO_OPEN',
  BTC: 'BUY_TO_CLOSE',
  STC: 'SELL_TO_CLOSE',
  OEXP: 'EXPIRATION',
  OASGN: 'ASSIGNMENT',
  OEXCS: 'EXERCISE',
  CDIV: 'DIVIDEND',
  MDIV: 'DIVIDEND',
  DTAX: 'DIVIDEND',
  INT: 'INTEREST',
  MINT: 'INTEREST',
  SLIP: 'INTEREST',
  GOLD: 'FEE',
  AFEE: 'FEE',
  DFEE: 'FEE',
  ACH: 'DEPOSIT',
  XENT: 'DEPOSIT',
  XENT_RWR: 'DEPOSIT',
  RTP: 'DEPOSIT',
  DCF: 'DEPOSIT',
  ACATI: 'DEPOSIT',
  ACATO: 'DEPOSIT',
  JNLC: 'DEPOSIT',
  JNLS: 'DEPOSIT',
  SPL: 'SPLIT',
};
const CASH_BY_SIGN = new Set(['ACH', 'XENT', 'XENT_RWR', 'RTP', 'DCF', 'ACATI', 'ACATO', 'JNLC', 'JNLS']);
const OPTION_CODES = new Set(['BTO', 'STO', 'BTC', 'STC', 'OEXP', 'OASGN', 'OEXCS']);

export function detectRobinhood(text: string): boolean {
  const header = firstLines(text, 1)[0] ?? '';
  return header.includes('Activity Date') && header.includes('Trans Code') && header.includes('Instrument');
}

/** `TSLA 7/16/2021 Put $600.00`, `Option Expiration for OPEN 10/17/2025 Call $9.00`. */
export function parseRobinhoodOption(description: string): OptionFields | null {
  const match = /(?:^|for\s+)([A-Z0-9.]+)\s+(\d{1,2}\/\d{1,2}\/\d{4})\s+(Call|Put)\s+\$([\d,]+(?:\.\d+)?)\s*$/i.exec(
    description.trim(),
  );
  if (!match || match[1] === undefined || match[2] === undefined || match[3] === undefined || match[4] === undefined) return null;
  const date = parseUsDate(match[2]);
  if (!date) return null;
  const underlying = match[1].toUpperCase();
  const expiration = isoDay(date);
  const right = match[3].toLowerCase() === 'call' ? 'C' : 'P';
  const strike = Number(match[4].replace(/,/g, ''));
  return { symbol: occSymbol(underlying, expiration, right, strike), underlying, expiration, strike, right };
}

function isDisclaimer(record: CsvRecord): boolean {
  return record.cells.length > 9 && record.cells.slice(0, 9).every((cell) => cell.trim() === '');
}

export function parseRobinhood(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('robinhood', ROBINHOOD_SOURCE);
  const table = headerTable(out, text, REQUIRED);
  if (table === null) return out.result();
  const { rows, col, needed } = table;
  const accountName = options.accountName ?? 'Robinhood';
  const ids = new RowIdentity();

  for (const record of rows) {
    if (isDisclaimer(record)) continue;
    out.rows += 1;
    if (record.cells.length < needed) {
      out.error(record.line, `line ${record.line}: ${record.cells.length} cells where the header has ${needed} (truncated row)`);
      continue;
    }
    mapRow(out, record, col, accountName, ids);
  }
  return out.result();
}

function mapRow(
  out: ResultCollector,
  record: CsvRecord,
  col: (name: string) => number | undefined,
  accountName: string,
  ids: RowIdentity,
): void {
  const rawDate = cellAt(record, col('Activity Date'));
  const date = parseUsDate(rawDate);
  if (!date) {
    out.error(record.line, `line ${record.line}, column "Activity Date": not a date: "${rawDate}"`);
    return;
  }
  const instrument = cellAt(record, col('Instrument'));
  const rawDescription = cellAt(record, col('Description'));
  const description = rawDescription.replace(/\s*\r?\n\s*/g, ' / ');
  const code = cellAt(record, col('Trans Code')).toUpperCase();
  // Short positions may be written `5S`.
  const rawQuantity = cellAt(record, col('Quantity')).replace(/S$/i, '');
  const quantity = rawQuantity === '' ? 0 : numberCell(out, { line: record.line, cells: [rawQuantity] }, 0, 'Quantity');
  const price = moneyCell(out, record, col('Price'), 'Price');
  const amount = moneyCell(out, record, col('Amount'), 'Amount');
  const tradeDate = newYorkInstant(date);
  if (quantity === null || price === null || amount === null || tradeDate === null) return;

  let type = CODES[code];
  if (type === undefined) {
    type = 'OTHER';
    out.warn(record.line, `line ${record.line}: unknown Robinhood trans code "${code}" (${description}); kept as OTHER`);
  }
  if (CASH_BY_SIGN.has(code)) type = amount >= 0 ? 'DEPOSIT' : 'WITHDRAWAL';

  const tx: ImportedTransaction = {
    ...baseTransaction(ROBINHOOD_SOURCE, accountName),
    brokerRowId: ids.next([rawDate, instrument, rawDescription, code, rawQuantity, cellAt(record, col('Price')), cellAt(record, col('Amount'))]),
    type,
    symbol: instrument,
    underlying: instrument,
    quantity: Math.abs(quantity),
    priceMinor: Math.abs(price),
    amountMinor: amount,
    tradeDate,
    description,
  };
  if (OPTION_CODES.has(code)) {
    const option = parseRobinhoodOption(rawDescription);
    if (!option) {
      out.error(record.line, `line ${record.line}, column "Description": no option contract in "${description}"`);
      return;
    }
    Object.assign(tx, option, { isOption: true, multiplier: 100 });
  }
  if (type === 'SPLIT') out.warn(record.line, `line ${record.line}: split of ${instrument} imported from the share quantity; check it`);
  tx.feesMinor = impliedFeesMinor(tx);
  out.add(record.line, tx);
}

export const robinhoodImporter: BrokerImporter = {
  id: 'robinhood',
  label: 'Robinhood account activity (CSV)',
  detect: detectRobinhood,
  parse: parseRobinhood,
};
