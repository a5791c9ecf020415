/**
 * The one result collector of the importers (errors as data, never thrown), row identities for files without
 * row ids, the neutral transaction's defaults, and the account rule.
 */
import { createHash } from 'node:crypto';
import type { MergedRows } from '../../../src-shared/journal/import-report';
import type { ImportedTransaction, RawTransaction } from '../../../src-shared/journal/model';
import { MAX_STATEMENTS, type FileStatement } from '../../../src-shared/journal/statements';
import { MAX_MESSAGE_CHARS } from '../../../src-shared/text';
import { ZERO_MINOR } from '../../../src-shared/money';
import { insaneField } from './sane';
import { withChainUnderlying } from './options';
import { asTicker } from '../../../src-shared/ids';
import { checkpoint } from '../../checkpoint';
import type { ImporterId, LineProblem, ParseOptions, ParseResult, ParsedRow, ReasonCount } from '../types';

/** Errors kept per file; the rest are counted in one last entry (docs/importers.md §Bounded). */
export const MAX_KEPT_ERRORS = 1_000;
/** Skipped lines and warnings kept per file (each kind); the rest are counted, by reason. */
export const MAX_KEPT_NOTES = 1_000;
/** Distinct reasons counted per kind; further reasons are counted together. */
export const MAX_REASONS = 100;

