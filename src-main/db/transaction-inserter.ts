/**
 * The statements of an import's loop over `transactions` (TransactionsRepository.inserter): one row per run, its values
 * bound by position straight from the parsed transaction.
 */
import type { Database } from 'better-sqlite3';
import type { ImportedTransaction } from '../../src-shared/journal/model';
import { writeActionTerms } from './corporate-actions';
import type { SqlValue } from './sql';
import { TRANSACTIONS, type StoredIds, type TransactionRow } from './transaction-table';

/**
 * The insert of TRANSACTIONS.columns with the import, the source, `inferred` (0) and `corporate_action` (NULL) in its
 * text: the values of the other 23 columns bound, in the columns' order.
 */
function insertOfSql(importId: number, source: string): string {
  if (!Number.isSafeInteger(importId)) throw new RangeError(`not an import id: ${importId}`);
  const literal: Partial<Record<keyof TransactionRow, string>> = {
    import_id: String(importId),
    source: `'${source.replace(/'/g, "''")}'`,
    inferred: '0',
    corporate_action: 'NULL',
  };
  return `INSERT OR IGNORE INTO transactions (${TRANSACTIONS.columnList}) VALUES (${TRANSACTIONS.columns.map((column) => literal[column] ?? '?').join(', ')})`;
}

export interface TransactionInserter {
  add(tx: ImportedTransaction, ids: StoredIds): void;
  /** add() with the ids as arguments (an import's loop: no object of ids per row). */
  addWith(tx: ImportedTransaction, id: string, importId: number, accountId: string, tradeDay: string): void;
  /** Rows inserted (duplicates of stored rows are ignored). */
  finish(): number;
}

/**
 * `of`: the import and source most rows carry (an import's loop): their statement has both, with `inferred` 0 and no
 * corporate action, written into its text, four values fewer bound per row (binding is most of a row's cost after
 * SQLite's own work: each text is copied twice). Other rows take the statement of every column.
 */
export function transactionInserter(db: Database, of?: { importId: number; source: string }): TransactionInserter {
  // One row per statement, its values passed as positional arguments in the order of TRANSACTIONS.columns, straight
  // from the transaction: 30% faster than binding a row object by name (and no 25-field object per row for the
  // worker's small young generation to collect), 15% faster than spreading an array built per row; a many-row VALUES
  // list (thousands of parameters per statement) stored 1.8x slower (docs/decisions.md §Benchmarks). toRow() is the
  // same mapping as an object, for reading what was stored.
  const one = db.prepare<SqlValue[]>(TRANSACTIONS.insertSql({ orIgnore: true }));
  // A source with a NUL would end the statement's text early: such rows bind it.
  const constants = of === undefined || of.source.includes('\u0000') ? null : { importId: of.importId, source: of.source, statement: db.prepare<SqlValue[]>(insertOfSql(of.importId, of.source)) };
  let inserted = 0;
  const addWith = (tx: ImportedTransaction, id: string, importId: number, accountId: string, tradeDay: string): void => {
    if (constants !== null && importId === constants.importId && tx.source === constants.source && tx.inferred !== true && tx.corporateAction === undefined) {
      inserted += constants.statement.run(
        id, accountId, tx.brokerRowId, tx.type, tx.symbol, tx.underlying, tx.isOption ? 1 : 0, tx.expiration, tx.strike, tx.right,
        tx.quantity, tx.priceMinor, tx.multiplier, tx.amountMinor, tx.commissionMinor, tx.feesMinor, tx.currency, tx.tradeDate, tradeDay,
        tx.orderId, tx.description, tx.previousSymbol ?? null, tx.sequence ?? null,
      ).changes;
      return;
    }
    inserted += one.run(
      id, importId, accountId, tx.brokerRowId, tx.type, tx.symbol, tx.underlying, tx.isOption ? 1 : 0, tx.expiration, tx.strike, tx.right,
      tx.quantity, tx.priceMinor, tx.multiplier, tx.amountMinor, tx.commissionMinor, tx.feesMinor, tx.currency, tx.tradeDate, tradeDay,
      tx.orderId, tx.description, tx.source, tx.inferred ? 1 : 0, tx.previousSymbol ?? null, tx.sequence ?? null, writeActionTerms(tx.corporateAction),
    ).changes;
  };
  return {
    add(tx, ids) {
      addWith(tx, ids.id, ids.importId, ids.accountId, ids.tradeDay);
    },
    addWith,
    finish() {
      return inserted;
    },
  };
}
