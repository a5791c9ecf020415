/**
 * The /v1 contract: one schema per request and response (docs/architecture.md §Layout, §3–§5). The server validates and
 * serialises with these, the OpenAPI document is generated from them, and the renderer takes its types
 * from them. Money is in currency units rounded to cents; exposure in the unit named by `meta.unit`.
 */
import { Type, type Static, type TLiteral, type TProperties, type TSchema, type TSchemaOptions, type TUnion } from 'typebox';
import {
  BROKER_IDS,
  CHAIN_FORMATS,
  EVENT_TYPE_FILTERS,
  FORMULAS,
  PAGE_LIMIT_CAP,
  PERFORMANCE_PERIODS,
  PAGE_LIMIT_DEFAULT,
  EVENTS_LIMIT_CAP,
  EVENTS_LIMIT_DEFAULT,
  FORMAT_AMOUNT_SIGNS,
  FORMAT_DATE_LAYOUTS,
  FORMAT_ZONES,
  IMPORT_FORMAT_LIMITS,
  SNAPSHOT_SOURCES,
  TRANSACTION_SORTS,
  TRANSACTION_TYPES,
} from './constants';

export type { BrokerId, Formula } from './constants';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** The parameters of a request (query, path): nothing else is accepted (unknown names are 400 UNKNOWN_PARAMETER). */
const Params = <P extends TProperties>(properties: P) => Type.Object(properties, { additionalProperties: false });
/** The literals of a list of constants.ts, one TLiteral each. */
type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };
/** A union of string literals from one of the lists of constants.ts (the same schema as writing each Type.Literal). */
function OneOf<const T extends readonly string[]>(values: T, options?: TSchemaOptions): TUnion<Literals<T>> {
  return Type.Union(values.map((value) => Type.Literal(value)), options) as unknown as TUnion<Literals<T>>;
}
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const DATETIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';
const SYMBOL_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._/^-]{0,15}$';
const IsoDate = (description: string) => Type.String({ pattern: DATE_PATTERN, description, examples: ['2024-01-05'] });
const Money = (description: string) => Type.Number({ description });

// ---------------------------------------------------------------- common

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(
      Type.Array(Type.Object({ param: Type.String(), message: Type.String(), line: Type.Optional(Type.Integer()) })),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details (application/problem+json).' },
);

export const AccountSchema = Type.Object({ id: Type.String(), name: Type.String() });
export type AccountJson = Static<typeof AccountSchema>;

/** The query of a route that takes no parameters: any parameter is 400 UNKNOWN_PARAMETER, as everywhere. */
export const NoQuery = Params({});

export const HealthSchema = Type.Object({ status: Type.Literal('ok'), version: Type.String(), time: Type.String() });

// ---------------------------------------------------------------- journal

const AccountIdParam = Type.String({ minLength: 1, maxLength: 64, description: 'Only this account (404 UNKNOWN_ACCOUNT when none has this id)' });

export const PerformanceQuery = Params({
  accountId: Type.Optional(AccountIdParam),
  period: Type.Optional(OneOf(PERFORMANCE_PERIODS, { description: 'default monthly' })),
  date: Type.Optional(Type.String({ pattern: DATETIME_PATTERN, description: 'Center date (ISO 8601); default today' })),
  from: Type.Optional(IsoDate('Custom range start; must come with to')),
  to: Type.Optional(IsoDate('Custom range end (inclusive); must come with from')),
});
export type PerformanceQueryT = Static<typeof PerformanceQuery>;

const summaryFields = {
  realizedPL: Money('optionsPL + stockPL'),
  totalPL: Money('realizedPL + dividends + interest − fees'),
  premiumsCollected: Money('Gross sell-to-open credits'),
  lockedInPremiums: Money('Realized P&L of short option lots closed in the period'),
  rolls: Type.Integer(),
  rollCredits: Money('Open credit − close debit of the rolls'),
  dividends: Money('Net of withholding'),
  interest: Money(''),
  stockPL: Money(''),
  optionsPL: Money(''),
  fees: Money('Standalone fees (not commissions on trades)'),
  trades: Type.Integer({ description: 'Trade executions (opening and closing fills)' }),
  marksAvailable: Type.Boolean({ description: 'Whether unrealized P&L is included in totalPL' }),
};
export const PeriodSummarySchema = Type.Object(summaryFields);
export type PeriodSummary = Static<typeof PeriodSummarySchema>;

export const DayRowSchema = Type.Object({ date: Type.String(), pl: Money('totalPL of the day'), realizedPL: Money(''), premiumsCollected: Money(''), trades: Type.Integer() });
export const SymbolRowSchema = Type.Object({
  symbol: Type.String(),
  pl: Money('totalPL of the symbol'),
  realizedPL: Money(''),
  optionsPL: Money(''),
  stockPL: Money(''),
  premiumsCollected: Money(''),
  dividends: Money(''),
  rolls: Type.Integer(),
  trades: Type.Integer(),
});

export const PeriodSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  currency: Type.String(),
  summary: PeriodSummarySchema,
  breakdown: Type.Object({ byDay: Type.Array(DayRowSchema), bySymbol: Type.Array(SymbolRowSchema) }),
  byCurrency: Type.Record(Type.String(), PeriodSummarySchema, { description: 'Other currencies, never mixed into summary' }),
});
export type Period = Static<typeof PeriodSchema>;

