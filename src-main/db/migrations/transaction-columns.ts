/**
 * The columns of a journal transaction row as migration 002 made them: the tables that hold such a row whole (012's
 * retired manual rows) repeat them, so that a row moves between them column for column. Frozen, as the migrations that
 * read it: a new column is a new migration's ALTER TABLE of each table (008 added `sequence`). Joined as the migrations
 * wrote them, so that the schema SQLite stores is the same text as before.
 */
export const TRANSACTION_COLUMNS_002 = [
  'id               TEXT PRIMARY KEY,',
  'import_id        INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,',
  'account_id       TEXT NOT NULL REFERENCES accounts(id),',
  'broker_row_id    TEXT NOT NULL,',
  'type             TEXT NOT NULL,',
  'symbol           TEXT NOT NULL,',
  'underlying       TEXT NOT NULL,',
  'is_option        INTEGER NOT NULL,',
  'expiration       TEXT,',
  'strike           REAL,',
  'right            TEXT,',
  'quantity         REAL NOT NULL,',
  'price_minor      INTEGER NOT NULL,',
  'multiplier       REAL NOT NULL,',
  'amount_minor     INTEGER NOT NULL,',
  'commission_minor INTEGER NOT NULL,',
  'fees_minor       INTEGER NOT NULL,',
  'currency         TEXT NOT NULL,',
  'trade_date       TEXT NOT NULL,',
  'trade_day        TEXT NOT NULL,',
  'order_id         TEXT,',
  'description      TEXT NOT NULL,',
  'source           TEXT NOT NULL,',
  'inferred         INTEGER NOT NULL DEFAULT 0,',
  'previous_symbol  TEXT',
].join('\n        ');
