/** The /v1 events contract: /gex/events, its stream and stream tickets, and what a new snapshot's comparison found (docs/exposure.md §Events). */
import { Type, type Static } from 'typebox';
import { EVENT_SCOPES, EVENT_TYPE_FILTERS, EVENTS_LIMIT_CAP, EVENTS_LIMIT_DEFAULT } from './constants';
import { Nullable, OneOf, Params } from './schema-kit';

export const EventsQuery = Params({
  tickers: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._/^-]{0,15}(,[A-Za-z0-9][A-Za-z0-9._/^-]{0,15}){0,49}$', description: 'Comma-separated; default all' })),
  eventType: Type.Optional(OneOf(EVENT_TYPE_FILTERS, { description: 'default all' })),
  minDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
  maxDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
  scope: Type.Optional(OneOf(EVENT_SCOPES, { description: 'expiration (default): flip and wall events per expiration; book: of all expirations within 0–45 dte together; all. Position events pass every scope' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `default ${EVENTS_LIMIT_DEFAULT}; values above ${EVENTS_LIMIT_CAP} are clamped to ${EVENTS_LIMIT_CAP}` })),
});
export type EventsQueryT = Static<typeof EventsQuery>;

const eventCommon = {
  id: Type.String(),
  ticker: Type.String(),
  expiration: Type.String(),
  timestamp: Type.String(),
  dte: Type.Integer({ description: 'Days to expiry as of the request date (negative once expired; the book: its farthest expiration)' }),
  eventDte: Type.Integer({ description: 'Days to expiry as of the event (its New York date)' }),
  explanation: Type.Optional(Type.String({ description: 'One line: why the rule fired ("call wall 105 → 110 (+20.0% beat the margin: event)")' })),
};
/** What a book event adds: `expiration` is "book", and the expirations taken together. */
const bookFields = {
  scope: Type.Optional(Type.Literal('book')),
  expirations: Type.Optional(Type.Array(Type.String(), { description: 'The book: the expirations within 0–45 dte taken together' })),
};
export const FlipEventSchema = Type.Object({
  ...eventCommon,
  ...bookFields,
  eventType: Type.Literal('flip'),
  previousState: Type.Union([Type.Literal('positive'), Type.Literal('negative')]),
  newState: Type.Union([Type.Literal('positive'), Type.Literal('negative')]),
  inflectionPoint: Nullable(Type.Number()),
  spotPrice: Type.Number(),
  callWallStrike: Nullable(Type.Number()),
  putWallStrike: Nullable(Type.Number()),
});
export const WallEventSchema = Type.Object({
  ...eventCommon,
  ...bookFields,
  eventType: Type.Literal('wall'),
  wallType: Type.Union([Type.Literal('call'), Type.Literal('put')]),
  previousStrike: Type.Number(),
  newStrike: Type.Number(),
  spotPrice: Type.Number(),
});
export const PositionEventSchema = Type.Object({
  ...eventCommon,
  eventType: Type.Literal('position'),
  accountId: Type.String(),
  symbol: Type.String({ description: 'The option (OCC symbol as the journal names it)' }),
  strike: Type.Number(),
  right: Type.Union([Type.Literal('C'), Type.Literal('P')]),
  quantity: Type.Number({ description: 'Contracts, negative: short' }),
  level: Type.Union([Type.Literal('gammaFlip'), Type.Literal('callWall'), Type.Literal('putWall')], { description: 'The default /gex scope level' }),
  alert: Type.Union([Type.Literal('crossed'), Type.Literal('within')]),
  previousValue: Nullable(Type.Number({ description: 'The level in the previous snapshot' })),
  newValue: Type.Number(),
  gapPct: Type.Number({ description: '(newValue − strike) / strike in %' }),
  distancePct: Type.Number({ description: 'The alert distance in % of the strike (setting positionAlertDistancePct)' }),
  spotPrice: Type.Number(),
});
export const ExposureEventSchema = Type.Union([FlipEventSchema, WallEventSchema, PositionEventSchema]);
export type ExposureEventJson = Static<typeof ExposureEventSchema>;
/** What the comparison of a new snapshot found (docs/exposure.md §Events, "Explanations"). */
export const EventReportSchema = Type.Object(
  {
    compared: Type.Integer({ description: 'Expirations (0–45 dte) compared with their confirmed state' }),
    firstState: Type.Integer({ description: 'Expirations that set their first state: nothing to compare' }),
    expired: Type.Integer({ description: 'Confirmed expirations that expired: state dropped' }),
    notInSnapshot: Type.Integer({ description: 'Confirmed expirations absent from this snapshot: state kept' }),
    beyondWindow: Type.Integer({ description: 'Expirations beyond 45 dte: not evaluated' }),
    book: Type.Union([Type.Literal('compared'), Type.Literal('first'), Type.Literal('empty')], { description: 'The book scope: compared, set its first state, or no expiration within 0–45 dte' }),
    fired: Type.Object({ expiration: Type.Integer(), book: Type.Integer() }, { description: 'Events by scope' }),
    lines: Type.Array(Type.String(), { description: 'The comparison in words, most telling first' }),
  },
  { description: 'Which expirations were compared and why nothing (or what) fired' },
);
export type EventReportJson = Static<typeof EventReportSchema>;
export const EventExplanationSchema = Type.Object({ ticker: Type.String(), timestamp: Type.String({ description: 'The compared snapshot\'s quote time' }), report: EventReportSchema });
export const EventsResponse = Type.Object({
  events: Type.Array(ExposureEventSchema),
  explanations: Type.Array(EventExplanationSchema, { description: 'The latest comparison of each ticker asked for, newest first' }),
});

/**
 * The stream's filters, and a stream ticket (EventSource cannot send an Authorization header; the key itself is not
 * taken in a URL, where it would be logged: POST /gex/events/stream-ticket trades it for a ticket).
 */
export const EventsStreamQuery = Params({
  tickers: EventsQuery.properties.tickers,
  eventType: EventsQuery.properties.eventType,
  scope: EventsQuery.properties.scope,
  ticket: Type.Optional(Type.String({ maxLength: 512, description: 'A ticket from POST /v1/gex/events/stream-ticket: one stream, within 60 s' })),
});

export const StreamTicketResponse = Type.Object({
  ticket: Type.String({ description: 'Opens one stream (`GET /v1/gex/events/stream?ticket=`); 256 random bits, base64url' }),
  expiresAt: Type.String({ description: 'ISO 8601: the ticket is refused after this instant (60 s after it was issued)' }),
});
export type StreamTicketResponseT = Static<typeof StreamTicketResponse>;
