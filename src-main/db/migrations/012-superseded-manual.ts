import type { Migration } from './migration';

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
        previous_symbol  TEXT,
        sequence         INTEGER,
        superseded_by    INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX superseded_by_import ON superseded_transactions(superseded_by);
      CREATE INDEX superseded_of_import ON superseded_transactions(import_id);
      CREATE INDEX transactions_manual ON transactions(account_id, symbol) WHERE source = 'manual';
    `);
  },
};
