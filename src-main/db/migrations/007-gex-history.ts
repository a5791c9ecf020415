import type { Migration } from './migration';

/**
 * The points of /v1/gex/history: one row per (snapshot, scope), computed once and kept (docs/exposure.md,
 * "History"). A point goes with its snapshot (ON DELETE CASCADE: a DELETE /v1/snapshots/{id} or the retention's
 * prune). `scope` is the resolved request (formula, expirationsCount, dte range, explicit expirations) as text.
 */
export const m007GexHistory: Migration = {
  version: 7,
  name: 'gex-history',
  up(db) {
    db.exec(`
      CREATE TABLE gex_history (
        snapshot_id INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        scope       TEXT NOT NULL,
        point       TEXT NOT NULL,
        PRIMARY KEY (snapshot_id, scope)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
