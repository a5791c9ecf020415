import type { Migration } from './migration';

/**
 * Reconciliation with the broker's figures (DESIGN §5 "Reconciliation", docs/journal.md §Reconciliation): what each
 * imported file states about itself, kept to check it again whenever the journal changes, with the user's
 * acknowledgement of its differences (gone with its import); and the balance assertions, a broker's positions at an
 * instant saved from POST /journal/reconcile?save=true.
 */
export const m014Reconciliation: Migration = {
  version: 14,
  name: 'reconciliation',
  up(db) {
    db.exec(`
      CREATE TABLE import_statements (
        import_id        INTEGER PRIMARY KEY REFERENCES imports(id) ON DELETE CASCADE,
        statements_json  TEXT NOT NULL,
        acknowledged_at  TEXT
      ) STRICT;
      CREATE TABLE balance_assertions (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at      TEXT NOT NULL,
        as_of           TEXT NOT NULL,
        account_id      TEXT,
        format          TEXT NOT NULL,
        filename        TEXT,
        positions_json  TEXT NOT NULL
      ) STRICT;
    `);
  },
};