export const CalendarSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  days: Type.Array(Type.Object({ date: Type.String(), pl: Money(''), trades: Type.Integer() })),
});

export const PerformanceResponse = Type.Object({
  monthly: PeriodSchema,
  weekly: PeriodSchema,
  custom: Type.Optional(PeriodSchema),
  range: Type.Object({ period: OneOf([...PERFORMANCE_PERIODS, 'custom']), from: Type.String(), to: Type.String() }),
  calendar: CalendarSchema,
  accounts: Type.Array(AccountSchema),
  demo: Type.Boolean(),
});
export type PerformanceResponseT = Static<typeof PerformanceResponse>;

export const SummaryQuery = Params({
  year: Type.Optional(Type.Integer({ minimum: 1970, maximum: 2200, description: 'Calendar year; default current year' })),
  accountId: Type.Optional(AccountIdParam),
});

const DayValue = Nullable(Type.Object({ date: Type.String(), pl: Money('') }));
export const YearStatsSchema = Type.Object({
  rolls: Type.Integer(),
  expiredOptions: Type.Integer({ description: 'Expiration events (positions)' }),
  expiredContracts: Type.Integer(),
  assignments: Type.Integer(),
  totalPremium: Money('Premiums collected in the year'),
  totalRealizedPnl: Money(''),
  lockedInPremiums: Money(''),
  optionsPL: Money(''),
  stockPL: Money(''),
  dividends: Money(''),
  interest: Money(''),
  fees: Money(''),
  totalPL: Money(''),
  trades: Type.Integer(),
  chains: Type.Object({ opened: Type.Integer(), closed: Type.Integer(), open: Type.Integer(), wins: Type.Integer(), losses: Type.Integer(), winRate: Nullable(Type.Number({ description: 'wins / closed, 0..1' })) }),
  equity: Type.Object({ series: Type.Array(Type.Object({ date: Type.String(), equity: Money('cumulative P&L') })), maxDrawdown: Money('Largest peak-to-trough fall of the cumulative P&L (≥ 0)') }),
  tradingDays: Type.Object({ active: Type.Integer(), winning: Type.Integer(), losing: Type.Integer(), bestDay: DayValue, worstDay: DayValue }),
  tradesByType: Type.Record(Type.String(), Type.Integer()),
});

export const SummaryResponse = Type.Object({
  year: Type.Integer(),
  currency: Type.String(),
  stats: YearStatsSchema,
  chartData: Type.Object({
    daily: Type.Array(Type.Object({ date: Type.String(), pl: Money(''), cumulative: Money('') })),
    monthly: Type.Array(Type.Object({ month: Type.String(), pl: Money('') })),
  }),
  byCurrency: Type.Record(Type.String(), Type.Object({ totalPL: Money(''), realizedPL: Money(''), premiumsCollected: Money(''), dividends: Money('') })),
  accounts: Type.Array(AccountSchema),
  demo: Type.Boolean(),
});
export type SummaryResponseT = Static<typeof SummaryResponse>;

export const TransactionsQuery = Params({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'default 1' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `default ${PAGE_LIMIT_DEFAULT}; values above ${PAGE_LIMIT_CAP} are clamped to ${PAGE_LIMIT_CAP}` })),
  symbol: Type.Optional(Type.String({ pattern: SYMBOL_PATTERN, description: 'Underlying ticker' })),
  accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  fromDate: Type.Optional(IsoDate('Lower bound on trade date (inclusive, New York date)')),
  toDate: Type.Optional(IsoDate('Upper bound on trade date (inclusive, New York date)')),
  type: Type.Optional(Type.Enum(TRANSACTION_TYPES, { description: 'Only this transaction type' })),
  sort: Type.Optional(Type.Enum(TRANSACTION_SORTS, { description: 'A column, ascending; with - descending. Over the whole filtered set; default -tradeDate (newest first); ties newest first' })),
});
export type TransactionsQueryT = Static<typeof TransactionsQuery>;

export const TransactionSchema = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  accountName: Type.String(),
  type: Type.Enum(TRANSACTION_TYPES),
  symbol: Type.String({ description: 'OCC symbol without padding for options' }),
  underlying: Type.String(),
  isOption: Type.Boolean(),
  expiration: Nullable(Type.String()),
  strike: Nullable(Type.Number()),
  right: Nullable(Type.Union([Type.Literal('C'), Type.Literal('P')])),
  quantity: Type.Number(),
  price: Type.Number({ description: 'Per share, 4 decimals' }),
  multiplier: Type.Number(),
  amount: Money('Signed cash, + = credit'),
  commission: Money(''),
  fees: Money(''),
  currency: Type.String(),
  tradeDate: Type.String({ description: 'ISO 8601 UTC' }),
  tradeDay: Type.String({ description: 'New York date' }),
  orderId: Nullable(Type.String()),
  description: Type.String(),
  source: Type.String(),
  importId: Type.Integer(),
  inferred: Type.Boolean(),
  realizedPL: Nullable(Money('Realized P&L this row booked (closing fills, expirations, assignments); null for rows that close nothing')),
});
export type TransactionJson = Static<typeof TransactionSchema>;

/** `pagination` of a paged list (`page`, `limit` as asked after clamping; `total` items; `pages` of that size). */
export const PaginationSchema = Type.Object({ page: Type.Integer(), limit: Type.Integer(), total: Type.Integer(), pages: Type.Integer() });

