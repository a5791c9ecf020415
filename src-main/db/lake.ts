import type { Database, Statement } from 'better-sqlite3';
import type { SnapshotSourceId } from '../../src-shared/exposure/model';
import { SNAPSHOTS, type SnapshotRow } from './snapshots';
import { sql, type SqlValue } from './sql';
import { TRANSACTIONS, type TransactionRow } from './transactions';

/** A stored snapshot as the lake's export lists it: what the files' names and footers need, without the contracts. */
export interface LakeSnapshotHead {
  id: number;
  symbol: string;
  quoteTime: string;
  spot: number;
  source: SnapshotSourceId;
  /** The snapshot's content digest (migration 003): the same in every data folder that stored the same chain. */
  digest: string;
}

/** A transaction with its account's name, as the lake's transactions.parquet holds it. */
export type LakeTransactionRow = TransactionRow & { account_name: string };

type HeadColumns = Pick<SnapshotRow, 'id' | 'symbol' | 'quote_time' | 'spot' | 'source' | 'digest'>;
const HEAD_COLUMNS = SNAPSHOTS.select(['id', 'symbol', 'quote_time', 'spot', 'source', 'digest']);

/** The reads of the Parquet lake's export (src-main/services/lake/export.ts): snapshots by symbol and quote time, the journal. */
export class LakeRepository {
  private readonly transactionsStatement: Statement<[], LakeTransactionRow>;

  constructor(private readonly db: Database) {
    const columns = TRANSACTIONS.columns.map((column) => `t.${column}`).join(', ');
    // Oldest first, the id breaking ties: the same journal gives the same rows in the same order, so the same bytes.
    this.transactionsStatement = db.prepare<[], LakeTransactionRow>(
      `SELECT ${columns}, a.name AS account_name FROM transactions t JOIN accounts a ON a.id = t.account_id ORDER BY t.trade_date, t.id`,
    );
  }

  /**
   * Stored snapshots, by symbol then quote time (then id), of one symbol or all, quoted within [fromInstant, toInstant]
   * (ISO 8601 UTC, as stored).
   */
  heads(filter: { symbol?: string; fromInstant?: string; toInstant?: string }): LakeSnapshotHead[] {
    const conditions = [
      ...(filter.symbol === undefined ? [] : [sql`symbol = ${filter.symbol}`]),
      ...(filter.fromInstant === undefined ? [] : [sql`quote_time >= ${filter.fromInstant}`]),
      ...(filter.toInstant === undefined ? [] : [sql`quote_time <= ${filter.toInstant}`]),
    ];
    const where = sql.where(conditions);
    const text = `SELECT ${HEAD_COLUMNS} FROM snapshots ${where.text} ORDER BY symbol, quote_time, id`;
    return this.db
      .prepare<SqlValue[], HeadColumns>(text)
      .all(...where.params)
      .map((row) => ({ id: row.id, symbol: row.symbol, quoteTime: row.quote_time, spot: row.spot, source: row.source, digest: row.digest }));
  }

  /** Whether any snapshot of the symbol is stored (an export of an unknown symbol is refused). */
  hasSymbol(symbol: string): boolean {
    return this.db.prepare<[string], number>('SELECT EXISTS (SELECT 1 FROM snapshots WHERE symbol = ?)').pluck().get(symbol) === 1;
  }

  /** Every transaction with its account's name, oldest first. */
  transactions(): IterableIterator<LakeTransactionRow> {
    return this.transactionsStatement.iterate();
  }
}
