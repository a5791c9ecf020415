import type { Migration } from './migration';

/**
 * Issue 18: the confirmed relation of each dealer level to each short strike (the position alerts' hysteresis,
 * docs/exposure.md §Events, "Alerts on your strikes"), and the explanation of each ticker's latest event comparison
 * (the Events page shows it). The book scope needs no table: it is the expiration key `book` of exposure_state and
 * events.
 */
export const m011PositionAlerts: Migration = {
  version: 11,
  name: 'position-alerts',
  up(db) {
    db.exec(`
      CREATE TABLE position_alert_state (
        ticker      TEXT NOT NULL,
        key         TEXT NOT NULL,
        side        TEXT NOT NULL CHECK (side IN ('above', 'below')),
        near        INTEGER NOT NULL CHECK (near IN (0, 1)),
        quote_time  TEXT NOT NULL,
        PRIMARY KEY (ticker, key)
      ) STRICT;
      CREATE TABLE event_explanations (
        ticker      TEXT PRIMARY KEY,
        timestamp   TEXT NOT NULL,
        payload     TEXT NOT NULL
      ) STRICT;
    `);
  },
};
