/** POST and GET /v1/chains/refresh: one pass of the online source over the watchlist (docs/exposure.md §Refresh what you hold). */
import { Type, type Static } from 'typebox';
import { OneOf } from './schema-kit';

export const REFRESH_STATES = ['queued', 'fetching', 'stored', 'failed', 'skipped'] as const;

export const RefreshSymbolSchema = Type.Object({
  symbol: Type.String(),
  origin: Type.Union([Type.Literal('watchlist'), Type.Literal('position')], { description: 'On the watchlist setting, or added for an open position on it' }),
  state: OneOf(REFRESH_STATES, { description: 'queued → fetching → stored | failed; skipped: not fetched, the source could not be reached (the pass\'s sourceProblem)' }),
  snapshotId: Type.Optional(Type.Integer({ description: 'The stored snapshot (stored); also when it was stored before (unchanged)' })),
  quoteTime: Type.Optional(Type.String()),
  contracts: Type.Optional(Type.Integer()),
  unchanged: Type.Optional(Type.Boolean({ description: 'The source served a snapshot already stored' })),
  error: Type.Optional(Type.String({ description: 'Why the symbol failed: HTTP status, the time limit, the size cap, or the file problem with its line' })),
});

export const RefreshPassSchema = Type.Object({
  startedAt: Type.Union([Type.String(), Type.Null()], { description: 'null: no pass has run since the server started' }),
  finishedAt: Type.Union([Type.String(), Type.Null()], { description: 'null while the pass runs' }),
  running: Type.Boolean(),
  symbols: Type.Array(RefreshSymbolSchema),
  omitted: Type.Array(Type.String(), { description: 'Symbols past the cap of 50, not fetched' }),
  positionsProblem: Type.Optional(Type.String({ description: 'Why the open positions could not be added (the pass fetched the watchlist setting alone)' })),
  sourceProblem: Type.Optional(Type.String({ description: 'The source could not be reached: one line naming the host and the reason (no network, DNS, refused, timeout, or an address its rules refuse: a redirect outside its origin, a link-local or metadata address); the symbols not fetched are skipped' })),
  retryAt: Type.Optional(Type.String({ description: 'With sourceProblem: when the poller and the schedule try the source again (backoff)' })),
  trigger: Type.Optional(Type.Union([Type.Literal('request'), Type.Literal('schedule')], { description: 'What started the pass: a request (Refresh now) or refreshSchedule' })),
});
export type RefreshPassT = Static<typeof RefreshPassSchema>;
export type RefreshSymbolT = Static<typeof RefreshSymbolSchema>;
