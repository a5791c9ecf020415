import type { Database, Statement } from 'better-sqlite3';
import { Table } from './sql';
import type { WriteTx } from './writes';

/** A row of `position_alert_state` (migration 011): one (position, level) relation of a ticker. */
export type PositionAlertStateRow = {
  ticker: string;
  /** positionStateKey: account | expiration | right | strike | level. */
  key: string;
  side: string;
  near: number;
  quote_time: string;
};

export const POSITION_ALERT_STATE = Table.of<PositionAlertStateRow>()('position_alert_state', ['ticker', 'key', 'side', 'near', 'quote_time']);

/** A row of `event_explanations` (migration 011): the latest comparison of a ticker, as JSON. */
export type EventExplanationRow = { ticker: string; timestamp: string; payload: string };

export const EVENT_EXPLANATIONS = Table.of<EventExplanationRow>()('event_explanations', ['ticker', 'timestamp', 'payload']);

export class PositionAlertStateRepository {
  private readonly forTickerStatement: Statement<[string], PositionAlertStateRow>;
  private readonly deleteStatement: Statement<[string]>;
  private readonly insertStatement: Statement<[PositionAlertStateRow]>;

  constructor(db: Database) {
    this.forTickerStatement = db.prepare<[string], PositionAlertStateRow>(`SELECT ${POSITION_ALERT_STATE.columnList} FROM position_alert_state WHERE ticker = ?`);
    this.deleteStatement = db.prepare<[string]>('DELETE FROM position_alert_state WHERE ticker = ?');
    this.insertStatement = db.prepare<[PositionAlertStateRow]>(POSITION_ALERT_STATE.insertRowSql());
  }

  forTicker(ticker: string): PositionAlertStateRow[] {
    return this.forTickerStatement.all(ticker);
  }

  /** Replaces the ticker's states (a position closed or expired leaves no state behind). Inside the caller's transaction. */
  replace(_turn: WriteTx, ticker: string, rows: readonly PositionAlertStateRow[]): void {
    this.deleteStatement.run(ticker);
    for (const row of rows) this.insertStatement.run(row);
  }
}

export class EventExplanationRepository {
  private readonly upsertStatement: Statement<[EventExplanationRow]>;

  constructor(private readonly db: Database) {
    this.upsertStatement = db.prepare<[EventExplanationRow]>(`${EVENT_EXPLANATIONS.insertRowSql()} ON CONFLICT(ticker) DO UPDATE SET timestamp = excluded.timestamp, payload = excluded.payload`);
  }

  upsert(_turn: WriteTx, row: EventExplanationRow): void {
    this.upsertStatement.run(row);
  }

  /** The latest explanation of each ticker (or of the ones named), newest first. */
  latest(tickers: readonly string[] | undefined): EventExplanationRow[] {
    const all = this.db.prepare<[], EventExplanationRow>(`SELECT ${EVENT_EXPLANATIONS.columnList} FROM event_explanations ORDER BY timestamp DESC, ticker`).all();
    if (tickers === undefined) return all;
    const wanted = new Set(tickers);
    return all.filter((row) => wanted.has(row.ticker));
  }
}