export const TransactionsResponse = Type.Object({
  transactions: Type.Array(TransactionSchema),
  accounts: Type.Array(AccountSchema),
  pagination: PaginationSchema,
});
export type TransactionsResponseT = Static<typeof TransactionsResponse>;

// ---------------------------------------------------------------- positions and campaigns (docs/journal.md §Positions, §Campaigns)

const AsOfParam = Type.String({ pattern: DATETIME_PATTERN, description: 'The instant (ISO 8601; without an offset read in the journal zone; a date = the end of that day); default now' });

export const PositionsQuery = Params({
  asOf: Type.Optional(AsOfParam),
  accountId: Type.Optional(AccountIdParam),
  symbol: Type.Optional(Type.String({ pattern: SYMBOL_PATTERN, description: 'Underlying ticker' })),
});
export type PositionsQueryT = Static<typeof PositionsQuery>;

const LevelsSchema = Type.Object({
  callWall: Nullable(Type.Number()),
  putWall: Nullable(Type.Number()),
  gammaFlip: Nullable(Type.Number()),
  gammaZone: Type.Union([Type.Literal('positive'), Type.Literal('negative')]),
});

const PositionSchema = Type.Object({
  accountId: Type.String(),
  accountName: Type.String(),
  chainId: Nullable(Type.String()),
  currency: Type.String(),
  symbol: Type.String(),
  underlying: Type.String(),
  isOption: Type.Boolean(),
  expiration: Nullable(Type.String()),
  strike: Nullable(Type.Number()),
  right: Nullable(Type.Union([Type.Literal('C'), Type.Literal('P')])),
  quantity: Type.Number({ description: 'Signed: + long, − short' }),
  multiplier: Type.Number(),
  averagePrice: Type.Number({ description: 'Entry value per share of the open lots, before costs' }),
  costBasis: Money('Net cash paid to open what is still open, costs included; negative for a short'),
  openedAt: Type.String({ description: 'Journal date of the oldest open lot' }),
  dte: Nullable(Type.Integer()),
  mark: Nullable(Type.Object({ price: Type.Number(), source: Type.Union([Type.Literal('mid'), Type.Literal('spot')]), quoteTime: Type.String(), snapshotId: Type.Integer() })),
  marketValue: Nullable(Money('quantity × mark × multiplier')),
  unrealizedPL: Nullable(Money('marketValue − costBasis')),
  greeks: Nullable(
    Type.Object({
      delta: Type.Number({ description: 'Shares' }),
      gamma: Type.Number({ description: 'Shares per $1' }),
      theta: Type.Number({ description: '$ per calendar day' }),
      vega: Type.Number({ description: '$ per volatility point' }),
      iv: Nullable(Type.Number()),
    }),
  ),
  levels: Nullable(LevelsSchema),
  strikeVs: Nullable(Type.Object({ callWall: Nullable(Type.Number()), putWall: Nullable(Type.Number()), gammaFlip: Nullable(Type.Number()) }, { description: '(strike − level) / level, in %' })),
});
export type PositionJson = Static<typeof PositionSchema>;

const PositionTotalsFields = {
  costBasis: Money(''),
  marketValue: Money('Of the marked positions'),
  unrealizedPL: Money('Of the marked positions'),
  unmarked: Type.Integer({ description: 'Positions without a mark' }),
};

export const PositionsResponse = Type.Object({
  asOf: Type.String(),
  currency: Type.String({ description: 'Totals are in this (the reporting) currency' }),
  positions: Type.Array(PositionSchema),
  totals: Type.Object({
    ...PositionTotalsFields,
    byAccount: Type.Array(Type.Object({ accountId: Type.String(), accountName: Type.String(), ...PositionTotalsFields })),
  }),
  marksAsOf: Type.Array(Type.Object({ symbol: Type.String(), snapshotId: Type.Integer(), quoteTime: Type.String(), spot: Type.Number() })),
  needsAttention: Type.Array(
    Type.Object({
      accountId: Type.String(),
      accountName: Type.String(),
      symbol: Type.String(),
      underlying: Type.String(),
      expiration: Nullable(Type.String()),
      strike: Nullable(Type.Number()),
      right: Nullable(Type.Union([Type.Literal('C'), Type.Literal('P')])),
      quantity: Type.Number(),
      reason: Type.Union([Type.Literal('no-snapshot-after-expiry'), Type.Literal('in-the-money')]),
      spot: Nullable(Type.Number()),
      quoteTime: Nullable(Type.String()),
    }),
  ),
  inferredExpirations: Type.Array(Type.Object({ accountId: Type.String(), accountName: Type.String(), symbol: Type.String(), quantity: Type.Number(), tradeDate: Type.String(), spot: Type.Number(), quoteTime: Type.String() })),
  accounts: Type.Array(AccountSchema),
  demo: Type.Boolean(),
});
export type PositionsResponseT = Static<typeof PositionsResponse>;

export const CampaignsQuery = Params({
  asOf: Type.Optional(AsOfParam),
  accountId: Type.Optional(AccountIdParam),
  symbol: Type.Optional(Type.String({ pattern: SYMBOL_PATTERN, description: 'Underlying ticker' })),
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
});
export type CampaignsQueryT = Static<typeof CampaignsQuery>;

