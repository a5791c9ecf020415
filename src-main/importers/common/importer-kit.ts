/**
 * Small helpers shared by the IBKR, Robinhood, Fidelity, E*TRADE and Webull importers: a ParseResult
 * builder (errors as data), New York wall-clock → UTC instants via luxon, cell parsing that reports the
 * line and column, and content-based row identities for files without broker row ids.
 */
import { DateTime } from 'luxon';
import { parseMoneyMinor, toMinor } from '../../../src-shared/money';
import type { BrokerId } from '../../../src-shared/api/schemas';
import type { ImportedTransaction, OptionRight } from '../../../src-shared/journal/model';
import { headerIndex, isBlankRecord, parseCsv, type CsvRecord } from './csv';
import type { LineProblem, ParseResult, ParsedRow } from '../types';

import { NEW_YORK } from './dates';
import { missingColumns, transaction } from './rows';

// One home for the pieces both importer families use: rows.ts and dates.ts.
export { NEW_YORK } from './dates';
export { firstLines, missingColumns, RowIdentity } from './rows';

/** A header's columns by name, or null after reporting the missing required ones at the header line. */
export function headerColumns(
  out: ResultCollector,
  header: CsvRecord,
  required: readonly string[],
): { columns: Map<string, number>; col: (name: string) => number | undefined; needed: number } | null {
  const columns = headerIndex(header.cells);
  const missing = missingColumns(columns, required);
  if (missing.length > 0) {
    out.error(header.line, `line ${header.line}: the header lacks the column(s) ${missing.join(', ')}`);
    return null;
  }
  return { columns, col: (name) => columns.get(name.toLowerCase()), needed: Math.max(...columns.values()) + 1 };
}

/**
 * A file whose first non-blank line is the header: its data records (blank lines dropped) and columns, or
 * null after reporting an unreadable file, an empty one or missing columns.
 */
export function headerTable(
  out: ResultCollector,
  text: string,
  required: readonly string[],
): { rows: CsvRecord[]; col: (name: string) => number | undefined; needed: number } | null {
  const parsed = parseCsv(text);
  if (parsed.error) out.error(parsed.error.line, parsed.error.message);
  const records = parsed.records.filter((record) => !isBlankRecord(record));
  const header = records[0];
  if (!header) {
    out.error(1, 'empty file');
    return null;
  }
  const table = headerColumns(out, header, required);
  return table === null ? null : { rows: records.slice(1), col: table.col, needed: table.needed };
}

export class ResultCollector {
  rows = 0;
  readonly transactions: ParsedRow[] = [];
  readonly skipped: LineProblem[] = [];
  readonly warnings: Array<{ line: number | null; message: string }> = [];
  readonly errors: LineProblem[] = [];

  constructor(
    private readonly broker: BrokerId,
    private readonly source: string,
  ) {}

  add(line: number, transaction: ImportedTransaction): void {
    this.transactions.push({ line, transaction });
  }

  error(line: number, message: string): void {
    this.errors.push({ line, message });
  }

  warn(line: number | null, message: string): void {
    this.warnings.push({ line, message });
  }

  skip(line: number, message: string): void {
    this.skipped.push({ line, message });
  }

  result(): ParseResult {
    return {
      broker: this.broker,
      source: this.source,
      rows: this.rows,
      transactions: this.transactions,
      skipped: this.skipped,
      warnings: this.warnings,
      errors: this.errors,
    };
  }
}

/** The cell at `index`, '' when the row is shorter or the index unknown. */
export function cellAt(record: CsvRecord, index: number | undefined): string {
  if (index === undefined || index < 0) return '';
  return (record.cells[index] ?? '').trim();
}

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** `M/D/YYYY`, `MM/DD/YY` (20YY), with optional surrounding blanks. */
export function parseUsDate(text: string): CalendarDate | null {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(text.trim());
  if (!match) return null;
  const year = match[3]?.length === 2 ? 2000 + Number(match[3]) : Number(match[3]);
  return validDate({ year, month: Number(match[1]), day: Number(match[2]) });
}

/** `YYYY-MM-DD` or `YYYYMMDD`. */
export function parseIsoDate(text: string): CalendarDate | null {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text.trim());
  if (!match) return null;
  return validDate({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) });
}

function validDate(date: CalendarDate): CalendarDate | null {
  const dt = DateTime.fromObject(date, { zone: NEW_YORK });
  return dt.isValid ? date : null;
}

