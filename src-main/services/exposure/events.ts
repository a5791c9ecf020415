/**
 * Events as stored and read (docs/exposure.md §Events): the per-expiration and book drafts of a new snapshot with
 * their one-line explanations, the confirmed states (the book under the expiration key `book`), the ticker's latest
 * comparison, and position alerts; their ids, their days to expiry, and the reads of /v1/gex/events. Kept apart from
 * the ingest (exposure.ts calls `record` once per new newest snapshot) so the service files stay small.
 */
import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { Type } from 'typebox';
import type { EventScope, EventTypeFilter } from '../../../src-shared/api/constants';
import type { Ticker } from '../../../src-shared/ids';
import { EventReportSchema, FlipEventSchema, PositionEventSchema, WallEventSchema, type EventReportJson, type ExposureEventJson } from '../../../src-shared/api/event-schemas';
import { addDays, daysBetween } from '../../../src-shared/calendar';
import { dateInZone, NEW_YORK } from '../../../src-shared/zone';
import { BOOK_SCOPE } from '../../../src-shared/exposure/book-events';
import type { ConfirmedState } from '../../../src-shared/exposure/events';
import { draftExplanation, eventReport } from '../../../src-shared/exposure/event-explain';
import type { EventsExplanation } from '../../../src-shared/exposure/event-explain';
import { positionAlertKey, type PositionAlertDraft } from '../../../src-shared/exposure/position-alerts';
import type { SnapshotEventDraft } from '../../../src-shared/exposure/snapshot-events';
import { EventsRepository } from '../../db/events';
import type { WriteTx } from '../../db/writes';
import { storedJson } from '../../db/stored-json';
import { ExposureStateRepository } from '../../db/exposure-state';
import { EventExplanationRepository } from '../../db/position-alerts';

type WithoutReadFields<T> = T extends unknown ? Omit<T, 'id' | 'dte' | 'eventDte'> : never;
/** An event as stored in `events.payload`: its draft and its explanation (the reader adds id and dte). */
export type EventPayload = WithoutReadFields<ExposureEventJson>;
/** A stored event as /v1/gex/events and the stream send it. */
export type ExposureEvent = ExposureEventJson;

const readFields = ['id', 'dte', 'eventDte'] as const;
const storedPayload = storedJson(Type.Union([Type.Omit(FlipEventSchema, readFields), Type.Omit(WallEventSchema, readFields), Type.Omit(PositionEventSchema, readFields)]));
const storedReport = storedJson(EventReportSchema);

/** A stored payload read back, or null when it is not one this version wrote (the row is then left out). */
export function parseEventPayload(text: string): EventPayload | null {
  return storedPayload.read(text);
}

