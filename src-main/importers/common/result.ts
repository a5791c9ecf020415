/**
 * The one result collector of the importers (errors as data, never thrown), row identities for files without
 * row ids, the neutral transaction's defaults, and the account rule.
 */
import { createHash } from 'node:crypto';
import type { ImportedTransaction } from '../../../src-shared/journal/model';
import type { ImporterId, LineProblem, ParseOptions, ParseResult, ParsedRow } from '../types';

/**
 * The order a broker lists its rows in; `by-dates` for formats that come both ways (the generic CSV, the user's own
 * formats): the file's first and last dates say which, and a file of one instant is read top-down.
 */
export type Listing = 'oldest-first' | 'newest-first' | 'by-dates';

/** The listing a file shows by its dates (rows in file order): null when its first and last rows share an instant. */
export function listingByDates(rows: readonly ParsedRow[]): 'oldest-first' | 'newest-first' | null {
  const first = rows[0]?.transaction.tradeDate;
  const last = rows[rows.length - 1]?.transaction.tradeDate;
  if (first === undefined || last === undefined) return null;
  const firstMs = Date.parse(first);
  const lastMs = Date.parse(last);
  return firstMs < lastMs ? 'oldest-first' : firstMs > lastMs ? 'newest-first' : null;
}

/**
 * Numbers the rows (in file order) by their place in the file's chronological event order (docs/importers.md, "Event
 * order"): top-down, or bottom-up for a file listed newest first; the transactions of one line keep the order the
 * importer made them in. Importers that order events themselves (a statement of several sections) set every
 * sequence before, and those stay.
 */
function numberEvents(rows: readonly ParsedRow[], declared: Listing): void {
  if (rows.length === 0 || rows.every((row) => row.transaction.sequence !== undefined)) return;
  const listing = declared === 'by-dates' ? (listingByDates(rows) ?? 'oldest-first') : declared;
  if (listing === 'oldest-first') {
    rows.forEach((row, index) => {
      row.transaction.sequence = index;
    });
    return;
  }
  let sequence = 0;
  let end = rows.length;
  while (end > 0) {
    const line = rows[end - 1]?.line;
    let start = end - 1;
    while (start > 0 && rows[start - 1]?.line === line) start -= 1;
    for (let k = start; k < end; k += 1) {
      const row = rows[k];
      if (row) row.transaction.sequence = sequence++;
    }
    end = start;
  }
}

export class ResultCollector {
  /** Data rows read (not headers, titles, totals, footers or blank lines). */
  rows = 0;
  readonly transactions: ParsedRow[] = [];
  readonly skipped: LineProblem[] = [];
  readonly warnings: Array<{ line: number | null; message: string }> = [];
  readonly errors: LineProblem[] = [];

  /**
   * How the broker lists its rows, declared by each importer: the rows' event order (`sequence`) reads a file
   * listed newest first bottom-up. Formats that come both ways say `by-dates`. A broker's own listing is not
   * second-guessed from dates: statements of several sections (IBKR) are in no date order from first row to last.
   */
  listing: Listing = 'oldest-first';

  constructor(
    readonly broker: ImporterId,
    readonly source: string,
  ) {}

  add(line: number, transaction: ImportedTransaction): void {
    this.transactions.push({ line, transaction });
  }

  /**
   * Numbers the transactions added so far in the order they were added: for importers that make them in event
   * order from several sections of a file (the line order is not the event order there).
   */
  numberInAddOrder(): void {
    this.transactions.forEach((row, index) => {
      row.transaction.sequence = index;
    });
  }

  /** `message` says what is wrong (`column "Amount": not an amount: "1x"`); the line is its own field. */
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
    // File order; messages about the whole file (no line) come last.
    const byLine = (a: { line: number | null }, b: { line: number | null }): number =>
      a.line === b.line ? 0 : a.line === null ? 1 : b.line === null ? -1 : a.line - b.line;
    // Most importers read in file order already: a check is cheaper than sorting 100k rows again.
    const inOrder = <T extends { line: number | null }>(list: readonly T[]): T[] => {
      for (let i = 1; i < list.length; i += 1) {
        const before = list[i - 1];
        const here = list[i];
        if (before !== undefined && here !== undefined && byLine(before, here) > 0) return [...list].sort(byLine);
      }
      return [...list];
    };
    const transactions = inOrder(this.transactions);
    numberEvents(transactions, this.listing);
    return {
      broker: this.broker,
      source: this.source,
      rows: this.rows,
      // File order: importers that read out of order (oldest first, sections) hand back lines in order.
      transactions,
      skipped: inOrder(this.skipped),
      warnings: inOrder(this.warnings),
      errors: inOrder(this.errors),
    };
  }
}

/**
 * Identity of a row in a file that has no row id: its normalised content plus the occurrence number among
 * identical rows (two identical fills in one file stay two transactions; a re-import maps each to the same id
 * again). Never the line number, so a re-export with newer rows on top deduplicates.
 */
export class RowIdentity {
  private readonly seen = new Map<string, number>();

  next(parts: ReadonlyArray<string | number>): string {
    const normalised = parts.map((part) => String(part).trim().replace(/\s+/g, ' ')).join('\u001f');
    const digest = createHash('sha256').update(normalised).digest('hex').slice(0, 32);
    return this.occurrence(digest);
  }

  /** A broker's own id, made unique within the file (IBKR repeats a TradeID on a corrected execution). */
  own(id: string): string {
    const occurrence = (this.seen.get(`own:${id}`) ?? 0) + 1;
    this.seen.set(`own:${id}`, occurrence);
    return occurrence === 1 ? id : `${id}#${occurrence}`;
  }

  private occurrence(digest: string): string {
    const occurrence = (this.seen.get(digest) ?? 0) + 1;
    this.seen.set(digest, occurrence);
    return `${digest}#${occurrence}`;
  }
}

/** Defaults for the fields most rows leave empty. */
export function transaction(
  fields: Pick<ImportedTransaction, 'accountName' | 'brokerRowId' | 'type' | 'tradeDate' | 'source'> & Partial<ImportedTransaction>,
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

/**
 * The account a row belongs to: the one the file names (a file with several accounts must keep them apart),
 * else the account given to the import ("Account name (files without one)" on the Import page), else the
 * broker's name. A fully masked name (`*`, `####`) names no account.
 */
export function accountFor(fileAccount: string | null | undefined, options: ParseOptions, brokerName: string): string {
  const named = (fileAccount ?? '').trim();
  if (/[A-Za-z0-9]/.test(named)) return named;
  const given = (options.accountName ?? '').trim();
  return given !== '' ? given : brokerName;
}