const CampaignSchema = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  accountName: Type.String(),
  underlying: Type.String(),
  currency: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  openedAt: Type.String(),
  closedAt: Nullable(Type.String()),
  days: Type.Integer(),
  premiums: Money('Gross sell-to-open credits'),
  netOptionCash: Money('Option credits − debits, costs included'),
  realizedPL: Money(''),
  dividends: Money(''),
  fees: Money('Standalone fees'),
  pnl: Money('realizedPL + dividends − fees'),
  unrealizedPL: Nullable(Money('Open chains, from marks')),
  sharesHeld: Type.Number(),
  adjustedCostBasis: Nullable(Type.Number({ description: 'Per share: (cost of the shares held − net option cash) / shares' })),
  collateralPeak: Money('Largest cost of shares held + strike × multiplier × contracts of open short puts'),
  returnOnCollateral: Nullable(Type.Number({ description: 'pnl / collateralPeak' })),
  annualizedReturn: Nullable(Type.Number({ description: 'returnOnCollateral × 365 / days' })),
  rolls: Type.Integer(),
  assignments: Type.Integer(),
  legs: Type.Array(Type.String(), { description: 'Transaction ids' }),
});
export type CampaignJson = Static<typeof CampaignSchema>;

export const CampaignsResponse = Type.Object({
  asOf: Type.String(),
  currency: Type.String(),
  chains: Type.Array(CampaignSchema),
  accounts: Type.Array(AccountSchema),
  demo: Type.Boolean(),
});
export type CampaignsResponseT = Static<typeof CampaignsResponse>;

export const CampaignParams = Params({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export const CampaignQuery = Params({ asOf: Type.Optional(AsOfParam) });

export const CampaignDetailResponse = Type.Object({
  asOf: Type.String(),
  chain: CampaignSchema,
  timeline: Type.Array(
    Type.Object({
      transactionId: Type.String(),
      date: Type.String(),
      type: Type.Enum(TRANSACTION_TYPES),
      symbol: Type.String(),
      quantity: Type.Number(),
      cash: Money('Signed, costs included'),
      realizedPL: Money(''),
      sharesHeld: Type.Number(),
      adjustedCostBasis: Nullable(Type.Number()),
      netOptionCash: Money('So far'),
      collateral: Money(''),
    }),
  ),
  positions: Type.Array(PositionSchema),
});
export type CampaignDetailResponseT = Static<typeof CampaignDetailResponse>;

// ---------------------------------------------------------------- imports

/** A user-defined format's importer id: `custom:` and the format's id. */
const CUSTOM_IMPORTER_PATTERN = '^custom:[a-z0-9]{1,32}$';

export const ImportQuery = Params({
  broker: Type.Optional(
    Type.Union([Type.Enum(['auto', ...BROKER_IDS]), Type.String({ pattern: CUSTOM_IMPORTER_PATTERN })], {
      description: 'default auto (detected from the header); a saved format is custom:<id> (GET /v1/import-formats)',
    }),
  ),
  account: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Account name for files that carry none' })),
  filename: Type.Optional(Type.String({ maxLength: 255 })),
});
export type ImportQueryT = Static<typeof ImportQuery>;

export const ImportReportSchema = Type.Object({
  id: Type.Integer(),
  broker: Type.String(),
  source: Type.String(),
  filename: Nullable(Type.String()),
  createdAt: Type.String(),
  accounts: Type.Array(AccountSchema),
  rows: Type.Integer({ description: 'Data rows read' }),
  imported: Type.Integer(),
  duplicates: Type.Integer(),
  skipped: Type.Array(Type.Object({ line: Type.Integer(), reason: Type.String() })),
  warnings: Type.Array(Type.Object({ line: Nullable(Type.Integer()), message: Type.String() })),
});
export type ImportReport = Static<typeof ImportReportSchema>;

export const ImportsQuery = Params({
  page: TransactionsQuery.properties.page,
  limit: TransactionsQuery.properties.limit,
});
export type ImportsQueryT = Static<typeof ImportsQuery>;
export const ImportsResponse = Type.Object({ imports: Type.Array(ImportReportSchema), pagination: PaginationSchema });
export type ImportsResponseT = Static<typeof ImportsResponse>;
export const ImportIdParams = Params({ id: Type.Integer({ minimum: 1 }) });
export const ImportDeleteResponse = Type.Object({ id: Type.Integer(), removed: Type.Integer({ description: 'Transactions removed' }) });

// ---------------------------------------------------------------- import formats (docs/importers.md, "User-defined formats")

const L = IMPORT_FORMAT_LIMITS;
/** A column of the format's header, by its name. */
const FormatColumn = (description: string) => Type.String({ minLength: 1, maxLength: L.columnChars, description });
const Strict = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description === undefined ? {} : { description }) });

