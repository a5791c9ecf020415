/**
 * Manual and imported rows never double (DESIGN §5, "Assignment, collateral and levels in trades"; docs/journal.md,
 * "Manual entries"). A manual opening (a position held before the history, entered by hand) *duplicates* the imported
 * rows of its account and instrument when:
 * 1. it is dated on or before the last day of the account's imported history (an entry after it is new activity the
 *    broker's files do not cover yet, never a duplicate);
 * 2. at the close of its day the imported rows hold units on its side (an imported opening on or before it is still
 *    open): the position it stands for is in the files;
 * 3. the imported closes after its day need fewer units than it opens (`gap`: what they close beyond what the imported
 *    rows hold). An opening that the history's closes need whole stays: it is what fills their gap.
 * Quantities: several imported fills of one position count together (a manual 2 against an imported 1 + 1 is a
 * duplicate); an imported position smaller than the manual one still makes it a duplicate, and the units the files do
 * not show come back as an opening the history lacks (needsAttention `opened_before_history`, the manual price to enter
 * again) — never a doubled position. Pure: the service reads the rows (manual-entries.ts, service.ts).
 */
import { QTY_EPSILON } from './lots';
import type { Transaction, TransactionType } from './model';
import { BUYS, CLOSING, rowOrder } from './order';
import { FILLS } from './model';

/** The rows a manual opening is (docs/journal.md §Money, dates, order: "A manual opening"). */
export const MANUAL_OPENING_TYPES: ReadonlySet<TransactionType> = new Set<TransactionType>(['BUY_TO_OPEN', 'SELL_TO_OPEN', 'SELL_SHORT', 'BUY']);

/** The side a manual opening opens: +1 long, −1 short. */
export function openingSide(type: TransactionType): 1 | -1 {
  return BUYS.has(type) ? 1 : -1;
}

/** A manual opening as the match reads it. */
export interface ManualOpening {
  side: 1 | -1;
  quantity: number;
  /** Its trade day (journal zone). */
  tradeDay: string;
}

/** What the imported rows of an instrument say about a manual opening's day. */
export interface ImportedCover {
  /** Units the imported rows hold on the opening's side at the close of its day. */
  held: number;
  /** Units on that side closed after its day beyond what the imported rows held (the gap the opening may fill). */
  gap: number;
  /** The newest imported row dated on or before its day that opened units on its side (what a refusal names). */
  opening: Transaction | null;
}

const SETTLEMENTS: ReadonlySet<TransactionType> = new Set<TransactionType>(['EXPIRATION', 'ASSIGNMENT', 'EXERCISE']);

/**
 * The imported rows of one instrument (one or more accounts the opening's account is: never manual rows), walked in the
 * ledger's order with the ledger's rules of what opens and what closes.
 */
export function importedCover(opening: ManualOpening, rows: readonly Transaction[]): ImportedCover {
  return coverOfOrdered(opening, inLedgerOrder(rows));
}

/** The rows in the ledger's processing order (order.ts): sort once, then walk for as many openings as need them. */
export function inLedgerOrder(rows: readonly Transaction[]): Transaction[] {
  const { order } = rowOrder(rows);
  const ordered: Transaction[] = [];
  for (const index of order) {
    const row = rows[index];
    if (row !== undefined) ordered.push(row);
  }
  return ordered;
}

/** importedCover of rows already in the ledger's order. */
export function coverOfOrdered(opening: ManualOpening, ordered: readonly Transaction[]): ImportedCover {
  let position = 0;
  let held: number | null = null;
  let gap = 0;
  let found: Transaction | null = null;
  const side = opening.side;
  for (const row of ordered) {
    const after = row.tradeDay > opening.tradeDay;
    if (after && held === null) held = Math.max(0, side * position);
    const qty = Math.abs(row.quantity);
    let missing = 0;
    let missingSide = 0;
    if (FILLS.has(row.type)) {
      const dir = BUYS.has(row.type) ? 1 : -1;
      const closed = position * dir < 0 ? Math.min(Math.abs(position), qty) : 0;
      position += dir * closed;
      const rest = qty - closed;
      const mayOpen = !CLOSING.has(row.type) && !(row.type === 'SELL' && !row.isOption);
      if (rest > QTY_EPSILON && mayOpen) {
        position += dir * rest;
        if (!after && dir === side) found = row;
      } else if (rest > QTY_EPSILON) {
        missing = rest;
        missingSide = -dir;
      }
    } else if (SETTLEMENTS.has(row.type) && row.isOption) {
      const wanted = qty > 0 ? qty : Math.abs(position);
      const closable = Math.min(wanted, Math.abs(position));
      position -= Math.sign(position) * closable;
      // Assigned: it was short; exercised: long; expired: taken as short (the ledger's rule).
      missing = qty > 0 ? qty - closable : 0;
      missingSide = row.type === 'EXERCISE' ? 1 : -1;
    } else if (row.type === 'SPLIT' && Math.abs(position) > QTY_EPSILON) {
      position += row.quantity;
    }
    if (Math.abs(position) <= QTY_EPSILON) position = 0;
    if (after && missing > QTY_EPSILON && missingSide === side) gap += missing;
  }
  return { held: held ?? Math.max(0, side * position), gap, opening: found };
}

/** Whether the manual opening duplicates the imported rows (the rule above); `lastImportedDay` of its account, null without any. */
export function duplicatesImported(opening: ManualOpening, cover: ImportedCover, lastImportedDay: string | null): boolean {
  return lastImportedDay !== null && opening.tradeDay <= lastImportedDay && cover.held > QTY_EPSILON && cover.gap < opening.quantity - QTY_EPSILON;
}
