import type { Migration } from './migration';

/**
 * A counter that every write to the journal (import, undo, re-dating) raises in its own transaction. The journal's
 * in-memory index and ledger live in a worker thread with its own connection; SQLite's data_version tells it that
 * some other connection committed (also the key-usage flush or a chain snapshot), and this counter tells whether
 * the journal changed, so that unrelated writes do not cost a ledger rebuild.
 */
export const m004JournalGeneration: Migration = {
  version: 4,
  name: 'journal-generation',
  up(db) {
    db.exec(`
      CREATE TABLE journal_generation (
        id    INTEGER PRIMARY KEY CHECK (id = 1),
        value INTEGER NOT NULL
      ) STRICT;
      INSERT INTO journal_generation (id, value) VALUES (1, 0);
    `);
  },
};
