import type { Database } from 'better-sqlite3';
import { MANUAL_SOURCE } from '../../src-shared/api/constants';
import { MANUAL_OPENING_TYPES } from '../../src-shared/journal/manual-match';
import { Sql, sql, type SqlValue } from './sql';
import { TRANSACTIONS, type LedgerRow, type TransactionRow } from './transactions';
import type { WriteTx } from './writes';

/** A row of `superseded_transactions` (migration 012): a retired manual row and the import that superseded it. */
export type SupersededRow = TransactionRow & { superseded_by: number };

/** Symbols asked for by an IN list; more are read in one pass and kept by a set (importedRows). */
const SYMBOLS_IN_LIST = 64;
const COLUMNS = TRANSACTIONS.columnList;
const OPENING_TYPES = [...MANUAL_OPENING_TYPES];
/** The columns the ledger reads (toTransaction), without the description and the broker's row id. */
const LEDGER_SQL = new Sql(TRANSACTIONS.columns.filter((column) => column !== 'description' && column !== 'broker_row_id').join(', '), []);

/**
 * Manual rows that imports superseded (docs/journal.md, "Manual entries": manual and imported rows never double), and
 * the reads of `transactions` the match needs: the manual openings (a partial index), and the imported rows of a few
 * instruments with each account's last imported day.
 */
export class SupersededRepository {
  constructor(private readonly db: Database) {}

  /** Every manual opening row (BUY_TO_OPEN, SELL_TO_OPEN, SELL_SHORT, BUY), through the partial index of migration 012. */
  manualOpenings(): TransactionRow[] {
    const query = sql`SELECT ${TRANSACTIONS.columnsSql()} FROM transactions WHERE source = ${MANUAL_SOURCE} AND type IN ${sql.list(OPENING_TYPES)}`;
    return this.db.prepare<SqlValue[], TransactionRow>(query.text).all(...query.params);
  }

  /** The imported (not manual) rows of these accounts and symbols, the ledger's columns, in no particular order. */
  importedRows(accountIds: readonly string[], symbols: readonly string[]): LedgerRow[] {
    if (accountIds.length === 0 || symbols.length === 0) return [];
    const rows: LedgerRow[] = [];
    if (symbols.length <= SYMBOLS_IN_LIST) {
      const query = sql`SELECT ${LEDGER_SQL} FROM transactions WHERE source != ${MANUAL_SOURCE} AND account_id IN ${sql.list(accountIds)} AND symbol IN ${sql.list(symbols)}`;
      for (const row of this.db.prepare<SqlValue[], LedgerRow>(query.text).iterate(...query.params)) rows.push(row);
      return rows;
    }
    // SQLite tests a row against a list of parameters one by one (no index on symbol: the import path stays lean), so
    // for many symbols one pass over the accounts' rows, kept by a set, is faster than 2,000-value lists.
    const wanted = new Set(symbols);
    const query = sql`SELECT ${LEDGER_SQL} FROM transactions WHERE source != ${MANUAL_SOURCE} AND account_id IN ${sql.list(accountIds)}`;
    for (const row of this.db.prepare<SqlValue[], LedgerRow>(query.text).iterate(...query.params)) if (wanted.has(row.symbol)) rows.push(row);
    return rows;
  }

  /** Per account, the last trade day of its imported rows, and of those not of import `except` (0: none left out). */
  lastImportedDays(accountIds: readonly string[], except = 0): Map<string, { all: string; without: string | null }> {
    const days = new Map<string, { all: string; without: string | null }>();
    if (accountIds.length === 0) return days;
    const query = sql`SELECT account_id, import_id = ${except} AS mine, MAX(trade_day) AS day FROM transactions WHERE source != ${MANUAL_SOURCE} AND account_id IN ${sql.list(accountIds)} GROUP BY account_id, mine`;
    for (const row of this.db.prepare<SqlValue[], { account_id: string; mine: number; day: string }>(query.text).iterate(...query.params)) {
      const known = days.get(row.account_id) ?? { all: row.day, without: null };
      if (row.day > known.all) known.all = row.day;
      if (row.mine === 0) known.without = row.day;
      days.set(row.account_id, known);
    }
    return days;
  }

  /** Rows of manual import `importId` retired here (it stays while it holds one: undoing the superseding import brings them back). */
  retiredOf(importId: number): number {
    return this.db.prepare<[number], number>('SELECT COUNT(*) FROM superseded_transactions WHERE import_id = ?').pluck().get(importId) ?? 0;
  }

  /** Moves these rows of `transactions` here, superseded by import `by`. */
  retire(_turn: WriteTx, ids: readonly string[], by: number): number {
    const copy = this.db.prepare<[number, string]>(`INSERT INTO superseded_transactions (${COLUMNS}, superseded_by) SELECT ${COLUMNS}, ? FROM transactions WHERE id = ?`);
    const remove = this.db.prepare<[string]>('DELETE FROM transactions WHERE id = ?');
    let moved = 0;
    for (const id of ids) {
      moved += copy.run(by, id).changes;
      remove.run(id);
    }
    return moved;
  }

  /** Moves the rows import `by` superseded back into `transactions`; returns them (their trade days as they were). */
  restore(_turn: WriteTx, by: number): TransactionRow[] {
    const rows = this.db.prepare<[number], TransactionRow>(`SELECT ${COLUMNS} FROM superseded_transactions WHERE superseded_by = ?`).all(by);
    if (rows.length === 0) return rows;
    this.db.prepare<[number]>(`INSERT INTO transactions (${COLUMNS}) SELECT ${COLUMNS} FROM superseded_transactions WHERE superseded_by = ?`).run(by);
    this.db.prepare<[number]>('DELETE FROM superseded_transactions WHERE superseded_by = ?').run(by);
    return rows;
  }
}
