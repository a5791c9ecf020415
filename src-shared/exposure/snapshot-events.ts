/**
 * What a service calls once per new snapshot of a ticker (docs/exposure.md §Events, "Wiring"): the per-expiration
 * events, the book's, the states to store and the explanation, from the stored confirmed states in one map (the
 * expirations' keys and `BOOK_SCOPE`).
 */
import type { PreparedChain } from './prepare';
import { evaluateExpirations, type ConfirmedState, type EventDraft } from './events';
import { BOOK_SCOPE, evaluateBookEvents, type BookEventDraft } from './book-events';
import { explainEvaluation, type EventsExplanation } from './event-explain';

/** A draft to store: per expiration (no `scope`) or of the book (`scope: 'book'`, `expiration: 'book'`). */
export type SnapshotEventDraft = EventDraft | BookEventDraft;

export interface SnapshotEvaluation {
  /** Per-expiration drafts (ascending expiration; flip, call wall, put wall), then the book's. */
  events: SnapshotEventDraft[];
  /**
   * Every state to keep, keyed like the input: the window's expirations, the unexpired ones carried over, and
   * `BOOK_SCOPE`. A key of the input that is absent here (an expired expiration) is to be deleted.
   */
  states: Map<string, ConfirmedState>;
  explanation: EventsExplanation;
}

/**
 * Evaluates a newer snapshot of `ticker` (the symbol's newest; an older one is evaluated by nothing) against the
 * confirmed states as stored: keyed by expiration, plus `BOOK_SCOPE` for the book.
 */
export function evaluateSnapshotEvents(ticker: string, chain: PreparedChain, previous: ReadonlyMap<string, ConfirmedState>): SnapshotEvaluation {
  const perExpiration = new Map<string, ConfirmedState>();
  for (const [key, state] of previous) if (key !== BOOK_SCOPE) perExpiration.set(key, state);
  const expirations = evaluateExpirations(ticker, chain, perExpiration);
  const book = evaluateBookEvents(ticker, chain, previous.get(BOOK_SCOPE));
  const states = expirations.states;
  if (book.state !== undefined) states.set(BOOK_SCOPE, book.state);
  const events: SnapshotEventDraft[] = [...expirations.events, ...book.events];
  const explanation = explainEvaluation({ ticker, chain, previous: perExpiration.keys(), evaluated: expirations.evaluated, book: book.evaluation, events: events.length });
  return { events, states, explanation };
}
