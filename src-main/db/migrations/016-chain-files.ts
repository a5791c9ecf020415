import type { Migration } from './migration';

/**
 * Issue 30 (docs/exposure.md §Chains that arrive by themselves): `chain_files` remembers each chain file stored from
 * the watch folder or a backfill by the SHA-256 of its bytes, so that a backfill run again (after an interruption)
 * skips what it stored without reading it again; a row goes with its snapshot (ON DELETE CASCADE: a deletion or the
 * retention's prune), after which the file would be read again. `chain_backfills` keeps the latest backfills (their
 * folder, state and counts) so that one interrupted by a stop of the server is shown, and continued, after it.
 */
export const m016ChainFiles: Migration = {
  version: 16,
  name: 'chain-files',
  up(db) {
    db.exec(`
      CREATE TABLE chain_files (
        digest      TEXT PRIMARY KEY,
        snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        name        TEXT NOT NULL,
        stored_at   TEXT NOT NULL
      ) STRICT;
      CREATE INDEX chain_files_snapshot ON chain_files (snapshot_id);
      CREATE TABLE chain_backfills (
        id          INTEGER PRIMARY KEY,
        path        TEXT NOT NULL,
        state       TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed', 'interrupted')),
        started_at  TEXT NOT NULL,
        finished_at TEXT,
        progress    TEXT NOT NULL
      ) STRICT;
    `);
  },
};
