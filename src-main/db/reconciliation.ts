import type { Database, Statement } from 'better-sqlite3';
import { Table } from './sql';
import type { WriteTx } from './writes';

/** A row of `import_statements` (migration 014): what an import's file states about itself, and its acknowledgement. */
export type ImportStatementsRow = {
  import_id: number;
  statements_json: string;
  acknowledged_at: string | null;
};

/** A row of `balance_assertions` (migration 014): a broker's positions at an instant, saved by the user. */
export type BalanceAssertionRow = {
  id: number;
  created_at: string;
  as_of: string;
  account_id: string | null;
  format: string;
  filename: string | null;
  positions_json: string;
};

export const IMPORT_STATEMENTS = Table.of<ImportStatementsRow>()('import_statements', ['import_id', 'statements_json', 'acknowledged_at']);
export const BALANCE_ASSERTIONS = Table.of<BalanceAssertionRow>()('balance_assertions', ['id', 'created_at', 'as_of', 'account_id', 'format', 'filename', 'positions_json']);

/** The reconciliation's tables: read and written in the journal worker (its write turns). */
export class ReconciliationRepository {
  private readonly putStatement: Statement<[ImportStatementsRow]>;
  private readonly allStatementsStatement: Statement<[], ImportStatementsRow>;
  private readonly oneStatement: Statement<[number], ImportStatementsRow>;
  private readonly countStatementsStatement: Statement<[], number>;
  private readonly acknowledgeStatement: Statement<[string, number]>;
  private readonly insertAssertionStatement: Statement<[Omit<BalanceAssertionRow, 'id'>]>;
  private readonly assertionsStatement: Statement<[], BalanceAssertionRow>;
  private readonly countAssertionsStatement: Statement<[], number>;
  private readonly deleteOldestStatement: Statement<[number]>;

  constructor(db: Database) {
    this.putStatement = db.prepare<[ImportStatementsRow]>(`${IMPORT_STATEMENTS.insertRowSql()} ON CONFLICT (import_id) DO UPDATE SET statements_json = excluded.statements_json`);
    this.allStatementsStatement = db.prepare<[], ImportStatementsRow>(`SELECT ${IMPORT_STATEMENTS.columnList} FROM import_statements ORDER BY import_id`);
    this.oneStatement = db.prepare<[number], ImportStatementsRow>(`SELECT ${IMPORT_STATEMENTS.columnList} FROM import_statements WHERE import_id = ?`);
    this.countStatementsStatement = db.prepare<[], number>('SELECT COUNT(*) FROM import_statements').pluck();
    this.acknowledgeStatement = db.prepare<[string, number]>('UPDATE import_statements SET acknowledged_at = ? WHERE import_id = ?');
    this.insertAssertionStatement = db.prepare<[Omit<BalanceAssertionRow, 'id'>]>(BALANCE_ASSERTIONS.insertRowSql({ columns: BALANCE_ASSERTIONS.columns.filter((column) => column !== 'id') }));
    this.assertionsStatement = db.prepare<[], BalanceAssertionRow>(`SELECT ${BALANCE_ASSERTIONS.columnList} FROM balance_assertions ORDER BY id`);
    this.countAssertionsStatement = db.prepare<[], number>('SELECT COUNT(*) FROM balance_assertions').pluck();
    this.deleteOldestStatement = db.prepare<[number]>('DELETE FROM balance_assertions WHERE id IN (SELECT id FROM balance_assertions ORDER BY id LIMIT ?)');
  }

  /** Keeps an import's statements (the import's row must exist: gone with it, ON DELETE CASCADE). */
  putStatements(_turn: WriteTx, row: Omit<ImportStatementsRow, 'acknowledged_at'>): void {
    this.putStatement.run({ ...row, acknowledged_at: null });
  }

  allStatements(): ImportStatementsRow[] {
    return this.allStatementsStatement.all();
  }

  /** Imports that keep statements (none: nothing to check, no ledger to build). */
  statementsCount(): number {
    return this.countStatementsStatement.get() ?? 0;
  }

  statementsOf(importId: number): ImportStatementsRow | null {
    return this.oneStatement.get(importId) ?? null;
  }

  /** Marks an import's differences as seen; false when the import keeps no statements. */
  acknowledge(_turn: WriteTx, importId: number, at: string): boolean {
    return this.acknowledgeStatement.run(at, importId).changes > 0;
  }

  /** Stores an assertion, dropping the oldest beyond `keep`; returns its id. */
  insertAssertion(_turn: WriteTx, row: Omit<BalanceAssertionRow, 'id'>, keep: number): number {
    const id = Number(this.insertAssertionStatement.run(row).lastInsertRowid);
    const extra = (this.countAssertionsStatement.get() ?? 0) - keep;
    if (extra > 0) this.deleteOldestStatement.run(extra);
    return id;
  }

  assertions(): BalanceAssertionRow[] {
    return this.assertionsStatement.all();
  }
}
