import type { Database, Statement } from 'better-sqlite3';
import { Table } from './sql';
import type { WriteTx } from './writes';

/** A row of `chain_files` (migration 016): a chain file stored, by the SHA-256 of its bytes. */
export type ChainFileRow = {
  digest: string;
  snapshot_id: number;
  name: string;
  stored_at: string;
};

export const CHAIN_FILES = Table.of<ChainFileRow>()('chain_files', ['digest', 'snapshot_id', 'name', 'stored_at']);

/** A row of `chain_backfills` (migration 016): one backfill, its counts as JSON. */
export type ChainBackfillRow = {
  id: number;
  path: string;
  state: string;
  started_at: string;
  finished_at: string | null;
  progress: string;
};

export const CHAIN_BACKFILLS = Table.of<ChainBackfillRow>()('chain_backfills', ['id', 'path', 'state', 'started_at', 'finished_at', 'progress']);

/** Backfills remembered (the newest): what the Settings page and GET /v1/chains/backfill show. */
export const BACKFILLS_KEPT = 10;

export class ChainFilesRepository {
  private readonly knownStatement: Statement<[string], number>;
  private readonly recordStatement: Statement<[ChainFileRow]>;
  private readonly insertBackfillStatement: Statement<[Omit<ChainBackfillRow, 'id'>]>;
  private readonly updateBackfillStatement: Statement<[{ id: number; state: string; finished_at: string | null; progress: string }]>;
  private readonly latestBackfillStatement: Statement<[], ChainBackfillRow>;
  private readonly pruneBackfillsStatement: Statement<[]>;
  private readonly interruptStatement: Statement<[string]>;

  constructor(db: Database) {
    this.knownStatement = db.prepare<[string], number>('SELECT snapshot_id FROM chain_files WHERE digest = ?').pluck();
    // A file stored again under another name keeps its first row; a snapshot deleted meanwhile takes none.
    this.recordStatement = db.prepare<[ChainFileRow]>(
      `INSERT OR IGNORE INTO chain_files (${CHAIN_FILES.columnList}) SELECT @digest, @snapshot_id, @name, @stored_at WHERE EXISTS (SELECT 1 FROM snapshots WHERE id = @snapshot_id)`,
    );
    this.insertBackfillStatement = db.prepare<[Omit<ChainBackfillRow, 'id'>]>(CHAIN_BACKFILLS.insertRowSql({ columns: CHAIN_BACKFILLS.columns.filter((c) => c !== 'id') }));
    this.updateBackfillStatement = db.prepare('UPDATE chain_backfills SET state = @state, finished_at = @finished_at, progress = @progress WHERE id = @id');
    this.latestBackfillStatement = db.prepare<[], ChainBackfillRow>(`SELECT ${CHAIN_BACKFILLS.columnList} FROM chain_backfills ORDER BY id DESC LIMIT 1`);
    this.pruneBackfillsStatement = db.prepare<[]>(`DELETE FROM chain_backfills WHERE id NOT IN (SELECT id FROM chain_backfills ORDER BY id DESC LIMIT ${BACKFILLS_KEPT})`);
    this.interruptStatement = db.prepare<[string]>("UPDATE chain_backfills SET state = 'interrupted', finished_at = ? WHERE state = 'running'");
  }

  /** The snapshot a file of these bytes was stored as, while it is kept; else null. */
  known(digest: string): number | null {
    return this.knownStatement.get(digest) ?? null;
  }

  record(_turn: WriteTx, row: ChainFileRow): void {
    this.recordStatement.run(row);
  }

  /** A new backfill's row (older ones beyond BACKFILLS_KEPT dropped); its id. */
  startBackfill(_turn: WriteTx, row: Omit<ChainBackfillRow, 'id'>): number {
    const id = Number(this.insertBackfillStatement.run(row).lastInsertRowid);
    this.pruneBackfillsStatement.run();
    return id;
  }

  updateBackfill(_turn: WriteTx, row: { id: number; state: string; finished_at: string | null; progress: string }): void {
    this.updateBackfillStatement.run(row);
  }

  latestBackfill(): ChainBackfillRow | null {
    return this.latestBackfillStatement.get() ?? null;
  }

  /** Backfills still marked running when the server starts were interrupted (a stop, a crash). */
  markInterrupted(_turn: WriteTx, at: string): number {
    return this.interruptStatement.run(at).changes;
  }
}
