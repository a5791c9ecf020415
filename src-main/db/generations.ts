import type { Database, Statement } from 'better-sqlite3';
import type { WriteTx } from './writes';

/**
 * The counters that say what another connection's commit changed (SQLite's data_version only says that one did):
 * `journal_generation` (migration 004), raised by every import, undo and re-dating in its transaction, and
 * the `snapshots` row of `generations` (migration 005), raised by triggers on every change to `snapshots`.
 */
export class Generations {
  private readonly journalStatement: Statement<[], number>;
  private readonly bumpJournalStatement: Statement<[]>;
  private readonly snapshotsStatement: Statement<[], number>;

  constructor(db: Database) {
    this.journalStatement = db.prepare<[], number>('SELECT value FROM journal_generation WHERE id = 1').pluck();
    this.bumpJournalStatement = db.prepare<[]>('UPDATE journal_generation SET value = value + 1 WHERE id = 1');
    this.snapshotsStatement = db.prepare<[], number>("SELECT value FROM generations WHERE name = 'snapshots'").pluck();
  }

  journal(): number {
    return this.journalStatement.get() ?? -1;
  }

  /** Inside the transaction of a journal write. */
  bumpJournal(_turn: WriteTx): void {
    this.bumpJournalStatement.run();
  }

  snapshots(): number {
    return this.snapshotsStatement.get() ?? -1;
  }
}
