/**
 * The broker's event order among rows of one instant (docs/journal.md, "Event order"). Date-only exports give every
 * row of a day the same instant, and the ledger orders such rows by type phase (opens, trades, closes,
 * settlements); that loses what the file says when a day holds an open, its close and a new open of the same
 * contract (Robinhood lists newest first: a sale that opened a short was netted against a long an earlier row had
 * already closed). Importers number each row's place in the file's chronological order (`sequence`); here the rows
 * of one instant from one import that carry it are put back in that order.
 */
import { dateToUtcMs, parseInstantMs } from '../calendar';
import type { Transaction, TransactionType } from './model';

/**
 * Order among rows of the same instant: opens before closes before settlements. Date-only exports give
 * every row of a day the same instant, and the id (a hash) would otherwise decide whether a day trade's
 * close comes before its open. FIFO makes the result the same either way when a lot already exists.
 */
export function phaseOf(type: TransactionType): number {
  switch (type) {
    case 'SPLIT':
    case 'SYMBOL_CHANGE':
      return 0;
    case 'BUY_TO_OPEN':
    case 'SELL_TO_OPEN':
      return 1;
    case 'BUY':
    case 'SELL':
    case 'SELL_SHORT':
    case 'BUY_TO_COVER':
      return 2;
    case 'BUY_TO_CLOSE':
    case 'SELL_TO_CLOSE':
      return 3;
    case 'EXPIRATION':
    case 'ASSIGNMENT':
    case 'EXERCISE':
      return 4;
    default:
      return 5;
  }
}

/** Epoch ms of a row's instant; a row whose text is no ISO instant sorts at the start of its trade day. */
export function instantMs(tradeDate: string, tradeDay: string): number {
  const ms = parseInstantMs(tradeDate);
  return Number.isNaN(ms) ? dateToUtcMs(tradeDay) : ms;
}

/**
 * The order the ledger (and every walk that must agree with it, trade-walk.ts) processes rows in: instant, then type
 * phase, rows without a sequence before rows with one, then id; then each import's sequenced rows of one instant in
 * the broker's event order (keepEventOrder). `ms` is each row's instant, by row index.
 */
export function processingOrder(transactions: readonly Transaction[]): { order: Uint32Array; ms: Float64Array } {
  const count = transactions.length;
  const ms = new Float64Array(count);
  // One number per row: instant × 8 + phase (exact: epoch ms × 8 stays far below 2^53).
  const keys = new Float64Array(count);
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i += 1) {
    const t = transactions[i];
    if (!t) continue;
    ms[i] = instantMs(t.tradeDate, t.tradeDay);
    keys[i] = (ms[i] ?? 0) * 8 + phaseOf(t.type);
    order[i] = i;
  }
  order.sort((a, b) => {
    const diff = (keys[a] ?? 0) - (keys[b] ?? 0);
    if (diff !== 0) return diff;
    // Rows without the broker's event order (manual entries, older imports) first among equals: see keepEventOrder.
    const sequenced = (transactions[a]?.sequence === undefined ? 0 : 1) - (transactions[b]?.sequence === undefined ? 0 : 1);
    if (sequenced !== 0) return sequenced;
    const ida = transactions[a]?.id ?? '';
    const idb = transactions[b]?.id ?? '';
    return ida < idb ? -1 : ida > idb ? 1 : 0;
  });
  // Rows of one instant from one import keep the broker's event order where the import recorded it.
  keepEventOrder(order, transactions, (i) => ms[i] ?? 0);
  return { order, ms };
}

/**
 * Reorders `order` (row indexes already sorted by instant, then phase, rows without a sequence before rows with one,
 * then id: so that a manual opening entered on the day of a file's close precedes it) so that, within each instant, the
 * rows of one import that carry a sequence take the places that group already holds, in sequence order. Rows
 * without a sequence (imported before it existed, manual entries) and other imports keep their places: the result
 * is one consistent order, where a comparator mixing "sequence within an import" with "phase across imports" would
 * not be transitive. `instantOf(i)` is the row's instant as the sort used it.
 */
export function keepEventOrder(order: Uint32Array, transactions: readonly Transaction[], instantOf: (index: number) => number): void {
  let start = 0;
  while (start < order.length) {
    const instant = instantOf(order[start] ?? 0);
    let end = start + 1;
    while (end < order.length && instantOf(order[end] ?? 0) === instant) end += 1;
    if (end - start > 1) reorderRun(order, transactions, start, end);
    start = end;
  }
}

/** One instant's rows, order[start..end): each import's sequenced rows in sequence order, in their own places. */
function reorderRun(order: Uint32Array, transactions: readonly Transaction[], start: number, end: number): void {
  const groups = new Map<number, number[]>();
  for (let k = start; k < end; k += 1) {
    const t = transactions[order[k] ?? 0];
    if (t?.sequence === undefined) continue;
    const places = groups.get(t.importId);
    if (places) places.push(k);
    else groups.set(t.importId, [k]);
  }
  for (const places of groups.values()) {
    if (places.length < 2) continue;
    const rows = places.map((k) => order[k] ?? 0);
    rows.sort((a, b) => (transactions[a]?.sequence ?? 0) - (transactions[b]?.sequence ?? 0));
    places.forEach((k, i) => {
      order[k] = rows[i] ?? 0;
    });
  }
}
