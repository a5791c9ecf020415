import type { Database, Statement } from 'better-sqlite3';
import { TRANSACTION_TYPES, type ImportedTransaction, type Transaction, type TransactionType } from '../../src-shared/journal/model';
import { readActionTerms, writeActionTerms } from './corporate-actions';
import { transactionInserter, type TransactionInserter } from './transaction-inserter';
import { Sql, sql, type SqlValue } from './sql';
import { TRANSACTIONS, type StoredIds, type TransactionRow } from './transaction-table';
import type { Minor } from '../../src-shared/money';
import type { WriteTx } from './writes';

export { TRANSACTIONS, type StoredIds, type TransactionRow } from './transaction-table';

/** What the ledger reads: every column but the description and the broker's row id, and the row's SQLite rowid. */
const LEDGER_COLUMNS = TRANSACTIONS.columns.filter((column) => column !== 'description' && column !== 'broker_row_id');
export type LedgerRow = Omit<TransactionRow, 'description' | 'broker_row_id'> & { row_id?: number };
const LEDGER_COLUMNS_SQL = new Sql(`rowid AS row_id, ${LEDGER_COLUMNS.join(', ')}`, []);

/** Ids per statement of ledgerRowsByIds (well under SQLite's limit of parameters). */
const LEDGER_IDS_PER_QUERY = 2_000;

/** The journal's in-memory index of every transaction: what filters and pages need. */
export type IndexRow = Pick<TransactionRow, 'id' | 'trade_day' | 'underlying' | 'account_id'>;

/** The columns the transactions list sorts by, in the index's newest-first order. */
export type SortRow = Pick<TransactionRow, 'type' | 'symbol' | 'quantity' | 'price_minor' | 'amount_minor'>;

export function toRow(tx: ImportedTransaction, ids: StoredIds): TransactionRow {
  return {
    id: ids.id,
    import_id: ids.importId,
    account_id: ids.accountId,
    broker_row_id: tx.brokerRowId,
    type: tx.type,
    symbol: tx.symbol,
    underlying: tx.underlying,
    is_option: tx.isOption ? 1 : 0,
    expiration: tx.expiration,
    strike: tx.strike,
    right: tx.right,
    quantity: tx.quantity,
    price_minor: tx.priceMinor,
    multiplier: tx.multiplier,
    amount_minor: tx.amountMinor,
    commission_minor: tx.commissionMinor,
    fees_minor: tx.feesMinor,
    currency: tx.currency,
    trade_date: tx.tradeDate,
    trade_day: ids.tradeDay,
    order_id: tx.orderId,
    description: tx.description,
    source: tx.source,
    inferred: tx.inferred ? 1 : 0,
    previous_symbol: tx.previousSymbol ?? null,
    sequence: tx.sequence ?? null,
    corporate_action: writeActionTerms(tx.corporateAction),
  };
}

const same = (text: string) => text;
/** The constants' own strings: one copy of each type name however many rows carry it. */
const TYPE_NAMES = new Map<TransactionType, TransactionType>(TRANSACTION_TYPES.map((type) => [type, type]));

/**
 * A row (full, or the ledger's columns) as a Transaction. `intern` shares repeated strings (types, currencies,
 * accounts) between the 100k objects of a ledger build.
 */
export function toTransaction(row: LedgerRow & Partial<Pick<TransactionRow, 'description' | 'broker_row_id'>>, accountNames: ReadonlyMap<string, string>, intern: (text: string) => string = same): Transaction {
  const tx: Transaction = {
    id: row.id,
    importId: row.import_id,
    accountId: intern(row.account_id),
    accountName: accountNames.get(row.account_id) ?? '',
    brokerRowId: row.broker_row_id ?? '',
    type: TYPE_NAMES.get(row.type) ?? row.type,
    symbol: intern(row.symbol),
    underlying: intern(row.underlying),
    isOption: row.is_option === 1,
    expiration: row.expiration === null ? null : intern(row.expiration),
    strike: row.strike,
    right: row.right,
    quantity: row.quantity,
    priceMinor: row.price_minor as Minor,
    multiplier: row.multiplier,
    amountMinor: row.amount_minor as Minor,
    commissionMinor: row.commission_minor as Minor,
    feesMinor: row.fees_minor as Minor,
    currency: intern(row.currency),
    tradeDate: row.trade_date,
    tradeDay: intern(row.trade_day),
    orderId: row.order_id,
    description: row.description ?? '',
    source: intern(row.source),
    inferred: row.inferred === 1,
  };
  if (row.previous_symbol !== null) tx.previousSymbol = row.previous_symbol;
  if (row.sequence !== null) tx.sequence = row.sequence;
  if (row.corporate_action !== null) {
    const terms = readActionTerms(row.corporate_action);
    if (terms !== null) tx.corporateAction = terms;
  }
  return tx;
}

