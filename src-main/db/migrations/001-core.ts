import type { Migration } from './migration';

/** API keys (hashed) and key/value settings. */
export const m001Core: Migration = {
  version: 1,
  name: 'core',
  up(db) {
    db.exec(`
      CREATE TABLE api_keys (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL,
        hash        BLOB NOT NULL UNIQUE,
        created_at  TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at  TEXT
      ) STRICT;
      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `);
  },
};
