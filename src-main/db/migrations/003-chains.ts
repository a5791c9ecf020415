import type { Migration } from './migration';

/**
 * Chain snapshots (contracts packed in one compressed blob per snapshot: a 21k-contract SPX chain is a few
 * hundred KB instead of 21k rows), the confirmed exposure state per (ticker, expiration), and events.
 */
export const m003Chains: Migration = {
  version: 3,
  name: 'chains',
  up(db) {
    db.exec(`
      CREATE TABLE snapshots (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        symbol      TEXT NOT NULL,
        quote_time  TEXT NOT NULL,
        spot        REAL NOT NULL,
        source      TEXT NOT NULL,
        contracts   INTEGER NOT NULL,
        expirations INTEGER NOT NULL,
        digest      TEXT NOT NULL,
        payload     BLOB NOT NULL,
        created_at  TEXT NOT NULL,
        UNIQUE (symbol, digest)
      ) STRICT;
      CREATE INDEX snapshots_latest ON snapshots(symbol, quote_time DESC, id DESC);
      CREATE TABLE exposure_state (
        ticker          TEXT NOT NULL,
        expiration      TEXT NOT NULL,
        zone            TEXT NOT NULL,
        call_wall       REAL,
        put_wall        REAL,
        quote_time      TEXT NOT NULL,
        PRIMARY KEY (ticker, expiration)
      ) STRICT;
      CREATE TABLE events (
        id          TEXT PRIMARY KEY,
        ticker      TEXT NOT NULL,
        event_type  TEXT NOT NULL,
        expiration  TEXT NOT NULL,
        timestamp   TEXT NOT NULL,
        payload     TEXT NOT NULL
      ) STRICT;
      CREATE INDEX events_newest ON events(timestamp DESC, id DESC);
    `);
  },
};
