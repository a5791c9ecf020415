import type { Database, Statement } from 'better-sqlite3';
import { Table } from './sql';
import type { WriteTx } from './writes';

/** What an annotation describes (migration 010): a trade (its stable id) or a campaign (its id). */
export type AnnotationKind = 'trade' | 'campaign';

/** A row of `annotations`. */
export type AnnotationRow = {
  kind: string;
  id: string;
  note: string;
  updated_at: string;
};

export const ANNOTATIONS = Table.of<AnnotationRow>()('annotations', ['kind', 'id', 'note', 'updated_at']);

/** A note and its tags, as stored (tags sorted). */
export interface Annotation {
  note: string;
  tags: string[];
  updatedAt: string;
}

/** Notes and tags on trades and campaigns; written in the journal worker's write turn, read by its trade index. */
export class AnnotationsRepository {
  private readonly upsertStatement: Statement<[AnnotationRow]>;
  private readonly deleteStatement: Statement<[string, string]>;
  private readonly deleteTagsStatement: Statement<[string, string]>;
  private readonly insertTagStatement: Statement<[string, string, string]>;
  private readonly oneStatement: Statement<[string, string], AnnotationRow>;
  private readonly tagsOfStatement: Statement<[string, string], string>;
  private readonly allStatement: Statement<[string], AnnotationRow>;
  private readonly allTagsStatement: Statement<[string], { id: string; tag: string }>;
  private readonly generationStatement: Statement<[], number>;

  constructor(private readonly db: Database) {
    this.upsertStatement = db.prepare<[AnnotationRow]>(
      `${ANNOTATIONS.insertRowSql()} ON CONFLICT (kind, id) DO UPDATE SET note = excluded.note, updated_at = excluded.updated_at`,
    );
    this.deleteStatement = db.prepare<[string, string]>('DELETE FROM annotations WHERE kind = ? AND id = ?');
    this.deleteTagsStatement = db.prepare<[string, string]>('DELETE FROM annotation_tags WHERE kind = ? AND id = ?');
    this.insertTagStatement = db.prepare<[string, string, string]>('INSERT OR IGNORE INTO annotation_tags (kind, id, tag) VALUES (?, ?, ?)');
    this.oneStatement = db.prepare<[string, string], AnnotationRow>(`SELECT ${ANNOTATIONS.columnList} FROM annotations WHERE kind = ? AND id = ?`);
    this.tagsOfStatement = db.prepare<[string, string], string>('SELECT tag FROM annotation_tags WHERE kind = ? AND id = ? ORDER BY tag').pluck();
    this.allStatement = db.prepare<[string], AnnotationRow>(`SELECT ${ANNOTATIONS.columnList} FROM annotations WHERE kind = ?`);
    this.allTagsStatement = db.prepare<[string], { id: string; tag: string }>('SELECT id, tag FROM annotation_tags WHERE kind = ? ORDER BY id, tag');
    this.generationStatement = db.prepare<[], number>("SELECT value FROM generations WHERE name = 'annotations'").pluck();
  }

  /**
   * Sets the note and tags of one item, in one transaction (the caller's, or its own): an empty note without tags
   * removes the annotation.
   */
  put(_turn: WriteTx, kind: AnnotationKind, id: string, note: string, tags: readonly string[], updatedAt: string): void {
    this.db.transaction(() => {
      this.deleteTagsStatement.run(kind, id);
      if (note === '' && tags.length === 0) {
        this.deleteStatement.run(kind, id);
        return;
      }
      this.upsertStatement.run({ kind, id, note, updated_at: updatedAt });
      for (const tag of tags) this.insertTagStatement.run(kind, id, tag);
    })();
  }

  get(kind: AnnotationKind, id: string): Annotation | null {
    const row = this.oneStatement.get(kind, id);
    return row === undefined ? null : { note: row.note, tags: this.tagsOfStatement.all(kind, id), updatedAt: row.updated_at };
  }

  /** Every annotation of a kind, by id (a few thousand at most: people write them one at a time). */
  all(kind: AnnotationKind): Map<string, Annotation> {
    const byId = new Map<string, Annotation>();
    for (const row of this.allStatement.all(kind)) byId.set(row.id, { note: row.note, tags: [], updatedAt: row.updated_at });
    for (const { id, tag } of this.allTagsStatement.all(kind)) byId.get(id)?.tags.push(tag);
    return byId;
  }

  /** Raised by every change (triggers of migration 010), by nothing else. */
  generation(): number {
    return this.generationStatement.get() ?? -1;
  }
}
