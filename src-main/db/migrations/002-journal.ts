import type { Migration } from './migration';

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
        id               TEXT PRIMARY KEY,
        import_id        INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
        account_id       TEXT NOT NULL REFERENCES accounts(id),
        broker_row_id    TEXT NOT NULL,
        type             TEXT NOT NULL,
        symbol           TEXT NOT NULL,
        underlying       TEXT NOT NULL,
        is_option        INTEGER NOT NULL,
        expiration       TEXT,
        strike           REAL,
        right            TEXT,
        quantity         REAL NOT NULL,
        price_minor      INTEGER NOT NULL,
        multiplier       REAL NOT NULL,
        amount_minor     INTEGER NOT NULL,
        commission_minor INTEGER NOT NULL,
        fees_minor       INTEGER NOT NULL,
        currency         TEXT NOT NULL,
        trade_date       TEXT NOT NULL,
        trade_day        TEXT NOT NULL,
        order_id         TEXT,
        description      TEXT NOT NULL,
        source           TEXT NOT NULL,
        inferred         INTEGER NOT NULL DEFAULT 0,
        previous_symbol  TEXT
      ) STRICT;
      -- Reads are served from memory (src-main/services/journal.ts); only undo needs an index.
      CREATE INDEX transactions_by_import ON transactions(import_id);
    `);
  },
};
