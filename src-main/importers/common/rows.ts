/**
 * Shared building blocks for the importers: reading typed cells with line-numbered errors, row
 * identities for files without ids, and the empty ParseResult.
 */
import { createHash } from 'node:crypto';
import type { BrokerId } from '../../../src-shared/api/schemas';
import type { ImportedTransaction } from '../../../src-shared/journal/model';
import { parseMoneyMinor } from '../../../src-shared/money';
import type { CsvRecord } from './csv';
import type { LineProblem, ParseResult } from '../types';

export function emptyResult(broker: BrokerId, source: string): ParseResult {
  return { broker, source, rows: 0, transactions: [], skipped: [], warnings: [], errors: [] };
}

/**
 * Identity of a row in a file that has no row id: its normalised content plus the occurrence number
 * among identical rows (two identical fills in one file stay two transactions; a re-import maps each to
 * the same id again).
 */
export class RowIdentity {
  private readonly seen = new Map<string, number>();

  next(parts: ReadonlyArray<string | number>): string {
    const normalised = parts.map((part) => String(part).trim().replace(/\s+/g, ' ')).join('\u001f');
    const digest = createHash('sha256').update(normalised).digest('hex').slice(0, 32);
    const occurrence = (this.seen.get(digest) ?? 0) + 1;
    this.seen.set(digest, occurrence);
    return `${digest}#${occurrence}`;
  }
}

/** Names the missing columns of a header in one message (the header line's only error). */
export function missingColumns(columns: Map<string, number>, required: readonly string[]): string[] {
  return required.filter((name) => !columns.has(name.toLowerCase()));
}

const lowerNames = new Map<string, string>();

/** Column names are looked up case-insensitively many times per row: lower-case each name once. */
function lowerName(column: string): string {
  let lower = lowerNames.get(column);
  if (lower === undefined) {
    lower = column.toLowerCase();
    lowerNames.set(column, lower);
  }
  return lower;
}

/**
 * Typed access to the cells of one record by column name; every bad cell adds an error naming the line
 * and the column, and `ok` turns false so the caller drops the row.
 */
export class RowReader {
  ok = true;

  constructor(
    readonly record: CsvRecord,
    private readonly columns: Map<string, number>,
    private readonly errors: LineProblem[],
  ) {}

  get line(): number {
    return this.record.line;
  }

  has(column: string): boolean {
    return this.columns.has(lowerName(column));
  }

  text(column: string): string {
    // The per-file map learns each caller's spelling on first use, so later rows need one lookup.
    let index = this.columns.get(column);
    if (index === undefined) {
      index = this.columns.get(lowerName(column));
      if (index !== undefined) this.columns.set(column, index);
    }
    if (index === undefined) return '';
    return (this.record.cells[index] ?? '').trim();
  }

  fail(column: string, message: string): void {
    this.ok = false;
    this.errors.push({ line: this.record.line, message: `column "${column}": ${message}` });
  }

  /** Signed money in minor units; an empty cell (or `--`) is 0. */
  money(column: string): number {
    const raw = this.text(column);
    const parsed = parseMoneyMinor(raw);
    if (!parsed.ok) {
      this.fail(column, parsed.error);
      return 0;
    }
    return parsed.minor;
  }

  /** A decimal count (shares, contracts), signed as written; empty is 0. */
  number(column: string): number {
    const raw = this.text(column);
    const value = parseDecimal(raw);
    if (value === null) {
      this.fail(column, `not a number: "${raw}"`);
      return 0;
    }
    return value;
  }
}

/** `1,000`, `+2`, `-0.5`, `.55`, empty → 0; null when not a number. */
export function parseDecimal(raw: string): number | null {
  const text = raw.trim().replace(/,/g, '');
  if (text === '' || text === '--') return 0;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** Per-share price in minor units from a cash value: |value| / (quantity × multiplier), rounded. */
export function pricePerShareMinor(valueMinor: number, quantity: number, multiplier: number): number {
  if (quantity === 0 || multiplier === 0) return 0;
  return Math.round(Math.abs(valueMinor) / (Math.abs(quantity) * multiplier));
}

/** Defaults for the fields most rows leave empty. */
export function transaction(
  fields: Pick<ImportedTransaction, 'accountName' | 'brokerRowId' | 'type' | 'tradeDate' | 'source'> &
    Partial<ImportedTransaction>,
): ImportedTransaction {
  return {
    symbol: '',
    underlying: '',
    isOption: false,
    expiration: null,
    strike: null,
    right: null,
    quantity: 0,
    priceMinor: 0,
    multiplier: 1,
    amountMinor: 0,
    commissionMinor: 0,
    feesMinor: 0,
    currency: 'USD',
    orderId: null,
    description: '',
    ...fields,
  };
}

/** The first `maxLines` non-blank lines of a file (BOM removed): detection looks at the top only. */
export function firstLines(text: string, maxLines = 12): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines: string[] = [];
  // Detection runs once per importer on files of 100k rows: split only the head of the file.
  for (const line of body.slice(0, 256 * 1024).split(/\r\n|\n|\r/)) {
    if (line.trim() === '') continue;
    lines.push(line);
    if (lines.length >= maxLines) break;
  }
  return lines;
}