export const ImportFormatMapping = Strict(
  {
    date: Strict({
      column: FormatColumn('The date (a time and an offset may follow it in the cell)'),
      layout: OneOf(FORMAT_DATE_LAYOUTS, { description: 'How the date is written' }),
      time: Type.Optional(FormatColumn('A separate time column (H:MM[:SS] [AM|PM])')),
      zone: OneOf(FORMAT_ZONES, { description: 'Zone of times written without an offset; bare dates are 16:00 New York' }),
    }),
    type: Strict({
      column: FormatColumn("The broker's action or type"),
      words: Type.Array(
        Strict({ word: Type.String({ minLength: 1, maxLength: L.wordChars }), type: OneOf(TRANSACTION_TYPES) }),
        { maxItems: L.words, description: 'Action words → transaction types (case-insensitive); a cell may also be a type name itself' },
      ),
    }),
    symbol: Type.Optional(FormatColumn('Ticker, or an OCC option symbol')),
    option: Type.Optional(
      Strict({
        text: Type.Optional(FormatColumn('An OCC option symbol (SPY250117P00450000, padded or not)')),
        root: Type.Optional(FormatColumn('The underlying of an option (else the symbol column)')),
        expiration: Type.Optional(FormatColumn('Expiration date, written as the date layout')),
        strike: Type.Optional(FormatColumn('Strike')),
        right: Type.Optional(FormatColumn('C/P/Call/Put')),
      }),
    ),
    quantity: FormatColumn('Shares or contracts (the sign is dropped, except for SPLIT)'),
    price: Type.Optional(FormatColumn('Price per share (per unit of the underlying for options)')),
    multiplier: Type.Optional(FormatColumn('Shares per contract (default 100 for options, 1 otherwise)')),
    commission: Type.Optional(FormatColumn('Commission (unsigned)')),
    fees: Type.Optional(FormatColumn('Fees (unsigned)')),
    amount: Strict({
      column: Type.Optional(FormatColumn('Net cash of the row; without it, −(price × quantity × multiplier) for buys, + for sells, less commission and fees')),
      sign: OneOf(FORMAT_AMOUNT_SIGNS, { description: 'as-written, or by-type: buys pay, sells receive (other types as written)' }),
    }),
    account: Type.Optional(FormatColumn('Account')),
    currency: Type.Optional(FormatColumn('Currency (3 letters; default USD)')),
    description: Type.Optional(FormatColumn('Description')),
    orderId: Type.Optional(FormatColumn('Order id')),
    rowId: Type.Optional(FormatColumn("The row's own id (a transaction or execution id): re-imports deduplicate on it; without it, on the row's content")),
  },
  'Which column of the header holds each field of a transaction',
);
export type ImportFormatMappingT = Static<typeof ImportFormatMapping>;

/** What POST and PUT /import-formats take. */
export const ImportFormatDraft = Strict({
  name: Type.String({ minLength: 1, maxLength: L.nameChars, description: 'What the Import page and import reports call it' }),
  header: Type.Array(Type.String({ maxLength: L.columnChars }), {
    minItems: 2,
    maxItems: L.headerColumns,
    description: "The header's cells; a file whose header has the same names (any order) is read with this format",
  }),
  mapping: ImportFormatMapping,
});
export type ImportFormatDraftT = Static<typeof ImportFormatDraft>;

export const ImportFormatSchema = Type.Object({
  id: Type.String(),
  importer: Type.String({ description: 'custom:<id>: the broker= of POST /imports and the broker of its reports' }),
  name: Type.String(),
  header: Type.Array(Type.String()),
  mapping: ImportFormatMapping,
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type ImportFormatJson = Static<typeof ImportFormatSchema>;
export const ImportFormatIdParams = Params({ id: Type.String({ pattern: '^[a-z0-9]{1,32}$' }) });

export const ImporterSchema = Type.Object({ id: Type.String(), label: Type.String(), formats: Type.String() });
export const ImportFormatsResponse = Type.Object({
  importers: Type.Array(ImporterSchema, { description: "broker= of POST /imports: the built-in importers (the registry), then the saved formats" }),
  formats: Type.Array(ImportFormatSchema),
  limit: Type.Integer({ description: 'How many formats can be saved' }),
});
export type ImportFormatsResponseT = Static<typeof ImportFormatsResponse>;
export const ImportFormatDeleteResponse = Type.Object({ id: Type.String(), deleted: Type.Boolean() });

export const ImportFormatPreviewRequest = Strict({
  text: Type.String({ minLength: 1, maxLength: L.previewChars, description: 'The file (or its start, cut at a line end)' }),
  format: Type.Optional(ImportFormatDraft),
});
export type ImportFormatPreviewRequestT = Static<typeof ImportFormatPreviewRequest>;

const LineMessage = Type.Object({ line: Type.Integer(), message: Type.String() });
export const PreviewTransactionSchema = Type.Object({
  line: Type.Integer({ description: 'Line of the file' }),
  ...Type.Omit(TransactionSchema, ['id', 'accountId', 'tradeDay', 'importId', 'realizedPL']).properties,
});
export type PreviewTransactionJson = Static<typeof PreviewTransactionSchema>;
export const ImportFormatPreviewResponse = Type.Object({
  header: Nullable(Type.Object({ line: Type.Integer(), cells: Type.Array(Type.String()) }, { description: 'The header found (the saved one, else the first row of names)' })),
  sample: Type.Array(Type.Object({ line: Type.Integer(), cells: Type.Array(Type.String()) }), { description: 'The first rows below the header' }),
  detected: Nullable(Type.String({ description: 'The importer that recognises the text as it is, if any' })),
  preview: Nullable(
    Type.Object({
      rows: Type.Integer(),
      transactionCount: Type.Integer(),
      transactions: Type.Array(PreviewTransactionSchema, { description: `The first ${L.previewTransactions}` }),
      skipped: Type.Array(LineMessage),
      warnings: Type.Array(Type.Object({ line: Nullable(Type.Integer()), message: Type.String() })),
      errors: Type.Array(LineMessage, { description: 'Line-numbered problems: any means an import would store nothing' }),
      words: Type.Array(Type.String(), { description: "The type column's distinct cells: the words the format should map" }),
    }),
  ),
});
export type ImportFormatPreviewResponseT = Static<typeof ImportFormatPreviewResponse>;

// ---------------------------------------------------------------- exposure

const SymbolParam = Type.String({ pattern: SYMBOL_PATTERN, description: 'Ticker, e.g. SPX' });

/** `snapshot=` / `at=` of /gex, /vanna, /expirations and /gex/profile: which stored snapshot (default the newest). */
const snapshotSelector = {
  snapshot: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A stored snapshot of the symbol (id from /v1/snapshots)' })),
  at: Type.Optional(Type.String({ pattern: DATETIME_PATTERN, description: 'The newest snapshot quoted at or before this instant (ISO 8601; no offset: New York time; a date: the end of that day)' })),
};

/** The scope of /gex (also /gex/profile, /gex/history, /gex/diff). */
const gexScope = {
  expirations: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}(,\\d{4}-\\d{2}-\\d{2}){0,199}$', description: 'Comma-separated YYYY-MM-DD' })),
  expirationsCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: 'Nearest N expirations; default 3 (with minDte/maxDte: default all in the range)' })),
  minDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650, description: 'Every expiration with dte ≥ minDte (minDte=1: all but 0DTE); not with expirations' })),
  maxDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650, description: 'Every expiration with dte ≤ maxDte (maxDte=0: 0DTE alone); not with expirations' })),
  formula: Type.Optional(Type.Enum(FORMULAS, { description: 'default nominal' })),
};