/** A message as kept: a line of text, whatever a hostile cell quoted into it. */
function bounded(message: string): string {
  return message.length <= MAX_MESSAGE_CHARS ? message : `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
}

/**
 * Notes of one kind (skipped lines, warnings): the first MAX_KEPT_NOTES kept, all counted, and counted by reason (the
 * message) for the first MAX_REASONS reasons. A 46 MB file of cancelled orders made 43 MB of skipped lines once.
 */
export class NoteTally<T extends { line: number | null; message: string }> {
  readonly kept: T[] = [];
  count = 0;
  readonly reasons = new Map<string, number>();
  /** Notes whose reason came after MAX_REASONS others. */
  otherReasons = 0;

  add(note: T): void {
    this.count += 1;
    const seen = this.reasons.get(note.message);
    if (seen !== undefined) this.reasons.set(note.message, seen + 1);
    else if (this.reasons.size < MAX_REASONS) this.reasons.set(note.message, 1);
    else this.otherReasons += 1;
    if (this.kept.length < MAX_KEPT_NOTES) this.kept.push(note);
  }

  /** Counts by reason, most frequent first (then first seen). */
  byReason(): ReasonCount[] {
    const counts = [...this.reasons].map(([reason, count]) => ({ reason, count }));
    counts.sort((a, b) => b.count - a.count);
    return counts;
  }
}

/**
 * The order a broker lists its rows in; `by-dates` for formats that come both ways (the generic CSV, the user's own
 * formats): the file's first and last dates say which, and a file of one instant is read top-down.
 */
export type Listing = 'oldest-first' | 'newest-first' | 'by-dates';

/** The listing a file shows by its dates (rows in file order): null when its first and last rows share an instant. */
export function listingByDates(rows: ReadonlyArray<{ transaction: { tradeDate: string } }>): 'oldest-first' | 'newest-first' | null {
  const first = rows[0]?.transaction.tradeDate;
  const last = rows[rows.length - 1]?.transaction.tradeDate;
  if (first === undefined || last === undefined) return null;
  const firstMs = Date.parse(first);
  const lastMs = Date.parse(last);
  return firstMs < lastMs ? 'oldest-first' : firstMs > lastMs ? 'newest-first' : null;
}

/**
 * A row's names through asTicker (src-shared/ids.ts), the one ticker normalisation, whichever importer read it: a file
 * that writes `pfe` books the same PFE as a file that writes `PFE` (an OCC symbol's letters are its root's). Each
 * broker's reader upper-cased some of them; shares and dividends were kept as written.
 */
function withTickers(tx: RawTransaction): ImportedTransaction {
  const symbol = asTicker(tx.symbol);
  const underlying = asTicker(tx.underlying);
  const previousSymbol = tx.previousSymbol === undefined ? undefined : asTicker(tx.previousSymbol);
  const action = tx.corporateAction;
  const actionSymbol = action === undefined ? undefined : asTicker(action.symbol);
  const actionNewSymbol = action === undefined || action.newSymbol === null ? null : asTicker(action.newSymbol);
  const same = symbol === tx.symbol && underlying === tx.underlying && previousSymbol === tx.previousSymbol && (action === undefined || (actionSymbol === action.symbol && actionNewSymbol === action.newSymbol));
  // The row itself when its names were Tickers already: no copy of every row (issue 32), only their type said again.
  if (same) return Object.assign(tx, { symbol, underlying });
  return {
    ...tx,
    symbol,
    underlying,
    ...(previousSymbol === undefined ? {} : { previousSymbol }),
    ...(action === undefined || actionSymbol === undefined ? {} : { corporateAction: { ...action, symbol: actionSymbol, newSymbol: actionNewSymbol } }),
  };
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
  private readonly skippedNotes = new NoteTally<LineProblem>();
  private readonly warningNotes = new NoteTally<{ line: number | null; message: string }>();
  private readonly mergedGroups: MergedRows[] = [];
  private mergedCount = 0;
  /** The first MAX_KEPT_ERRORS errors; `errorCount` counts them all. */
  readonly errors: LineProblem[] = [];
  errorCount = 0;
  /** The line of the first error not kept. */
  private firstUnkeptLine: number | null = null;
  /** What the file states about itself, the first MAX_STATEMENTS (statements.ts). */
  private readonly statements: FileStatement[] = [];

  constructor(
    readonly broker: ImporterId,
    readonly source: string,
    /**
     * How the broker lists its rows, declared by each importer: the rows' event order (`sequence`) reads a file
     * listed newest first bottom-up. Formats that come both ways say `by-dates`. A broker's own listing is not
     * second-guessed from dates: statements of several sections (IBKR) are in no date order from first row to last.
     */
    readonly listing: Listing,
  ) {}

  /**
   * A transaction read from `line`, its underlying the chain's (SPXW → SPX: withChainUnderlying); one with a value out
   * of range is an error at that line instead.
   */
  add(line: number, read: RawTransaction): void {
    checkpoint();
    const transaction = withChainUnderlying(withTickers(read));
    const insane = insaneField(transaction);
    if (insane === null) this.transactions.push({ line, transaction });
    else this.error(line, insane);
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
    this.errorCount += 1;
    if (this.errors.length < MAX_KEPT_ERRORS) this.errors.push({ line, message: bounded(message) });
    else this.firstUnkeptLine ??= line;
  }

  /**
   * True while an error's message would still be kept. Hot loops over hostile files ask first and only count the
   * rest (countError): a message built for every one of 12 million bad lines is old-space garbage, because V8
   * allocates in old space what its allocation site saw survive (the first kept messages), and 170 MB of it piled up
   * between collections of a 49 MB upload (docs/importers.md §Bounded).
   */
  get keepsErrors(): boolean {
    return this.errors.length < MAX_KEPT_ERRORS;
  }

  /** An error past the kept ones: counted, its message never built. */
  countError(line: number): void {
    this.errorCount += 1;
    this.firstUnkeptLine ??= line;
  }

  warn(line: number | null, message: string): void {
    this.warningNotes.add({ line, message: bounded(message) });
  }

  /** Rows `lines` became one transaction (at the first of them): the report says which and why, so its counts add up. */
  merge(lines: readonly number[], reason: string): void {
    this.mergedCount += Math.max(0, lines.length - 1);
    if (this.mergedGroups.length < MAX_KEPT_NOTES) this.mergedGroups.push({ lines: [...lines].sort((a, b) => a - b), reason: bounded(reason) });
  }

  /** A figure the file states about itself (a total line, a position at its end), checked against the journal after the insert. */
  state(statement: FileStatement): void {
    if (this.statements.length < MAX_STATEMENTS) this.statements.push({ ...statement, label: bounded(statement.label) });
  }

  skip(line: number, message: string): void {
    this.skippedNotes.add({ line, message: bounded(message) });
  }

  /** The warnings kept so far (importers that look back at what they said). */
  get warnings(): ReadonlyArray<{ line: number | null; message: string }> {
    return this.warningNotes.kept;
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
    const errors = inOrder(this.errors);
    const more = this.errorCount - this.errors.length;
    if (more > 0) errors.push({ line: this.firstUnkeptLine ?? errors[errors.length - 1]?.line ?? 1, message: moreProblems(more, this.errorCount) });
    return {
      broker: this.broker,
      source: this.source,
      rows: this.rows,
      // File order: importers that read out of order (oldest first, sections) hand back lines in order.
      transactions,
      skipped: inOrder(this.skippedNotes.kept),
      skippedCount: this.skippedNotes.count,
      skippedReasons: this.skippedNotes.byReason(),
      warnings: inOrder(this.warningNotes.kept),
      warningCount: this.warningNotes.count,
      merged: [...this.mergedGroups].sort((a, b) => (a.lines[0] ?? 0) - (b.lines[0] ?? 0)),
      mergedCount: this.mergedCount,
      errors,
      errorCount: this.errorCount,
      statements: [...this.statements],
    };
  }
}

/** The entry that stands for the errors not kept (its line is the first of them). */
export function moreProblems(more: number, total: number): string {
  return `and ${more.toLocaleString('en-US')} more error${more === 1 ? '' : 's'} (${total.toLocaleString('en-US')} in all; only the first ${MAX_KEPT_ERRORS.toLocaleString('en-US')} are listed)`;
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
  fields: Pick<RawTransaction, 'accountName' | 'brokerRowId' | 'type' | 'tradeDate' | 'source'> & Partial<RawTransaction>,
): RawTransaction {
  return {
    symbol: '',
    underlying: '',
    isOption: false,
    expiration: null,
    strike: null,
    right: null,
    quantity: 0,
    priceMinor: ZERO_MINOR,
    multiplier: 1,
    amountMinor: ZERO_MINOR,
    commissionMinor: ZERO_MINOR,
    feesMinor: ZERO_MINOR,
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
  if (/[A-Z0-9]/i.test(named)) return named;
  const given = (options.accountName ?? '').trim();
  return given !== '' ? given : brokerName;
}