export type { TransactionInserter } from './transaction-inserter';

export class TransactionsRepository {
  private readonly indexStatement: Statement<[], IndexRow>;
  private readonly ledgerStatement: Statement<[], LedgerRow>;
  private readonly ledgerRangeStatement: Statement<[number, number], LedgerRow>;
  private readonly sortStatement: Statement<[], SortRow>;
  private readonly hasSourceStatement: Statement<[string], number>;
  private readonly deleteByImportStatement: Statement<[number]>;
  private readonly tradeDatesStatement: Statement<[], Pick<TransactionRow, 'id' | 'trade_date'>>;
  private readonly setTradeDayStatement: Statement<[string, string, string]>;

  constructor(private readonly db: Database) {
    this.indexStatement = db.prepare<[], IndexRow>(`SELECT ${TRANSACTIONS.select(['id', 'trade_day', 'underlying', 'account_id'])} FROM transactions ORDER BY trade_date DESC, id DESC`);
    this.ledgerStatement = db.prepare<[], LedgerRow>(`SELECT ${LEDGER_COLUMNS_SQL.text} FROM transactions`);
    this.ledgerRangeStatement = db.prepare<[number, number], LedgerRow>(`SELECT ${LEDGER_COLUMNS_SQL.text} FROM transactions WHERE rowid BETWEEN ? AND ?`);
    this.sortStatement = db.prepare<[], SortRow>(`SELECT ${TRANSACTIONS.select(['type', 'symbol', 'quantity', 'price_minor', 'amount_minor'])} FROM transactions ORDER BY trade_date DESC, id DESC`);
    this.hasSourceStatement = db.prepare<[string], number>('SELECT EXISTS (SELECT 1 FROM transactions WHERE source = ?)').pluck();
    this.deleteByImportStatement = db.prepare<[number]>('DELETE FROM transactions WHERE import_id = ?');
    this.tradeDatesStatement = db.prepare<[], Pick<TransactionRow, 'id' | 'trade_date'>>(`SELECT ${TRANSACTIONS.select(['id', 'trade_date'])} FROM transactions`);
    this.setTradeDayStatement = db.prepare<[string, string, string]>('UPDATE transactions SET trade_day = ? WHERE id = ? AND trade_day != ?');
  }

  /** Every transaction's index columns, newest first (trade date, then id). */
  indexNewestFirst(): IterableIterator<IndexRow> {
    return this.indexStatement.iterate();
  }

  /** The sort columns of every transaction, in the order of indexNewestFirst. */
  sortRowsNewestFirst(): IterableIterator<SortRow> {
    return this.sortStatement.iterate();
  }

  /** Every transaction as the ledger reads it, in no particular order (the ledger sorts). */
  ledgerRows(): IterableIterator<LedgerRow> {
    return this.ledgerStatement.iterate();
  }

  /**
   * The ledger's columns of these rowids, in no particular order (the book replays them from a checkpoint): runs of
   * consecutive rowids (an import stores a file's rows in its order, so a stretch of the journal is mostly one run)
   * as ranges, the rest as lists.
   */
  ledgerRowsByRowids(rowids: readonly number[]): LedgerRow[] {
    const sorted = [...rowids].sort((a, b) => a - b);
    const rows: LedgerRow[] = [];
    const singles: number[] = [];
    for (let start = 0; start < sorted.length; ) {
      let end = start;
      while (end + 1 < sorted.length && sorted[end + 1] === (sorted[end] ?? 0) + 1) end += 1;
      if (end - start >= 7) {
        for (const row of this.ledgerRangeStatement.iterate(sorted[start] ?? 0, sorted[end] ?? 0)) rows.push(row);
      } else {
        for (let i = start; i <= end; i += 1) singles.push(sorted[i] ?? 0);
      }
      start = end + 1;
    }
    for (let start = 0; start < singles.length; start += LEDGER_IDS_PER_QUERY) {
      const query = sql`SELECT ${LEDGER_COLUMNS_SQL} FROM transactions WHERE rowid IN ${sql.list(singles.slice(start, start + LEDGER_IDS_PER_QUERY))}`;
      for (const row of this.db.prepare<SqlValue[], LedgerRow>(query.text).iterate(...query.params)) rows.push(row);
    }
    return rows;
  }

