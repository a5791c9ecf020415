import type { Database, Statement } from 'better-sqlite3';
import { Table } from './sql';
import type { WriteTx } from './writes';
import { asAccountId } from '../../src-shared/ids';
import type { Account } from '../../src-shared/journal/model';

/** A row of `accounts` (migration 002): the id is a hash of the source and the broker's account name. */
export type AccountRow = {
  id: string;
  name: string;
  source: string;
};

export const ACCOUNTS = Table.of<AccountRow>()('accounts', ['id', 'name', 'source']);

export class AccountsRepository {
  private readonly insertStatement: Statement<[AccountRow]>;
  private readonly inUseStatement: Statement<[], Pick<AccountRow, 'id' | 'name'>>;
  private readonly deleteUnusedStatement: Statement<[]>;

  constructor(private readonly db: Database) {
    this.insertStatement = db.prepare<[AccountRow]>(ACCOUNTS.insertRowSql({ orIgnore: true }));
    this.inUseStatement = db.prepare<[], Pick<AccountRow, 'id' | 'name'>>(
      `SELECT ${ACCOUNTS.select(['id', 'name'])} FROM accounts WHERE id IN (SELECT DISTINCT account_id FROM transactions) ORDER BY name, id`,
    );
    // A manual row an import superseded keeps its account (undoing that import brings the row back: migration 012).
    this.deleteUnusedStatement = db.prepare<[]>('DELETE FROM accounts WHERE id NOT IN (SELECT DISTINCT account_id FROM transactions UNION SELECT account_id FROM superseded_transactions)');
  }

  /** Adds the account unless it exists. */
  insert(_turn: WriteTx, row: AccountRow): void {
    this.insertStatement.run(row);
  }

  /** One account, or null (its statement prepared when used: manual entries name accounts by id, rarely). */
  byId(id: string): AccountRow | null {
    return this.db.prepare<[string], AccountRow>(`SELECT ${ACCOUNTS.columnList} FROM accounts WHERE id = ?`).get(id) ?? null;
  }

  /** The accounts of a name (several sources may use one name), by id. */
  byName(name: string): AccountRow[] {
    return this.db.prepare<[string], AccountRow>(`SELECT ${ACCOUNTS.columnList} FROM accounts WHERE name = ? ORDER BY id`).all(name);
  }

  /** Accounts that have transactions, by name. */
  inUse(): Account[] {
    return this.inUseStatement.all().map((row) => ({ id: asAccountId(row.id), name: row.name }));
  }

  /** Removes accounts left without transactions (after an undo). */
  deleteUnused(_turn: WriteTx): number {
    return this.deleteUnusedStatement.run().changes;
  }
}
