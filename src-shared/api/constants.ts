/**
 * The words of the /v1 contract, as plain values: formulas and their units, broker ids and labels, transaction
 * types, event types, chain formats and snapshot sources. The schemas (schemas.ts), the server, the CLI, the
 * importers and the renderer all read them from here. The domain's own words (formulas, transaction types,
 * corporate actions, levels scopes) are defined in the domain (exposure/formulas.ts, journal/constants.ts) and
 * re-exported here. Imports only of those two files, which import nothing: the renderer takes these without pulling
 * typebox into its bundle. Problem codes live in errors.ts.
 */

// ---------------------------------------------------------------- exposure

export { DEFAULT_FORMULA, FORMULAS, type Formula } from '../exposure/formulas';
import type { Formula } from '../exposure/formulas';

/** `meta.unit` of a /gex answer, per formula. */
export const FORMULA_UNITS: Record<Formula, string> = {
  nominal: 'shares per $1 move',
  per_1dollar: 'USD of delta per $1 move',
  per_1pct: 'USD per 1% move',
};

/** The Exposure page's formula switch: a short label and a tooltip per formula. */
export const FORMULA_OPTIONS: ReadonlyArray<{ value: Formula; label: string; title: string }> = [
  { value: 'nominal', label: 'Shares / $1', title: 'nominal: Γ·OI·100 — shares dealers trade per $1 move' },
  { value: 'per_1dollar', label: '$ / $1', title: 'per_1dollar: ×S — dollars of delta per $1 move' },
  { value: 'per_1pct', label: '$ / 1%', title: 'per_1pct: ×S²·0.01 — dollars per 1% move' },
];

