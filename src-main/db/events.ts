import type { Database, Statement } from 'better-sqlite3';
import { sql, Table, type Sql, type SqlValue } from './sql';
import type { WriteTx } from './writes';

/** A row of `events` (migration 003): the event's fields as JSON in `payload`, the filtered ones in columns. */
export type EventRow = {
  id: string;
  ticker: string;
  event_type: string;
  expiration: string;
  timestamp: string;
  payload: string;
};

/** The book scope's marker expiration (src-shared/exposure/book-events.ts, BOOK_SCOPE). */
const BOOK = 'book';

export const EVENTS = Table.of<EventRow>()('events', ['id', 'ticker', 'event_type', 'expiration', 'timestamp', 'payload']);

export interface EventFilter {
  tickers?: readonly string[];
  eventType?: string;
  /** Expirations on or after this date (YYYY-MM-DD). */
  expirationFrom?: string;
  /** Expirations on or before this date. */
  expirationTo?: string;
  /** Flip and wall events of one scope: per expiration, or of the book (expiration `book`); position events pass. */
  scope?: 'expiration' | 'book';
  /** Quoted at or after / at or before these instants (ISO, as stored). */
  timestampFrom?: string;
  timestampTo?: string;
  limit: number;
}

export class EventsRepository {
  private readonly insertStatement: Statement<[SqlValue[]]>;

  constructor(private readonly db: Database) {
    this.insertStatement = db.prepare<[SqlValue[]]>(EVENTS.insertSql({ orIgnore: true }));
  }

  /** Stores the event unless its id is stored already; true when it is new. */
  insert(_turn: WriteTx, row: EventRow): boolean {
    const values: SqlValue[] = [];
    EVENTS.pushValues(row, values);
    return this.insertStatement.run(values).changes > 0;
  }

  /** Newest first (timestamp, then id). */
  newest(filter: EventFilter): Array<Pick<EventRow, 'id' | 'payload'>> {
    const conditions: Sql[] = [];
    if (filter.tickers !== undefined) conditions.push(sql`ticker IN ${sql.list(filter.tickers)}`);
    if (filter.eventType !== undefined) conditions.push(sql`event_type = ${filter.eventType}`);
    // The book's marker sorts after every date: a dte bound filters dated events only.
    if (filter.expirationFrom !== undefined) conditions.push(sql`(expiration = ${BOOK} OR expiration >= ${filter.expirationFrom})`);
    if (filter.expirationTo !== undefined) conditions.push(sql`(expiration = ${BOOK} OR expiration <= ${filter.expirationTo})`);
    if (filter.scope === 'book') conditions.push(sql`(event_type = 'position' OR expiration = ${BOOK})`);
    if (filter.scope === 'expiration') conditions.push(sql`(event_type = 'position' OR expiration <> ${BOOK})`);
    if (filter.timestampFrom !== undefined) conditions.push(sql`timestamp >= ${filter.timestampFrom}`);
    if (filter.timestampTo !== undefined) conditions.push(sql`timestamp <= ${filter.timestampTo}`);
    const query = sql`SELECT id, payload FROM events ${sql.where(conditions)} ORDER BY timestamp DESC, id DESC LIMIT ${filter.limit}`;
    return this.db.prepare<SqlValue[], Pick<EventRow, 'id' | 'payload'>>(query.text).all(...query.params);
  }
}
