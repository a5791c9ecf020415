/**
 * Builds fed in pieces (docs/journal.md §Reads during a build): the journal worker walks a large ledger or trades build
 * a piece at a time and answers reads between pieces. A build is a generator that yields after each piece; `drive`
 * runs one to its end at once (a build nothing waits beside).
 */
import type { Transaction } from './model';
import { rowOrder } from './order';

/** A build that yields between its pieces and returns what it built. */
export type Steps<T> = Generator<void, T, void>;

/** Rows per piece: a few milliseconds of walking each (a piece ends at a day's end: pieceRows). */
export const PIECE_ROWS = 2_000;

/** Runs a build to its end without pausing. */
export function drive<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

/**
 * `transactions` (and their `rowids`) cut into pieces in processing order (order.ts), each of about `size` rows and
 * ending where every day met so far has ended: a day's rows are always in one piece, so each piece sorts within itself
 * as the whole would (a day's manual openings and corporate actions take its first row's instant: rowOrder), and the
 * builders walking the pieces one after another (LedgerBuilder.process, Grouper.walk) walk the rows as one call would.
 */
export function pieceRows(transactions: readonly Transaction[], rowids: readonly number[] | undefined, size = PIECE_ROWS): Array<{ rows: Transaction[]; rowids: number[] | undefined }> {
  if (transactions.length <= size) return [{ rows: transactions.slice(), rowids: rowids?.slice() }];
  const { order } = rowOrder(transactions);
  // The last place of each day in the order (trade dates written with other offsets may bring a day back later).
  const lastOf = new Map<string, number>();
  for (let k = 0; k < order.length; k += 1) lastOf.set(transactions[order[k] ?? 0]?.tradeDay ?? '', k);
  const pieces: Array<{ rows: Transaction[]; rowids: number[] | undefined }> = [];
  let piece: { rows: Transaction[]; rowids: number[] | undefined } = { rows: [], rowids: rowids === undefined ? undefined : [] };
  let reach = -1;
  for (let k = 0; k < order.length; k += 1) {
    const index = order[k] ?? 0;
    const t = transactions[index];
    if (t === undefined) continue;
    piece.rows.push(t);
    piece.rowids?.push(rowids?.[index] ?? -1);
    reach = Math.max(reach, lastOf.get(t.tradeDay) ?? k);
    if (reach === k && piece.rows.length >= size) {
      pieces.push(piece);
      piece = { rows: [], rowids: rowids === undefined ? undefined : [] };
    }
  }
  if (piece.rows.length > 0 || pieces.length === 0) pieces.push(piece);
  return pieces;
}