function hash(text: string): string {
  return `ev_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
}

/** Stable: the same snapshot evaluated again gives the same ids (re-ingesting creates nothing). */
export function eventId(draft: EventPayload | SnapshotEventDraft | PositionAlertDraft): string {
  if (draft.eventType === 'position') return hash(positionAlertKey(draft));
  const side = draft.eventType === 'wall' ? draft.wallType : '';
  return hash([draft.ticker, draft.expiration, draft.eventType, side, draft.timestamp].join('|'));
}

/** The date dte counts to: the expiration, or the book's farthest one (its horizon). */
function dteDate(draft: EventPayload): string | null {
  if (draft.expiration !== BOOK_SCOPE) return draft.expiration;
  return draft.eventType !== 'position' && draft.expirations !== undefined ? (draft.expirations.at(-1) ?? null) : null;
}

export function withDte(id: string, draft: EventPayload, today: string): ExposureEvent {
  const eventDay = dateInZone(Date.parse(draft.timestamp), NEW_YORK);
  const date = dteDate(draft) ?? eventDay;
  return { ...draft, id, dte: daysBetween(today, date), eventDte: daysBetween(eventDay, date) };
}

export interface EventReadQuery {
  /** Made Tickers at the edge (the route's tickerList): compared as they are. */
  tickers?: readonly Ticker[];
  eventType?: EventTypeFilter;
  scope?: EventScope;
  minDte?: number;
  maxDte?: number;
  limit: number;
}

/** The latest comparison of a ticker, as /v1/gex/events lists it. */
export interface TickerExplanation {
  ticker: string;
  timestamp: string;
  report: EventReportJson;
}

/** A position's alert as Positions lists it. */
export interface PositionAlertJson {
  kind: string;
  message: string;
  eventId: string;
  timestamp: string;
}

/** How position alerts find their position: the account and the option's symbol. */
export function positionKey(position: { accountId: string; symbol: string }): string {
  return `${position.accountId}\u0000${position.symbol}`;
}

/** The event tables of a connection: what an ingest stores, what the events route reads. */
export class EventStore {
  private readonly states: ExposureStateRepository;
  private readonly rows: EventsRepository;
  private readonly explanations: EventExplanationRepository;

  constructor(db: Database) {
    this.states = new ExposureStateRepository(db);
    this.rows = new EventsRepository(db);
    this.explanations = new EventExplanationRepository(db);
  }

  /**
   * Stores the evaluation of a ticker's new newest snapshot (inside the ingest's transaction): its states, its events
   * (each with its explanation) and the comparison. Returns the events that are new and the comparison's report.
   */
  record(
    turn: WriteTx,
    ticker: string,
    evaluation: { events: SnapshotEventDraft[]; states: Iterable<[string, ConfirmedState]>; explanation: EventsExplanation },
    quoteTime: string,
    today: string,
  ): { created: ExposureEvent[]; report: EventReportJson } {
    for (const [expiration, state] of evaluation.states) {
      this.states.upsert(turn, { ticker, expiration, zone: state.zone, call_wall: state.callWallStrike, put_wall: state.putWallStrike, quote_time: quoteTime });
    }
    const created: ExposureEvent[] = [];
    for (const draft of evaluation.events) {
      const explanation = draftExplanation(draft, evaluation.explanation);
      const payload: EventPayload = explanation === undefined ? draft : { ...draft, explanation };
      const event = this.insert(turn, payload, today);
      if (event !== null) created.push(event);
    }
    const report = eventReport(evaluation.explanation, evaluation.events);
    this.explanations.upsert(turn, { ticker, timestamp: quoteTime, payload: JSON.stringify(report) });
    return { created, report };
  }

  /** Stores one event unless its id is stored; the event as read, or null when it was there already. */
  insert(turn: WriteTx, payload: EventPayload, today: string): ExposureEvent | null {
    const id = eventId(payload);
    const row = { id, ticker: payload.ticker, event_type: payload.eventType, expiration: payload.expiration, timestamp: payload.timestamp, payload: JSON.stringify(payload) };
    return this.rows.insert(turn, row) ? withDte(id, payload, today) : null;
  }

  /** Newest first; dte counts from `today`; the dte bounds filter dated events (a book event passes them). */
  read(query: EventReadQuery, today: string): ExposureEvent[] {
    const rows = this.rows.newest({
      ...(query.tickers === undefined ? {} : { tickers: [...new Set(query.tickers)] }),
      ...(query.eventType === undefined || query.eventType === 'all' ? {} : { eventType: query.eventType }),
      ...(query.scope === undefined ? { scope: 'expiration' as const } : query.scope === 'all' ? {} : { scope: query.scope }),
      ...(query.minDte === undefined ? {} : { expirationFrom: addDays(today, query.minDte) }),
      ...(query.maxDte === undefined ? {} : { expirationTo: addDays(today, query.maxDte) }),
      limit: query.limit,
    });
    const events: ExposureEvent[] = [];
    for (const row of rows) {
      const payload = parseEventPayload(row.payload);
      if (payload !== null) events.push(withDte(row.id, payload, today));
    }
    return events;
  }

  /** Position events quoted in [from, to] (ISO instants), newest first, at most `limit`: the management rules' level alerts. */
  positionEvents(from: string, to: string, limit: number): ExposureEvent[] {
    const events: ExposureEvent[] = [];
    for (const row of this.rows.newest({ eventType: 'position', timestampFrom: from, timestampTo: to, limit })) {
      const payload = parseEventPayload(row.payload);
      if (payload !== null) events.push(withDte(row.id, payload, dateInZone(Date.parse(to), NEW_YORK)));
    }
    return events;
  }

  /**
   * The recent position events (quoted after `since`, the newest 200) by position (`accountId` and option symbol),
   * newest first, as Positions shows them: `{kind: position_crossed | position_within, message, eventId, timestamp}`.
   */
  positionAlerts(since: string, today: string): Map<string, PositionAlertJson[]> {
    const byPosition = new Map<string, PositionAlertJson[]>();
    for (const event of this.read({ eventType: 'position', scope: 'all', limit: 200 }, today)) {
      if (event.eventType !== 'position' || event.timestamp < since) continue;
      const key = positionKey(event);
      const list = byPosition.get(key) ?? [];
      list.push({ kind: `position_${event.alert}`, message: event.explanation ?? `${event.level} ${event.alert}`, eventId: event.id, timestamp: event.timestamp });
      byPosition.set(key, list);
    }
    return byPosition;
  }

  /** The latest comparison of each ticker (of those named), newest first. */
  latestExplanations(tickers: readonly Ticker[] | undefined): TickerExplanation[] {
    const list: TickerExplanation[] = [];
    for (const row of this.explanations.latest(tickers)) {
      const report = storedReport.read(row.payload);
      if (report !== null) list.push({ ticker: row.ticker, timestamp: row.timestamp, report });
    }
    return list;
  }
}
