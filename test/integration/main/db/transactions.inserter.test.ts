/**
 * Issue 32: an import's rows go through a statement with the import, the source, `inferred` 0 and no corporate action
 * written into its text (TransactionsRepository.inserter's `of`), the other rows through the statement of every column.
 * The same rows stored either way give the same table, rowid for rowid; and a row SQLite refuses mid-import leaves
 * nothing of the import behind (the service's savepoint), whichever statement stored the rows before it.
 */
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { syntheticTransactions } from '../../../../src-shared/demo/journal';
import type { ImportedTransaction } from '../../../../src-shared/journal/model';
import { openDatabase } from '../../../../src-main/db/open';
import { TRANSACTIONS, TransactionsRepository } from '../../../../src-main/db/transactions';
import { writeNow } from '../../../../src-main/db/writes';
import { JournalService } from '../../../../src-main/services/journal/service';
import { transactionIdFor } from '../../../../src-main/services/journal/ids';
import { DEFAULT_SETTINGS } from '../../../../src-main/settings';
import { manualClock } from '../../../clock';
import { tempDir } from '../../../paths';

const opened: Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function database(name: string): Database {
  const db = openDatabase(join(tempDir('strikebook-inserter-'), `${name}.db`)).db;
  opened.push(db);
  db.exec("INSERT INTO imports (id, broker, source, filename, created_at, rows, imported, duplicates, report_json) VALUES (7, 'generic', 'generic-csv', NULL, '2024-01-01T00:00:00Z', 0, 0, 0, '{}')");
  return db;
}

/** Rows of every kind the two statements split: the import's own, inferred ones, corporate actions, other sources. */
function mixedRows(): ImportedTransaction[] {
  const rows: ImportedTransaction[] = syntheticTransactions(600, 7).map((tx, index) => ({ ...tx, source: 'generic-csv', sequence: index }));
  const at = (index: number): ImportedTransaction => {
    const row = rows[index];
    if (row === undefined) throw new Error(`no row ${index}`);
    return row;
  };
  rows[10] = { ...at(10), inferred: true };
  rows[20] = { ...at(20), type: 'SPLIT', isOption: false, expiration: null, strike: null, right: null, corporateAction: { type: 'split', symbol: 'PFE', newSymbol: null, ratio: 2, cashPerShareMinor: null, costFraction: null, quantity: null } as never };
  rows[30] = { ...at(30), source: "o'brien-csv" };
  rows[40] = { ...at(40), source: 'webull-csv', inferred: false };
  rows[50] = { ...at(50), previousSymbol: 'FB', orderId: null, description: "it's" };
  // A duplicate of an earlier row: ignored by either statement.
  rows.push({ ...at(5) });
  return rows;
}

function store(db: Database, rows: readonly ImportedTransaction[], of?: { importId: number; source: string }): number {
  const repository = new TransactionsRepository(db);
  const accounts = new Set<string>();
  return writeNow(db, (turn) => {
    const inserter = repository.inserter(turn, of);
    for (const tx of rows) {
      const accountId = `acc_${tx.accountName}`;
      if (!accounts.has(accountId)) {
        db.prepare('INSERT INTO accounts (id, name, source) VALUES (?, ?, ?)').run(accountId, tx.accountName, tx.source);
        accounts.add(accountId);
      }
      inserter.addWith(tx, transactionIdFor(tx), 7, accountId, tx.tradeDate.slice(0, 10));
    }
    return inserter.finish();
  });
}

const everything = (db: Database): unknown[] => db.prepare(`SELECT rowid, ${TRANSACTIONS.columnList} FROM transactions ORDER BY rowid`).all();

describe('TransactionsRepository.inserter', () => {
  it('stores the same table with the import’s own statement as with the statement of every column', () => {
    const rows = mixedRows();
    const plain = database('plain');
    const own = database('own');
    expect(store(plain, rows)).toBe(rows.length - 1);
    expect(store(own, rows, { importId: 7, source: 'generic-csv' })).toBe(rows.length - 1);
    const stored = everything(own);
    expect(stored).toEqual(everything(plain));
    expect(stored).toHaveLength(rows.length - 1);
    // The rows that took the other statement kept what they carry.
    const byRowid = (rowid: number) => stored[rowid - 1] as Record<string, unknown>;
    expect(byRowid(11)).toMatchObject({ inferred: 1, source: 'generic-csv', import_id: 7 });
    expect(JSON.parse(String(byRowid(21).corporate_action))).toMatchObject({ type: 'split', ratio: 2 });
    expect(byRowid(31)).toMatchObject({ source: "o'brien-csv" });
    expect(byRowid(41)).toMatchObject({ source: 'webull-csv', inferred: 0 });
    expect(byRowid(51)).toMatchObject({ previous_symbol: 'FB', order_id: null, description: "it's", sequence: 50 });
  });

  it('a row SQLite refuses mid-import leaves no row and no import behind', () => {
    const db = openDatabase(join(tempDir('strikebook-inserter-'), 'refused.db')).db;
    opened.push(db);
    const service = new JournalService(db, () => ({ ...DEFAULT_SETTINGS }), manualClock('2100-01-01T00:00:00Z'));
    const rows = syntheticTransactions(500, 3).map((transaction, index) => ({ line: index + 2, transaction: { ...transaction, source: 'generic-csv' } }));
    // Text where the STRICT table wants an integer: SQLite refuses the 300th row after 299 were stored.
    const bad = rows[299];
    if (bad === undefined) throw new Error('no row 300');
    bad.transaction = { ...bad.transaction, priceMinor: 'abc' as never };
    const notes = { skipped: [], skippedCount: 0, skippedReasons: [], warnings: [], warningCount: 0, merged: [], mergedCount: 0 };
    expect(() => writeNow(db, (turn) => service.store(turn, 'generic', 'generic-csv', rows, rows.length, notes, 'refused.csv'))).toThrow(/cannot store/);
    expect(db.prepare('SELECT COUNT(*) FROM transactions').pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM imports').pluck().get()).toBe(0);
    // The database takes the file once it is right.
    bad.transaction = { ...bad.transaction, priceMinor: rows[0]?.transaction.priceMinor ?? bad.transaction.commissionMinor };
    const record = writeNow(db, (turn) => service.store(turn, 'generic', 'generic-csv', rows, rows.length, notes, 'fixed.csv'));
    expect(record.imported).toBe(500);
    expect(db.prepare('SELECT COUNT(*) FROM transactions').pluck().get()).toBe(500);
  });
});
