/**
 * How what is entered by hand (manual rows, corporate actions) changes the journal: each change one IMMEDIATE
 * transaction (the write lock first, so that no import comes between its checks and its rows), the journal's
 * generation raised in it when the change is made (a refusal writes nothing), and the worker's index told after its
 * transaction (the write turn's, writeTransaction, commits it).
 */
import type { Database } from 'better-sqlite3';
import { Generations } from '../../db/generations';
import type { WriteTx } from '../../db/writes';
import type { Result } from '../result';

export class HandChanges {
  private readonly generations: Generations;

  constructor(
    private readonly db: Database,
    /** After a change: the journal's in-memory index and ledger follow (JournalIndex.written). */
    private readonly written: () => void,
  ) {
    this.generations = new Generations(db);
  }

  /** Makes `change`; `committed` runs after the transaction of one that was made (by default the journal's index follows). */
  make<T>(turn: WriteTx, change: () => Result<T>, committed: (value: T) => void = () => this.written()): Result<T> {
    const result = this.db
      .transaction((): Result<T> => {
        const made = change();
        if (made.ok) this.generations.bumpJournal(turn);
        return made;
      })
      .immediate();
    if (result.ok) committed(result.value);
    return result;
  }

  /** Changes a stored entry, looked up again under the lock: an undo may have removed it since the request was checked. */
  makeTo<Row, T>(turn: WriteTx, lookup: () => Result<Row>, change: (row: Row) => T, committed?: (value: T) => void): Result<T> {
    return this.make(
      turn,
      () => {
        const found = lookup();
        return found.ok ? { ok: true, value: change(found.value) } : found;
      },
      committed,
    );
  }
}