export const GexQuery = Params({
  symbol: SymbolParam,
  ...gexScope,
  ...snapshotSelector,
});
export type GexQueryT = Static<typeof GexQuery>;

const Level = Nullable(Type.Object({ strike: Type.Number(), gex: Type.Number() }));
const ExcludedContractsCount = Type.Integer({
  description: 'Unexpired contracts of the snapshot left out of every figure because their root is adjusted (ends in a digit, e.g. AMD1: a non-standard deliverable)',
});
export const SnapshotSource = OneOf(SNAPSHOT_SOURCES);

export const GexResponse = Type.Object({
  symbol: Type.String(),
  stockPrice: Type.Number(),
  totalGEX: Type.Number(),
  gammaZone: Type.Union([Type.Literal('positive'), Type.Literal('negative')]),
  gammaInflection: Nullable(Type.Number()),
  callWall: Level,
  putWall: Level,
  data: Type.Array(Type.Object({ strike: Type.Number(), callGEX: Type.Number(), putGEX: Type.Number(), netGEX: Type.Number(), callOI: Type.Number(), putOI: Type.Number() })),
  meta: Type.Object({
    availableExpirations: Type.Array(Type.String()),
    expirations: Type.Array(Type.String()),
    formula: Type.String(),
    unit: Type.String(),
    source: Type.String(),
    snapshotTime: Type.String(),
    contracts: Type.Integer(),
    excludedContracts: ExcludedContractsCount,
    snapshotId: Type.Integer({ description: 'The stored snapshot answered on (/v1/snapshots)' }),
  }),
  asOf: Type.String(),
});
export type GexResponseT = Static<typeof GexResponse>;

export const VannaQuery = Params({ symbol: SymbolParam, expiration: Type.Optional(IsoDate('Pins one expiration; default: the 0–45 dte aggregate')), ...snapshotSelector });
export type VannaQueryT = Static<typeof VannaQuery>;

export const VannaResponse = Type.Object({
  symbol: Type.String(),
  stockPrice: Type.Number(),
  totalVanna: Type.Number({ description: '$ of dealer delta per +1 vol point' }),
  totalCharm: Type.Number({ description: '$ of dealer delta per calendar day' }),
  keyLevels: Type.Object({
    vannaRegime: Type.Union([Type.Literal('positive'), Type.Literal('negative')]),
    vannaFlip: Nullable(Type.Number()),
    bullDriftTarget: Nullable(Type.Number()),
    bearMaxDanger: Nullable(Type.Number()),
    bearDeceleration: Nullable(Type.Number()),
    bullBearRatio: Nullable(Type.Number()),
  }),
  minDte: Type.Integer(),
  maxDte: Type.Integer(),
  mode: Type.Union([Type.Literal('aggregate'), Type.Literal('expiration')]),
  expiration: Nullable(Type.String()),
  availableExpirations: Type.Array(Type.String()),
  data: Type.Array(Type.Object({ strike: Type.Number(), vanna: Type.Number(), charm: Type.Number(), bull: Type.Number(), bear: Type.Number() })),
  meta: Type.Object({ source: Type.String(), snapshotTime: Type.String(), contracts: Type.Integer(), excludedContracts: ExcludedContractsCount }),
  asOf: Type.String(),
});
export type VannaResponseT = Static<typeof VannaResponse>;

export const ExpirationsQuery = Params({ symbol: SymbolParam, ...snapshotSelector });
export const ExpirationsResponse = Type.Object({
  symbol: Type.String(),
  expirations: Type.Array(Type.String()),
  details: Type.Array(
    Type.Object({
      expiration: Type.String(),
      dte: Type.Integer(),
      settlement: Type.Union([Type.Literal('AM'), Type.Literal('PM')]),
      contracts: Type.Integer(),
      openInterest: Type.Number(),
      gammaShare: Type.Number({ description: "The expiration's share of the book's absolute gamma (Σ|s·Γ·OI·m| over every unexpired contract); the shares sum to 1 (all 0 for a book without gamma)" }),
    }),
  ),
  snapshotTime: Type.String(),
  meta: Type.Object({ excludedContracts: ExcludedContractsCount }),
});
export type ExpirationsResponseT = Static<typeof ExpirationsResponse>;

