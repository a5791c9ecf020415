import type { Migration } from './migration';

/**
 * Notes and tags on trades and campaigns (docs/journal.md §Annotations). Keyed by the stable id of what they describe
 * (a trade's first opening transaction, a campaign's account:underlying:currency:first row), never by a foreign key to
 * a transaction: an undo deletes the rows, a re-import of the same file writes them again under the same ids, and the
 * annotation is there for them. Tags are rows of their own (searched by `tag=`, counted by `groupBy=tag`), lower case.
 * The `annotations` counter of `generations` (migration 005's table) is raised by triggers, so the journal worker knows
 * when its tag index is stale without the journal's generation (which would rebuild the ledger for a note).
 */
export const m010Annotations: Migration = {
  version: 10,
  name: 'annotations',
  up(db) {
    db.exec(`
      CREATE TABLE annotations (
        kind TEXT NOT NULL CHECK (kind IN ('trade', 'campaign')),
        id TEXT NOT NULL,
        note TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (kind, id)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE annotation_tags (
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        tag TEXT NOT NULL,
        PRIMARY KEY (kind, id, tag),
        FOREIGN KEY (kind, id) REFERENCES annotations (kind, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX annotation_tags_by_tag ON annotation_tags (kind, tag);
      INSERT INTO generations (name, value) VALUES ('annotations', 0);
      CREATE TRIGGER annotations_inserted AFTER INSERT ON annotations BEGIN UPDATE generations SET value = value + 1 WHERE name = 'annotations'; END;
      CREATE TRIGGER annotations_deleted AFTER DELETE ON annotations BEGIN UPDATE generations SET value = value + 1 WHERE name = 'annotations'; END;
      CREATE TRIGGER annotations_updated AFTER UPDATE ON annotations BEGIN UPDATE generations SET value = value + 1 WHERE name = 'annotations'; END;
    `);
  },
};
