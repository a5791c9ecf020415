import type { Migration } from './migration';

/**
 * User-defined import formats (docs/importers.md, "User-defined formats"): a column mapping saved from the Import
 * page, used again when a file with the same header names comes back. `header_key` (the names, normalised and
 * sorted) is unique: one header, one format.
 */
export const m006ImportFormats: Migration = {
  version: 6,
  name: 'import-formats',
  up(db) {
    db.exec(`
      CREATE TABLE import_formats (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        header_key TEXT NOT NULL UNIQUE,
        header_json TEXT NOT NULL,
        mapping_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
