/**
 * The journal's words as plain values: transaction types, corporate actions and their outcomes, the levels scopes.
 * The domain's own, here so that the journal imports no part of the /v1 contract (docs/architecture.md §Layout: no
 * upward import); api/constants.ts re-exports them for the schemas, the server and the renderer. No imports: the
 * renderer takes them without pulling anything else into its bundle.
 */

/** Transaction types that are fills: they open or close a position at a price. */
export const FILL_TYPES = ['BUY_TO_OPEN', 'SELL_TO_OPEN', 'BUY_TO_CLOSE', 'SELL_TO_CLOSE', 'BUY', 'SELL', 'SELL_SHORT', 'BUY_TO_COVER'] as const;
/** FILL_TYPES as a set: whether a row (or a type a person or a file wrote) is a fill. */
export const FILLS: ReadonlySet<string> = new Set(FILL_TYPES);

/** Types of the neutral transaction (docs/journal.md). */
export const TRANSACTION_TYPES = [
  ...FILL_TYPES,
  'ASSIGNMENT',
  'EXERCISE',
  'EXPIRATION',
  'DIVIDEND',
  'INTEREST',
  'FEE',
  'DEPOSIT',
  'WITHDRAWAL',
  'SPLIT',
  'SYMBOL_CHANGE',
  'OTHER',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/**
 * Kinds of corporate action (DESIGN §5 "Corporate actions", docs/journal.md §Corporate actions): what a broker's
 * SPLIT / SYMBOL_CHANGE row stands for, or what a person enters at POST /journal/corporate-actions.
 */
export const CORPORATE_ACTION_TYPES = ['split', 'symbol_change', 'merger', 'stock_dividend', 'spinoff', 'free_shares'] as const;
export type CorporateActionType = (typeof CORPORATE_ACTION_TYPES)[number];

/** What became of a corporate action in the ledger (GET /journal/corporate-actions `outcome`). */
export const CORPORATE_ACTION_OUTCOMES = ['applied', 'nothing_held', 'duplicate', 'not_applied'] as const;
export type CorporateActionOutcome = (typeof CORPORATE_ACTION_OUTCOMES)[number];
/** `source` of a corporate action entered by hand: its import is of broker `manual` (undone as one). */
export const MANUAL_ACTION_SOURCE = 'manual-action';

/** The types that are trades (a summary's `tradesByType`): fills and option settlements; deposits, dividends and the like are not. */
export const TRADE_ROW_TYPES: readonly TransactionType[] = [...FILL_TYPES, 'ASSIGNMENT', 'EXERCISE', 'EXPIRATION'];

/**
 * `levelsScope` of /journal/positions and /journal/trades (DESIGN §5 "Levels scope"): the dealer levels a position or a
 * trade's entry is held against. `own`: its own expiration alone (a trade's main short leg's); `nearest`: /gex's
 * default scope (the 3 nearest expirations); `book`: every expiration within 0–45 dte.
 */
export const LEVELS_SCOPES = ['own', 'nearest', 'book'] as const;
export type LevelsScope = (typeof LEVELS_SCOPES)[number];
export const DEFAULT_LEVELS_SCOPE: LevelsScope = 'own';
