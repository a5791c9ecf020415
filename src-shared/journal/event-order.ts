/**
 * The broker's event order among rows of one instant (docs/journal.md, "Event order"). Date-only exports give every
 * row of a day the same instant, and the ledger orders such rows by type phase (opens, trades, closes,
 * settlements); that loses what the file says when a day holds an open, its close and a new open of the same
 * contract (Robinhood lists newest first: a sale that opened a short was netted against a long an earlier row had
 * already closed). Importers number each row's place in the file's chronological order (`sequence`); here the rows
 * of one instant from one import that carry it are put back in that order.
 */
import type { Transaction } from './model';

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
