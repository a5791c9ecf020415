import type { Database, Statement } from 'better-sqlite3';
import { Table } from './sql';
import type { WriteTx } from './writes';

/** A row of `exposure_state` (migration 003): the last confirmed zone and walls of a (ticker, expiration). */
export type ExposureStateRow = {
  ticker: string;
  expiration: string;
  zone: string;
  call_wall: number | null;
  put_wall: number | null;
  quote_time: string;
};

export const EXPOSURE_STATE = Table.of<ExposureStateRow>()('exposure_state', ['ticker', 'expiration', 'zone', 'call_wall', 'put_wall', 'quote_time']);

export class ExposureStateRepository {
  private readonly forTickerStatement: Statement<[string], ExposureStateRow>;
  private readonly upsertStatement: Statement<[ExposureStateRow]>;
  private readonly allStatement: Statement<[], ExposureStateRow>;

  constructor(db: Database) {
    this.forTickerStatement = db.prepare<[string], ExposureStateRow>(`SELECT ${EXPOSURE_STATE.columnList} FROM exposure_state WHERE ticker = ?`);
    this.allStatement = db.prepare<[], ExposureStateRow>(`SELECT ${EXPOSURE_STATE.columnList} FROM exposure_state`);
    const updates = EXPOSURE_STATE.columns.filter((c) => c !== 'ticker' && c !== 'expiration').map((c) => `${c} = excluded.${c}`);
    this.upsertStatement = db.prepare<[ExposureStateRow]>(
      `${EXPOSURE_STATE.insertRowSql()}
       ON CONFLICT(ticker, expiration) DO UPDATE SET ${updates.join(', ')}`,
    );
  }

  forTicker(ticker: string): ExposureStateRow[] {
    return this.forTickerStatement.all(ticker);
  }

  /** Every confirmed state (a few dozen per ticker: expirations up to 45 dte, dropped once expired). */
  all(): ExposureStateRow[] {
    return this.allStatement.all();
  }

  upsert(_turn: WriteTx, row: ExposureStateRow): void {
    this.upsertStatement.run(row);
  }
}
