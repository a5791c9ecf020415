/** What the positions readers share (index.ts dispatches, brokers.ts reads each broker's layout). */
import type { BrokerPosition } from '../../../src-shared/journal/reconciliation';
import { parseMoney, parseNumber, type Columns } from '../common/cells';
import type { CsvRecord } from '../common/csv';
import { optionFromText } from '../common/option-text';
import { occOption, type OptionFields } from '../common/options';
import { parseEtradeOption } from '../etrade/index';
import { parseFidelityOption } from '../fidelity/index';
import { parseIbkrOptionSymbol } from '../ibkr/symbols';

/** Positions a file may list (a book of thousands of lines is already more than any account holds). */
export const MAX_POSITION_ROWS = 20_000;
/** Problems kept (the rest counted in the last). */
export const MAX_PROBLEMS = 100;

export interface PositionsProblem {
  /** 1-based line of the file (0: the file as a whole); for JSON, null and the field in `field`. */
  line: number | null;
  field: string | null;
  message: string;
}

export interface PositionsFile {
  /** `schwab-positions`, `fidelity-positions`, `tastytrade-positions`, `ibkr-open-positions`, `ibkr-flex-positions`, `etrade-positions`, `generic-csv`, `json`. */
  format: string;
  label: string;
  positions: BrokerPosition[];
  /** The instant the file says its positions are of, when it says one (ISO 8601 UTC). */
  statedAsOf: string | null;
  /** Lines that are no position (cash, totals, pending activity). */
  skipped: number;
}

export type PositionsOutcome = { ok: true; file: PositionsFile } | { ok: false; detail: string; problems: PositionsProblem[] };

/** A reader of one layout: `detect` looks at the header (its cell names, normalised) and the records above it. */
export interface PositionsReader {
  format: string;
  label: string;
  detect(names: Set<string>, records: readonly CsvRecord[]): boolean;
  read(table: PositionsTable, out: PositionsCollector): void;
}

/** A file's records with the header found and its columns. */
export interface PositionsTable {
  records: readonly CsvRecord[];
  headerIndex: number;
  columns: Columns;
}

/** What a reader collects: positions, problems (by line), skipped lines, the instant the file names. */
export class PositionsCollector {
  readonly positions: BrokerPosition[] = [];
  readonly problems: PositionsProblem[] = [];
  problemCount = 0;
  skipped = 0;
  statedAsOf: string | null = null;

  add(position: BrokerPosition): void {
    if (this.positions.length >= MAX_POSITION_ROWS) {
      if (this.positions.length === MAX_POSITION_ROWS) this.problem(position.line, null, `more than ${MAX_POSITION_ROWS.toLocaleString('en-US')} positions: not a positions file of one book`);
      return;
    }
    this.positions.push(position);
  }

  problem(line: number | null, field: string | null, message: string): void {
    this.problemCount += 1;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ line, field, message });
  }
}

/** The instrument a symbol cell names: an option in any common layout (OCC, `AAPL 03/15/2024 180.00 P`, ` -AAPL240119P180`, `KWEB 17DEC21 30 P`, `TSLA Dec 15 '28 $400 Call`), else a ticker. */
export function instrumentOf(text: string): { option: OptionFields | null; ticker: string } {
  const cell = text.trim();
  const option = occOption(cell) ?? (cell.startsWith('-') ? parseFidelityOption(cell) : null) ?? parseIbkrOptionSymbol(cell) ?? parseEtradeOption(cell) ?? optionFromText(cell);
  return { option, ticker: cell };
}

/** A position from a symbol cell and its numbers (an option's multiplier 100 unless given). */
export function positionOf(fields: { line: number | null; account: string | null; symbol: string; quantity: number; costMinor: number | null; currency?: string; multiplier?: number | null; option?: OptionFields | null }): BrokerPosition | null {
  const { option, ticker } = fields.option === undefined ? instrumentOf(fields.symbol) : { option: fields.option, ticker: fields.symbol.trim() };
  // A ticker as the brokers write them (BRK.B, BF/B, ^VIX, FREd, /ESZ3, ./ESZ3 EW4X3 231127C4500 for a future's option).
  if (option === null && !/^[\w./^][\w./^ :-]{0,63}$/.test(ticker)) return null;
  return {
    line: fields.line,
    account: fields.account,
    symbol: option?.symbol ?? ticker,
    underlying: option?.underlying ?? ticker,
    isOption: option !== null,
    expiration: option?.expiration ?? null,
    strike: option?.strike ?? null,
    right: option?.right ?? null,
    multiplier: fields.multiplier ?? (option === null ? 1 : 100),
    currency: fields.currency ?? 'USD',
    quantity: fields.quantity,
    costMinor: fields.costMinor,
  };
}

/** A cell as a number (`1,234.5`, `(3)`, `--` is empty); the problem named otherwise. */
export function numberCell(out: PositionsCollector, line: number, column: string, text: string): number | null {
  const parsed = parseNumber(text);
  if (!parsed.ok) {
    out.problem(line, column, parsed.error);
    return null;
  }
  return parsed.value;
}

/** A cell as money in minor units (null when empty or `--`); the problem named otherwise. */
export function moneyCell(out: PositionsCollector, line: number, column: string, text: string): number | null {
  if (text.trim() === '' || /^-+$/.test(text.trim()) || /^n\/?a$/i.test(text.trim())) return null;
  const parsed = parseMoney(text);
  if (!parsed.ok) {
    out.problem(line, column, parsed.error);
    return null;
  }
  return parsed.value;
}