export const EventsQuery = Params({
  tickers: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._/^-]{0,15}(,[A-Za-z0-9][A-Za-z0-9._/^-]{0,15}){0,49}$', description: 'Comma-separated; default all' })),
  eventType: Type.Optional(OneOf(EVENT_TYPE_FILTERS, { description: 'default all' })),
  minDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
  maxDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `default ${EVENTS_LIMIT_DEFAULT}; values above ${EVENTS_LIMIT_CAP} are clamped to ${EVENTS_LIMIT_CAP}` })),
});
export type EventsQueryT = Static<typeof EventsQuery>;

const eventCommon = {
  id: Type.String(),
  ticker: Type.String(),
  expiration: Type.String(),
  timestamp: Type.String(),
  dte: Type.Integer({ description: 'Days to expiry as of the request date' }),
  eventDte: Type.Integer({ description: 'Days to expiry as of the event (its New York date)' }),
};
export const FlipEventSchema = Type.Object({
  ...eventCommon,
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
  eventType: Type.Literal('wall'),
  wallType: Type.Union([Type.Literal('call'), Type.Literal('put')]),
  previousStrike: Type.Number(),
  newStrike: Type.Number(),
  spotPrice: Type.Number(),
});
export const ExposureEventSchema = Type.Union([FlipEventSchema, WallEventSchema]);
export type ExposureEventJson = Static<typeof ExposureEventSchema>;
export const EventsResponse = Type.Object({ events: Type.Array(ExposureEventSchema) });

/** The stream's filters, and the key as `access_token` (EventSource cannot send an Authorization header). */
export const EventsStreamQuery = Params({ tickers: EventsQuery.properties.tickers, eventType: EventsQuery.properties.eventType, access_token: Type.Optional(Type.String({ maxLength: 512 })) });

// ---------------------------------------------------------------- exposure over time

export const GexProfileQuery = GexQuery;
export const GexProfileResponse = Type.Object({
  symbol: Type.String(),
  stockPrice: Type.Number(),
  formula: Type.String(),
  unit: Type.String(),
  gammaInflection: Nullable(Type.Number()),
  points: Type.Array(Type.Object({ spot: Type.Number({ description: 'Hypothetical spot x' }), netGEX: Type.Number({ description: "P(x) × the formula's factor at x (1, x, x²·0.01)" }) }), {
    description: '201 points evenly on [0.8S, 1.2S]',
  }),
  meta: Type.Object({ expirations: Type.Array(Type.String()), snapshotId: Type.Integer(), snapshotTime: Type.String(), source: Type.String() }),
  asOf: Type.String(),
});
export type GexProfileResponseT = Static<typeof GexProfileResponse>;

const Bound = (description: string) => Type.String({ pattern: DATETIME_PATTERN, description });
export const GexHistoryQuery = Params({
  symbol: SymbolParam,
  from: Type.Optional(Bound('Snapshots quoted at or after (ISO 8601; a date: from its start, New York)')),
  to: Type.Optional(Bound('Snapshots quoted at or before (ISO 8601; a date: to its end, New York)')),
  ...gexScope,
});
const Wall = Nullable(Type.Object({ strike: Type.Number(), gex: Type.Number() }));
export const GexHistoryPointSchema = Type.Object({
  snapshotId: Type.Integer(),
  quoteTime: Type.String(),
  spot: Type.Number(),
  totalGEX: Type.Number(),
  gammaZone: Type.Union([Type.Literal('positive'), Type.Literal('negative')]),
  gammaInflection: Nullable(Type.Number()),
  callWall: Wall,
  putWall: Wall,
});
export const GexHistoryResponse = Type.Object({ symbol: Type.String(), formula: Type.String(), unit: Type.String(), points: Type.Array(GexHistoryPointSchema, { description: 'One per stored snapshot, oldest first' }) });
export type GexHistoryResponseT = Static<typeof GexHistoryResponse>;

export const GexDiffQuery = Params({
  symbol: SymbolParam,
  from: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Snapshot id (the base)' }),
  to: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Snapshot id (compared with the base)' }),
  ...gexScope,
});
const DiffSide = Type.Object({ snapshotId: Type.Integer(), quoteTime: Type.String(), spot: Type.Number(), totalGEX: Type.Number(), expirations: Type.Array(Type.String()) });
export const GexDiffResponse = Type.Object({
  symbol: Type.String(),
  formula: Type.String(),
  unit: Type.String(),
  from: DiffSide,
  to: DiffSide,
  data: Type.Array(
    Type.Object({
      strike: Type.Number(),
      fromNetGEX: Type.Number(),
      toNetGEX: Type.Number(),
      netGEX: Type.Number({ description: 'to − from' }),
      callGEX: Type.Number(),
      putGEX: Type.Number(),
      callOI: Type.Number(),
      putOI: Type.Number(),
    }),
    { description: 'Every strike of either side, ascending; a side without the strike counts 0' },
  ),
});
export type GexDiffResponseT = Static<typeof GexDiffResponse>;

