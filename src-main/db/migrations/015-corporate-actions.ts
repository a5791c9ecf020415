import type { Migration } from './migration';

/**
 * Issue 28 (DESIGN §5 "Corporate actions"): the terms of a corporate action a file states on its SPLIT /
 * SYMBOL_CHANGE row (JSON, NULL on every other row and on rows imported before), and the actions entered by hand
 * (POST /journal/corporate-actions): each in an import of its own (broker `manual`), undone with it. `account_id` NULL
 * applies to every account; it names no accounts row (an account lives while it holds transactions). The column is
 * added to `superseded_transactions` too, which keeps every column of a retired row (migration 012).
 */
export const m015CorporateActions: Migration = {
  version: 15,
  name: 'corporate-actions',
  up(db) {
    db.exec(`
      ALTER TABLE transactions ADD COLUMN corporate_action TEXT;
      ALTER TABLE superseded_transactions ADD COLUMN corporate_action TEXT;
      CREATE TABLE corporate_actions (
        id                   INTEGER PRIMARY KEY AUTOINCREMENT,
        import_id            INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
        account_id           TEXT,
        date                 TEXT NOT NULL,
        type                 TEXT NOT NULL CHECK (type IN ('split', 'symbol_change', 'merger', 'stock_dividend', 'spinoff', 'free_shares')),
        symbol               TEXT NOT NULL,
        new_symbol           TEXT,
        ratio                REAL,
        cash_per_share_minor INTEGER,
        cost_fraction        REAL,
        quantity             REAL,
        note                 TEXT NOT NULL DEFAULT '',
        created_at           TEXT NOT NULL
      ) STRICT;
      CREATE INDEX corporate_actions_by_import ON corporate_actions(import_id);
    `);
  },
};
