import type { Migration } from './migration';
import { TRANSACTION_COLUMNS_002 } from './transaction-columns';

/**
 * Manual and imported rows never double (DESIGN §5; docs/journal.md, "Manual entries"): a manual opening that an import
 * makes a duplicate is retired into `superseded_transactions` (every column of its row, and the import that superseded
 * it), out of every read of `transactions`; undoing that import moves it back. It goes with its own manual import when
 * that is undone (ON DELETE CASCADE). A partial index finds the manual openings an import may supersede without reading
 * the journal's imported rows.
 */
export const m012SupersededManual: Migration = {
  version: 12,
  name: 'superseded-manual',
  up(db) {
    db.exec(`
      CREATE TABLE superseded_transactions (
        ${TRANSACTION_COLUMNS_002},
        sequence         INTEGER,
        superseded_by    INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX superseded_by_import ON superseded_transactions(superseded_by);
      CREATE INDEX superseded_of_import ON superseded_transactions(import_id);
      CREATE INDEX transactions_manual ON transactions(account_id, symbol) WHERE source = 'manual';
    `);
  },
};