export const SnapshotsQuery = Params({ symbol: SymbolParam });
export const SnapshotListingSchema = Type.Object({
  id: Type.Integer(),
  quoteTime: Type.String(),
  spot: Type.Number(),
  contracts: Type.Integer({ description: 'Contracts of the file' }),
  expirations: Type.Integer({ description: 'Expirations of the file, expired ones included' }),
  source: Type.String(),
});
export const SnapshotsResponse = Type.Object({ symbol: Type.String(), snapshots: Type.Array(SnapshotListingSchema, { description: 'Newest first' }) });
export type SnapshotsResponseT = Static<typeof SnapshotsResponse>;
export const SnapshotIdParams = Params({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
export const SnapshotDeleteResponse = Type.Object({ id: Type.Integer(), symbol: Type.String(), quoteTime: Type.String() });

// ---------------------------------------------------------------- chains

export const ChainPostQuery = Params({
  symbol: Type.Optional(SymbolParam),
  quoteTime: Type.Optional(Type.String({ pattern: DATETIME_PATTERN, description: 'Overrides the file’s quote time (ISO 8601; without an offset: New York time)' })),
  format: Type.Optional(OneOf(CHAIN_FORMATS)),
});
export type ChainPostQueryT = Static<typeof ChainPostQuery>;

/** What every answer about a stored snapshot starts with. */
const snapshotHead = {
  symbol: Type.String(),
  spot: Type.Number(),
  quoteTime: Type.String(),
  source: Type.String(),
};
export const ChainInfoSchema = Type.Object({
  ...snapshotHead,
  contracts: Type.Integer(),
  expirations: Type.Integer(),
  snapshots: Type.Integer({ description: 'Snapshots kept for this symbol' }),
});
export const ChainPostResponse = Type.Object({
  ...snapshotHead,
  contracts: Type.Integer({ description: 'Contracts read from the file, expired and adjusted ones included' }),
  expirations: Type.Integer({ description: 'Expirations /v1/expirations shows for this snapshot: unexpired at its quote time, standard roots' }),
  excluded: Type.Object(
    {
      expired: Type.Integer({ description: 'Contracts expired at the quote time' }),
      adjusted: Type.Integer({ description: 'Unexpired contracts with an adjusted root (AMD1): left out of every figure' }),
      unusableIv: Type.Integer({ description: 'Unexpired contracts with open interest but IV ≤ 0 or > 5: in open interest, no exposure' }),
    },
    { description: 'Contracts read but not used by the exposure figures, by reason' },
  ),
  stored: Type.Boolean({ description: 'false when this exact snapshot was already stored' }),
  events: Type.Integer({ description: 'Events created by this snapshot' }),
});
export const ChainsResponse = Type.Object({ symbols: Type.Array(ChainInfoSchema) });

// ---------------------------------------------------------------- settings, keys, demo

export const SettingsSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535, description: 'Port of the API (takes effect at the next start)' }),
  dataDir: Type.String({ description: 'Data folder (read only)' }),
  rate: Type.Number({ minimum: -0.05, maximum: 0.25, description: 'Risk-free rate r of the exposure engine' }),
  timeZone: Type.String({ description: 'IANA zone of journal trade days' }),
  reportingCurrency: Type.String({ pattern: '^[A-Z]{3}$' }),
  cacheSeconds: Type.Integer({ minimum: 0, maximum: 3600 }),
  snapshotRetention: Type.Integer({ minimum: 1, maximum: 1000, description: 'Snapshots kept per symbol (the newest N), unless snapshotRetentionBySymbol names the symbol' }),
  snapshotRetentionBySymbol: Type.Record(Type.String({ pattern: '^[A-Z0-9][A-Z0-9._/^-]{0,15}$' }), Type.Integer({ minimum: 1, maximum: 1000 }), {
    maxProperties: 100,
    additionalProperties: false,
    description: 'Snapshots kept for particular symbols (upper case), e.g. {"SPX": 100}',
  }),
  rateLimit: Type.Object({ perSecond: Type.Number({ exclusiveMinimum: 0, maximum: 100000 }), burst: Type.Integer({ minimum: 1, maximum: 100000 }) }, { additionalProperties: false }),
  corsOrigins: Type.Array(Type.String({ maxLength: 200, description: 'An exact origin, scheme://host[:port] (no *, no path)' }), {
    maxItems: 20,
    description: 'Origins allowed by CORS; empty = no CORS headers',
  }),
  onlineSource: Type.Object(
    {
      enabled: Type.Boolean(),
      baseUrl: Type.String({ pattern: '^https?://', maxLength: 500 }),
      watchlist: Type.Array(Type.String({ pattern: SYMBOL_PATTERN }), { maxItems: 50 }),
      intervalSeconds: Type.Integer({ minimum: 15, maximum: 86400 }),
    },
    { additionalProperties: false },
  ),
});
export type SettingsJson = Static<typeof SettingsSchema>;
export const SettingsUpdate = Type.Partial(Type.Omit(SettingsSchema, ['dataDir']), { additionalProperties: false });
export type SettingsUpdateT = Static<typeof SettingsUpdate>;

export const KeyRotateResponse = Type.Object({ key: Type.String(), keyFile: Type.String() });
export const DemoResponse = Type.Object({ transactions: Type.Integer(), snapshots: Type.Integer(), events: Type.Integer() });
