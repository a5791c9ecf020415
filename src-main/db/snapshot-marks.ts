import type { Database, Statement } from 'better-sqlite3';
import type { SnapshotSourceId } from '../../src-shared/exposure/model';
import { SNAPSHOTS, type SnapshotRow } from './snapshots';

/** A stored snapshot's identity and instant, without its contracts. */
export type SnapshotStamp = Pick<SnapshotRow, 'id' | 'quote_time'>;

/** One stored snapshot with its contracts (still packed). */
export type SnapshotPayload = Pick<SnapshotRow, 'id' | 'symbol' | 'quote_time' | 'spot' | 'source' | 'payload'> & { source: SnapshotSourceId };

/**
 * The journal's reads of the snapshots (docs/journal.md §Positions): which snapshots a symbol has and when, and one
 * by id. The marks pick among the stamps by instant, so quote times written with and without fractions compare right.
 */
export class SnapshotMarksRepository {
  private readonly stampsStatement: Statement<[string], SnapshotStamp>;
  private readonly byIdStatement: Statement<[number], SnapshotPayload>;

  constructor(db: Database) {
    this.stampsStatement = db.prepare<[string], SnapshotStamp>(`SELECT ${SNAPSHOTS.select(['id', 'quote_time'])} FROM snapshots WHERE symbol = ?`);
    this.byIdStatement = db.prepare<[number], SnapshotPayload>(`SELECT ${SNAPSHOTS.select(['id', 'symbol', 'quote_time', 'spot', 'source', 'payload'])} FROM snapshots WHERE id = ?`);
  }

  stamps(symbol: string): SnapshotStamp[] {
    return this.stampsStatement.all(symbol);
  }

  byId(id: number): SnapshotPayload | null {
    return this.byIdStatement.get(id) ?? null;
  }
}
