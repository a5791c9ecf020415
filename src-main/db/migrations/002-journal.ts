import type { Migration } from './migration';
import { TRANSACTION_COLUMNS_002 } from './transaction-columns';

/**
 * Journal: accounts, imports (each undoable), transactions. Money columns are integer minor units
 * (1/10,000). `id` is the stable hash of source, account and the broker's row identity, so a re-import
 * inserts nothing twice (INSERT OR IGNORE).
 */
export const m002Journal: Migration = {
  version: 2,
  name: 'journal',
  up(db) {
    db.exec(`
      CREATE TABLE accounts (
        id    TEXT PRIMARY KEY,
        name  TEXT NOT NULL,
        source TEXT NOT NULL
      ) STRICT;
      CREATE TABLE imports (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        broker      TEXT NOT NULL,
        source      TEXT NOT NULL,
        filename    TEXT,
        created_at  TEXT NOT NULL,
        rows        INTEGER NOT NULL,
        imported    INTEGER NOT NULL,
        duplicates  INTEGER NOT NULL,
        report_json TEXT NOT NULL
      ) STRICT;
      CREATE TABLE transactions (
        ${TRANSACTION_COLUMNS_002}
      ) STRICT;
      -- Reads are served from memory (src-main/services/journal.ts); only undo needs an index.
      CREATE INDEX transactions_by_import ON transactions(import_id);
    `);
  },
};