export function isoDay(date: CalendarDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/**
 * A New York wall-clock time as a UTC ISO instant. Files that carry only a date are stamped 16:00 New York
 * (the close of the regular session), so the trade stays on the same New York trade day in every zone.
 */
export function newYorkInstant(date: CalendarDate, hour = 16, minute = 0, second = 0): string | null {
  const dt = DateTime.fromObject({ ...date, hour, minute, second }, { zone: NEW_YORK });
  if (!dt.isValid) return null;
  return new Date(dt.toMillis()).toISOString();
}

/** Parses `HH:MM[:SS]` or `HHMMSS`. */
export function parseClock(text: string): { hour: number; minute: number; second: number } | null {
  const match = /^(\d{1,2}):?(\d{2})(?::?(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = match[3] === undefined ? 0 : Number(match[3]);
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { hour, minute, second };
}

/** A quantity cell: commas allowed, sign kept; '' → null. */
export function parseNumberCell(text: string): number | null {
  const cleaned = text.trim().replace(/,/g, '');
  if (cleaned === '') return null;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

/** Money in minor units, or an error naming line and column. An empty cell is 0. */
export function moneyCell(
  collector: ResultCollector,
  record: CsvRecord,
  index: number | undefined,
  column: string,
): number | null {
  const raw = cellAt(record, index);
  // IBKR writes very small amounts in exponent notation (-2.637591265E-4).
  if (/^[+-]?\d+(\.\d+)?e[+-]?\d+$/i.test(raw)) {
    return toMinor(Number(raw));
  }
  const parsed = parseMoneyMinor(raw);
  if (!parsed.ok) {
    collector.error(record.line, `line ${record.line}, column "${column}": ${parsed.error}`);
    return null;
  }
  return parsed.minor;
}

/** A number (quantity, strike) or an error naming line and column. `emptyAs` for empty cells. */
export function numberCell(
  collector: ResultCollector,
  record: CsvRecord,
  index: number | undefined,
  column: string,
  emptyAs: number | null = 0,
): number | null {
  const raw = cellAt(record, index);
  if (raw === '' || raw === '-' || raw === '--') {
    if (emptyAs === null) collector.error(record.line, `line ${record.line}, column "${column}": empty`);
    return emptyAs;
  }
  const value = parseNumberCell(raw.replace(/^@/, '').replace(/^\$/, ''));
  if (value === null) collector.error(record.line, `line ${record.line}, column "${column}": not a number: "${raw}"`);
  return value;
}

export interface OptionFields {
  symbol: string;
  underlying: string;
  expiration: string;
  strike: number;
  right: OptionRight;
}

/** A blank transaction to spread row fields over (keeps the mappers short and every field set). */
export function baseTransaction(source: string, accountName: string): ImportedTransaction {
  return transaction({ source, accountName, brokerRowId: '', type: 'OTHER', tradeDate: '' });
}

/** Minor units of price × quantity × multiplier, exact for the 4-decimal prices and integer/6-decimal sizes brokers use. */
export function grossMinor(priceMinor: number, quantity: number, multiplier: number): number {
  return Math.round(Number((priceMinor * quantity * multiplier).toPrecision(15)));
}

/**
 * Fees a broker nets into the amount without a column for them (Robinhood, E*TRADE): what is left between the
 * gross (price × quantity × multiplier), the commission and the net amount of a trade. Only where the gross is
 * exact — whole quantities; fractional-share prices are rounded in the files, so a gap there is no fee — and
 * only a plausible residual (0 ≤ fees < gross).
 */
export function impliedFeesMinor(tx: ImportedTransaction): number {
  const selling = tx.type === 'SELL' || tx.type === 'SELL_TO_OPEN' || tx.type === 'SELL_TO_CLOSE';
  const buying = tx.type === 'BUY' || tx.type === 'BUY_TO_OPEN' || tx.type === 'BUY_TO_CLOSE';
  if ((!selling && !buying) || !Number.isInteger(tx.quantity)) return 0;
  const gross = grossMinor(tx.priceMinor, tx.quantity, tx.multiplier);
  const fees = selling ? gross - tx.commissionMinor - tx.amountMinor : -tx.amountMinor - gross - tx.commissionMinor;
  return fees >= 0 && fees < gross ? fees : 0;
}
