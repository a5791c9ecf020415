import type { Migration } from './migration';

/**
 * The broker's event order (docs/journal.md, "Event order"): each imported row's place in its file's chronological
 * order, so that rows of one instant (or one day, in files without times) are replayed as the broker listed them.
 * NULL for rows imported before: the ledger orders those as it always did (by type phase).
 */
export const m008TransactionSequence: Migration = {
  version: 8,
  name: 'transaction-sequence',
  up(db) {
    db.exec('ALTER TABLE transactions ADD COLUMN sequence INTEGER;');
  },
};