  /** The ledger's columns of these ids, in no particular order (the book replays them from a checkpoint). */
  ledgerRowsByIds(ids: readonly string[]): LedgerRow[] {
    const rows: LedgerRow[] = [];
    // Bounded lists: SQLite caps the parameters of a statement.
    for (let start = 0; start < ids.length; start += LEDGER_IDS_PER_QUERY) {
      const query = sql`SELECT ${LEDGER_COLUMNS_SQL} FROM transactions WHERE id IN ${sql.list(ids.slice(start, start + LEDGER_IDS_PER_QUERY))}`;
      for (const row of this.db.prepare<SqlValue[], LedgerRow>(query.text).iterate(...query.params)) rows.push(row);
    }
    return rows;
  }

  /** The ledger's columns of one import's rows, in no particular order (a ledger walking on with them: ledger-index.ts). */
  ledgerRowsOfImport(importId: number): LedgerRow[] {
    const query = sql`SELECT ${LEDGER_COLUMNS_SQL} FROM transactions WHERE import_id = ${importId}`;
    return this.db.prepare<SqlValue[], LedgerRow>(query.text).all(...query.params);
  }

  /** The index's columns of these imports' rows, newest first (as indexNewestFirst orders), with their trade_date. */
  indexRowsOfImports(importIds: readonly number[]): Array<IndexRow & Pick<TransactionRow, 'trade_date'>> {
    const query = sql`SELECT ${new Sql(TRANSACTIONS.select(['id', 'trade_day', 'underlying', 'account_id', 'trade_date']), [])} FROM transactions WHERE import_id IN ${sql.list(importIds)} ORDER BY trade_date DESC, id DESC`;
    return this.db.prepare<SqlValue[], IndexRow & Pick<TransactionRow, 'trade_date'>>(query.text).all(...query.params);
  }

  /** The newest row (by trade_date, then id: the index's order) outside these imports, and how many rows there are in all. */
  newestOutside(importIds: readonly number[]): { newest: Pick<TransactionRow, 'id' | 'trade_date'> | null; count: number } {
    const query = sql`SELECT id, trade_date FROM transactions WHERE import_id NOT IN ${sql.list(importIds)} ORDER BY trade_date DESC, id DESC LIMIT 1`;
    const newest = this.db.prepare<SqlValue[], Pick<TransactionRow, 'id' | 'trade_date'>>(query.text).get(...query.params) ?? null;
    const count = this.db.prepare<[], number>('SELECT COUNT(*) FROM transactions').pluck().get() ?? 0;
    return { newest, count };
  }

  /** The ledger's columns of the rows of `day` and later, in no particular order (a ledger resumed at a checkpoint: ledger-index.ts). */
  ledgerRowsFromDay(day: string): LedgerRow[] {
    const query = sql`SELECT ${LEDGER_COLUMNS_SQL} FROM transactions WHERE trade_day >= ${day}`;
    return this.db.prepare<SqlValue[], LedgerRow>(query.text).all(...query.params);
  }

  /** The index's columns of the rows of `day` and later, newest first (as indexNewestFirst orders), with their trade_date. */
  indexRowsFromDay(day: string): Array<IndexRow & Pick<TransactionRow, 'trade_date'>> {
    const query = sql`SELECT ${new Sql(TRANSACTIONS.select(['id', 'trade_day', 'underlying', 'account_id', 'trade_date']), [])} FROM transactions WHERE trade_day >= ${day} ORDER BY trade_date DESC, id DESC`;
    return this.db.prepare<SqlValue[], IndexRow & Pick<TransactionRow, 'trade_date'>>(query.text).all(...query.params);
  }

  /** The newest row (the index's order) of a day before `day`, and how many rows there are in all. */
  newestBeforeDay(day: string): { newest: Pick<TransactionRow, 'id' | 'trade_date'> | null; count: number } {
    const newest = this.db.prepare<[string], Pick<TransactionRow, 'id' | 'trade_date'>>('SELECT id, trade_date FROM transactions WHERE trade_day < ? ORDER BY trade_date DESC, id DESC LIMIT 1').get(day) ?? null;
    const count = this.db.prepare<[], number>('SELECT COUNT(*) FROM transactions').pluck().get() ?? 0;
    return { newest, count };
  }

