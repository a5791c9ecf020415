import type { Migration } from './migration';

/**
 * The snapshots' generation: a counter raised by every change to `snapshots` (triggers, so that no writer can
 * forget it). The exposure caches (prepared chains, cached answers) depend on the stored snapshots alone: SQLite's
 * data_version says that another connection committed something (a journal import in the worker, the key-usage
 * flush, the CLI), and this counter says whether it was a snapshot, so that other writes leave the caches warm.
 * Counters are rows of `generations`, by name: a later one is a row, not a table.
 */
export const m005SnapshotGeneration: Migration = {
  version: 5,
  name: 'snapshot-generation',
  up(db) {
    db.exec(`
      CREATE TABLE generations (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
      INSERT INTO generations (name, value) VALUES ('snapshots', 0);
      CREATE TRIGGER snapshots_inserted AFTER INSERT ON snapshots BEGIN UPDATE generations SET value = value + 1 WHERE name = 'snapshots'; END;
      CREATE TRIGGER snapshots_deleted AFTER DELETE ON snapshots BEGIN UPDATE generations SET value = value + 1 WHERE name = 'snapshots'; END;
      CREATE TRIGGER snapshots_updated AFTER UPDATE ON snapshots BEGIN UPDATE generations SET value = value + 1 WHERE name = 'snapshots'; END;
    `);
  },
};
