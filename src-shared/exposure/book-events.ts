/**
 * The book scope of issue 18 (docs/exposure.md §Events, "The book"): flip and wall events over every unexpired
 * expiration with 0 ≤ dte ≤ 45 taken together, as /vanna's default scope aggregates them, against one confirmed
 * state of its own, stored under the expiration key `book`. Two snapshots that share no expiration (a weekly chain
 * a week later) compare nothing per expiration; the book still compares their whole near-dated books.
 */
import type { PreparedChain, PreparedExpiration } from './prepare';
import { usableContracts } from './gex';
import { profileRoot } from './sweep';
import {
  compareScope,
  EVENT_MAX_DTE,
  EVENT_MIN_DTE,
  scopeView,
  stateOf,
  type ConfirmedState,
  type FlipEventDraft,
  type ScopeOutcome,
  type WallEventDraft,
} from './events';

/**
 * The book's key where an expiration goes: in the confirmed states (the `exposure_state` table's `expiration`) and in
 * the events (`events.expiration`). It is no date, and as text it sorts after every date ('b' > '9'), so a prune of
 * states or events before a date never drops it.
 */
export const BOOK_SCOPE = 'book';

/** What a book event adds to a flip or wall draft: its scope and the expirations it took together, ascending. */
export interface BookScopeFields {
  expiration: typeof BOOK_SCOPE;
  scope: typeof BOOK_SCOPE;
  expirations: string[];
}

export type BookFlipEventDraft = Omit<FlipEventDraft, 'expiration'> & BookScopeFields;
export type BookWallEventDraft = Omit<WallEventDraft, 'expiration'> & BookScopeFields;
export type BookEventDraft = BookFlipEventDraft | BookWallEventDraft;

/** The expirations of the book: unexpired, 0 ≤ dte ≤ 45 as of the quote (the same set as /vanna's default scope). */
export function bookExpirations(chain: PreparedChain): PreparedExpiration[] {
  return chain.expirations.filter((e) => e.dte >= EVENT_MIN_DTE && e.dte <= EVENT_MAX_DTE);
}

/** The book's result for one snapshot: compared with its state, its first state set, or nothing in the window. */
export type BookEvaluation =
  | { status: 'compared'; expirations: string[]; outcome: ScopeOutcome }
  | { status: 'first'; expirations: string[] }
  /** No expiration within 0–45 dte: the confirmed state (if any) is kept. */
  | { status: 'empty'; expirations: [] };

/**
 * Evaluates the book of one snapshot against its confirmed state (undefined: none yet). The state returned is the
 * one to store under `BOOK_SCOPE` (the confirmed one unchanged when the book is empty; undefined only when there was
 * none and the book is empty).
 */
export function evaluateBookEvents(
  ticker: string,
  chain: PreparedChain,
  confirmed: ConfirmedState | undefined,
): { events: BookEventDraft[]; state: ConfirmedState | undefined; evaluation: BookEvaluation } {
  const book = bookExpirations(chain);
  if (book.length === 0) return { events: [], state: confirmed, evaluation: { status: 'empty', expirations: [] } };
  const expirations = book.map((e) => e.expiration);
  const view = scopeView(chain, book);
  if (confirmed === undefined) return { events: [], state: stateOf(view), evaluation: { status: 'first', expirations } };
  const compared = compareScope(view, confirmed, {
    ticker,
    expiration: BOOK_SCOPE,
    timestamp: chain.quoteTime,
    spotPrice: chain.spot,
    inflection: () => profileRoot(chain, usableContracts(chain, book), 'gamma'),
  });
  const scoped = { expiration: BOOK_SCOPE, scope: BOOK_SCOPE, expirations } as const;
  const events = compared.events.map((draft): BookEventDraft => ({ ...draft, ...scoped, expirations: [...expirations] }));
  return { events, state: compared.state, evaluation: { status: 'compared', expirations, outcome: compared.outcome } };
}