  /** The first trade day of an import's rows (null: it holds none). */
  firstDayOfImport(importId: number): string | null {
    return this.db.prepare<[number], string | null>('SELECT MIN(trade_day) FROM transactions WHERE import_id = ?').pluck().get(importId) ?? null;
  }

  /** Full rows of these ids, in no particular order. */
  byIds(ids: readonly string[]): TransactionRow[] {
    if (ids.length === 0) return [];
    const query = sql`SELECT ${TRANSACTIONS.columnsSql()} FROM transactions WHERE id IN ${sql.list(ids)}`;
    return this.db.prepare<SqlValue[], TransactionRow>(query.text).all(...query.params);
  }

  /** The SPLIT / SYMBOL_CHANGE rows of shares (the corporate actions files brought), full, in no particular order. */
  corporateActionRows(): TransactionRow[] {
    return this.db.prepare<[], TransactionRow>(`SELECT ${TRANSACTIONS.columnList} FROM transactions WHERE type IN ('SPLIT', 'SYMBOL_CHANGE') AND is_option = 0`).all();
  }

  /** One full row, or null. */
  byId(id: string): TransactionRow | null {
    return this.byIds([id])[0] ?? null;
  }

  // Manual entries (services/manual-entries.ts) change single rows; their statements are prepared when used (rare).

  /** Writes every value of the row over the stored row of its id; 1 when there was one. */
  replace(_turn: WriteTx, row: TransactionRow): number {
    return this.db.prepare<[TransactionRow]>(TRANSACTIONS.updateRowSql('id')).run(row).changes;
  }

  delete(_turn: WriteTx, id: string): number {
    return this.db.prepare<[string]>('DELETE FROM transactions WHERE id = ?').run(id).changes;
  }

  /** The rows an import holds now, and their accounts (an import of manual entries changes after it was made). */
  ofImport(importId: number): { rows: number; accountIds: string[] } {
    const rows = this.db.prepare<[number], number>('SELECT COUNT(*) FROM transactions WHERE import_id = ?').pluck().get(importId) ?? 0;
    const accountIds = this.db.prepare<[number], string>('SELECT DISTINCT account_id FROM transactions WHERE import_id = ? ORDER BY account_id').pluck().all(importId);
    return { rows, accountIds };
  }

  /**
   * The rows kept as OTHER that move cash, per account and currency, up to an instant (needsAttention `other_rows`,
   * docs/journal.md): their cash counts in no P&L figure.
   */
  otherCash(untilIso: string): Array<{ account_id: string; currency: string; rows: number; cash_minor: number; first_trade_date: string }> {
    return this.db
      .prepare<[string], { account_id: string; currency: string; rows: number; cash_minor: number; first_trade_date: string }>(
        "SELECT account_id, currency, COUNT(*) AS rows, SUM(amount_minor) AS cash_minor, MIN(trade_date) AS first_trade_date FROM transactions WHERE type = 'OTHER' AND amount_minor != 0 AND trade_date <= ? GROUP BY account_id, currency ORDER BY account_id, currency",
      )
      .all(untilIso);
  }

  /**
   * Every row kept as OTHER that moves cash, by account, currency and trade date (binary order, as otherCash's GROUP
   * BY): the journal index reads them once per version of the journal and sums them per instant.
   */
  otherCashRows(): Array<{ account_id: string; currency: string; amount_minor: number; trade_date: string }> {
    return this.db
      .prepare<[], { account_id: string; currency: string; amount_minor: number; trade_date: string }>(
        "SELECT account_id, currency, amount_minor, trade_date FROM transactions WHERE type = 'OTHER' AND amount_minor != 0 ORDER BY account_id, currency, trade_date",
      )
      .all();
  }

  hasSource(source: string): boolean {
    return this.hasSourceStatement.get(source) === 1;
  }

  /** The statements of an import's loop (transaction-inserter.ts), in the caller's write turn. */
  inserter(_turn: WriteTx, of?: { importId: number; source: string }): TransactionInserter {
    return transactionInserter(this.db, of);
  }

  deleteByImport(_turn: WriteTx, importId: number): number {
    return this.deleteByImportStatement.run(importId).changes;
  }

  tradeDates(): Array<Pick<TransactionRow, 'id' | 'trade_date'>> {
    return this.tradeDatesStatement.all();
  }

  /** Sets the trade day of a row; 1 when it changed. */
  setTradeDay(_turn: WriteTx, id: string, day: string): number {
    return this.setTradeDayStatement.run(day, id, day).changes;
  }
}