/** Kinds of exposure events. */
export const EVENT_TYPES = ['flip', 'wall', 'position'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** `eventType` of /gex/events and its stream: one kind, or all. */
export const EVENT_TYPE_FILTERS = ['all', ...EVENT_TYPES] as const;
export type EventTypeFilter = (typeof EVENT_TYPE_FILTERS)[number];
/**
 * `scope` of /gex/events and its stream: flip and wall events per expiration (the default, as before issue 18), of the
 * book (all expirations within 0–45 dte together, `expiration: "book"`), or both. Position events pass every scope.
 */
export const EVENT_SCOPES = ['expiration', 'book', 'all'] as const;
export type EventScope = (typeof EVENT_SCOPES)[number];

/** Where a stored chain snapshot came from. */
export const SNAPSHOT_SOURCES = ['cboe-csv', 'cboe-json', 'schwab-json', 'yfinance-csv', 'generic', 'demo', 'online'] as const;
export type SnapshotSource = (typeof SNAPSHOT_SOURCES)[number];

/** `format` of POST /chains. */
export const CHAIN_FORMATS = ['auto', 'cboe-csv', 'cboe-json', 'schwab-json', 'yfinance-csv', 'generic-csv', 'generic-json'] as const;
export type ChainFormat = (typeof CHAIN_FORMATS)[number];

// ---------------------------------------------------------------- journal

export {
  CORPORATE_ACTION_OUTCOMES,
  CORPORATE_ACTION_TYPES,
  DEFAULT_LEVELS_SCOPE,
  FILL_TYPES,
  FILLS,
  LEVELS_SCOPES,
  MANUAL_ACTION_SOURCE,
  TRADE_ROW_TYPES,
  TRANSACTION_TYPES,
  type CorporateActionOutcome,
  type CorporateActionType,
  type LevelsScope,
  type TransactionType,
} from '../journal/constants';
import type { CorporateActionType, LevelsScope } from '../journal/constants';

/** Brokers with an importer, in the order the Import page and `strikebook import --broker` list them. */
export const BROKER_IDS = ['tastytrade', 'schwab', 'thinkorswim', 'ibkr', 'fidelity', 'robinhood', 'etrade', 'webull', 'generic'] as const;
export type BrokerId = (typeof BROKER_IDS)[number];

export const BROKER_LABELS: Record<BrokerId, string> = {
  tastytrade: 'tastytrade',
  schwab: 'Charles Schwab',
  thinkorswim: 'thinkorswim',
  ibkr: 'Interactive Brokers',
  fidelity: 'Fidelity',
  robinhood: 'Robinhood',
  etrade: 'E*TRADE',
  webull: 'Webull',
  generic: 'Generic CSV',
};

/** `broker=` of POST /imports: `auto` detects the broker from the file's header. */
export const AUTO_BROKER_LABEL = 'Detect from header';


export const CORPORATE_ACTION_LABELS: Record<CorporateActionType, string> = {
  split: 'Split',
  symbol_change: 'Symbol change',
  merger: 'Merger',
  stock_dividend: 'Stock dividend',
  spinoff: 'Spin-off',
  free_shares: 'Free shares',
};

/** `period` of /journal/performance, and the `range.period` of its answer (which adds `custom`). */
export const PERFORMANCE_PERIODS = ['weekly', 'monthly'] as const;
export type PerformancePeriod = (typeof PERFORMANCE_PERIODS)[number];

/** `sort` of /journal/transactions: a column, ascending, or with `-` descending (default `-tradeDate`, newest first). */
export const TRANSACTION_SORT_COLUMNS = ['tradeDate', 'symbol', 'type', 'quantity', 'price', 'amount', 'realizedPL'] as const;
export type TransactionSortColumn = (typeof TRANSACTION_SORT_COLUMNS)[number];
export const TRANSACTION_SORTS = [...TRANSACTION_SORT_COLUMNS, ...TRANSACTION_SORT_COLUMNS.map((column) => `-${column}` as const)] as const;
export type TransactionSort = (typeof TRANSACTION_SORTS)[number];

/** Lists are paged: `limit` defaults to this and is clamped to the cap (transactions, imports). */
export const PAGE_LIMIT_DEFAULT = 25;
export const PAGE_LIMIT_CAP = 100;
/** /gex/events: `limit` default and cap. */
export const EVENTS_LIMIT_DEFAULT = 50;
export const EVENTS_LIMIT_CAP = 200;
/** The /gex scope's `expirationsCount`: larger values are clamped to this, like `limit` (issue 18). */
export const EXPIRATIONS_COUNT_CAP = 5;

/** A scope in the words the pages put beside a level. */
export const LEVELS_SCOPE_LABELS: Record<LevelsScope, string> = { own: 'own expiration', nearest: '3 nearest expirations', book: '0–45 DTE' };

// ---------------------------------------------------------------- import formats (docs/importers.md, "User-defined formats")

/** Date layouts a user-defined format reads (a time, and a `Z`/`±hh:mm` offset, may follow the date). */
export const FORMAT_DATE_LAYOUTS = ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY'] as const;
export type FormatDateLayout = (typeof FORMAT_DATE_LAYOUTS)[number];
/** The zone of times written without an offset: New York (the exchanges' clock) or UTC. */
export const FORMAT_ZONES = ['new-york', 'utc'] as const;
export type FormatZone = (typeof FORMAT_ZONES)[number];
/** How a format's amount gets its sign: as the file writes it, or from the type (buys pay, sells receive). */
export const FORMAT_AMOUNT_SIGNS = ['as-written', 'by-type'] as const;
export type FormatAmountSign = (typeof FORMAT_AMOUNT_SIGNS)[number];

/**
 * Bounds of what a page or a process can make the server store as formats: a count, and sizes that keep one
 * format under ~80 KB of JSON.
 */
export const IMPORT_FORMAT_LIMITS = {
  formats: 50,
  nameChars: 80,
  headerColumns: 200,
  columnChars: 200,
  words: 200,
  wordChars: 100,
  /** Text a preview parses (the Import page sends the start of a larger file, cut at a line end). */
  previewChars: 512 * 1024,
  /** Transactions a preview answers (its counts are of the whole text sent). */
  previewTransactions: 100,
} as const;

/** The problem message of a text table whose header no importer knows: the Import page then offers the mapping. */
export const UNRECOGNISED_HEADER = 'unrecognised header';

// ---------------------------------------------------------------- manual entries (docs/journal.md, "Manual entries")

/** `source` of a transaction entered by hand (POST /journal/transactions), and the `broker` of its import. */
export const MANUAL_SOURCE = 'manual';
/** Rows one POST /journal/transactions may carry (its body is also at most 1 MB). */
export const MANUAL_ROWS_MAX = 10_000;
/** Options one POST /journal/expirations books at most (a long export's expired options, many times over). */
export const EXPIRATION_ITEMS_MAX = 1_000;
/** What an import is: a broker file, manual entries, or the generated demo (told by its broker: `manual`, `demo`). */
export const IMPORT_KINDS = ['file', 'manual', 'demo'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** A time of `refreshSchedule`: `HH:MM`, 24 h, New York (docs/exposure.md §Chains that arrive by themselves). */
export const SCHEDULE_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
/** Times a day the schedule may name. */
export const MAX_SCHEDULE_TIMES = 12;
