/**
 * The /v1 contract: one schema per request and response (DESIGN §1, §3–§5). The server validates and
 * serialises with these, the OpenAPI document is generated from them, and the renderer takes its types
 * from them. Money is in currency units rounded to cents; exposure in the unit named by `meta.unit`.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { TRANSACTION_TYPES } from '../journal/model';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
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

export const HealthSchema = Type.Object({ status: Type.Literal('ok'), version: Type.String(), time: Type.String() });

// ---------------------------------------------------------------- journal

export const PerformanceQuery = Type.Object(
  {
    period: Type.Optional(Type.Union([Type.Literal('weekly'), Type.Literal('monthly')], { description: 'default monthly' })),
    date: Type.Optional(Type.String({ pattern: DATETIME_PATTERN, description: 'Center date (ISO 8601); default today' })),
    from: Type.Optional(IsoDate('Custom range start; must come with to')),
    to: Type.Optional(IsoDate('Custom range end (inclusive); must come with from')),
  },
  { additionalProperties: false },
);
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
  range: Type.Object({ period: Type.Union([Type.Literal('weekly'), Type.Literal('monthly'), Type.Literal('custom')]), from: Type.String(), to: Type.String() }),
  calendar: CalendarSchema,
  accounts: Type.Array(AccountSchema),
  demo: Type.Boolean(),
});
export type PerformanceResponseT = Static<typeof PerformanceResponse>;

export const SummaryQuery = Type.Object(
  { year: Type.Optional(Type.Integer({ minimum: 1970, maximum: 2200, description: 'Calendar year; default current year' })) },
  { additionalProperties: false },
);

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

export const TransactionsQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'default 1' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'default 25; values above 100 are clamped to 100' })),
    symbol: Type.Optional(Type.String({ pattern: SYMBOL_PATTERN, description: 'Underlying ticker' })),
    accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    fromDate: Type.Optional(IsoDate('Lower bound on trade date (inclusive, New York date)')),
    toDate: Type.Optional(IsoDate('Upper bound on trade date (inclusive, New York date)')),
  },
  { additionalProperties: false },
);
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

// ---------------------------------------------------------------- imports

export const BROKER_IDS = ['tastytrade', 'schwab', 'thinkorswim', 'ibkr', 'fidelity', 'robinhood', 'etrade', 'webull', 'generic'] as const;
export type BrokerId = (typeof BROKER_IDS)[number];

export const ImportQuery = Type.Object(
  {
    broker: Type.Optional(Type.Enum(['auto', ...BROKER_IDS], { description: 'default auto (detected from the header)' })),
    account: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Account name for files that carry none' })),
    filename: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);
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

export const ImportsQuery = Type.Object(
  {
    page: TransactionsQuery.properties.page,
    limit: TransactionsQuery.properties.limit,
  },
  { additionalProperties: false },
);
export type ImportsQueryT = Static<typeof ImportsQuery>;
export const ImportsResponse = Type.Object({ imports: Type.Array(ImportReportSchema), pagination: PaginationSchema });
export type ImportsResponseT = Static<typeof ImportsResponse>;
export const ImportIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
export const ImportDeleteResponse = Type.Object({ id: Type.Integer(), removed: Type.Integer({ description: 'Transactions removed' }) });

// ---------------------------------------------------------------- exposure

export const FORMULAS = ['nominal', 'per_1dollar', 'per_1pct'] as const;
export type Formula = (typeof FORMULAS)[number];
export const FORMULA_UNITS: Record<Formula, string> = {
  nominal: 'shares per $1 move',
  per_1dollar: 'USD of delta per $1 move',
  per_1pct: 'USD per 1% move',
};

const SymbolParam = Type.String({ pattern: SYMBOL_PATTERN, description: 'Ticker, e.g. SPX' });

export const GexQuery = Type.Object(
  {
    symbol: SymbolParam,
    expirations: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}(,\\d{4}-\\d{2}-\\d{2}){0,199}$', description: 'Comma-separated YYYY-MM-DD' })),
    expirationsCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: 'Nearest N expirations; default 3' })),
    formula: Type.Optional(Type.Enum(FORMULAS, { description: 'default nominal' })),
  },
  { additionalProperties: false },
);
export type GexQueryT = Static<typeof GexQuery>;

const Level = Nullable(Type.Object({ strike: Type.Number(), gex: Type.Number() }));
const ExcludedContractsCount = Type.Integer({
  description: 'Unexpired contracts of the snapshot left out of every figure because their root is adjusted (ends in a digit, e.g. AMD1: a non-standard deliverable)',
});
export const SnapshotSource = Type.Union([Type.Literal('cboe-csv'), Type.Literal('cboe-json'), Type.Literal('generic'), Type.Literal('demo'), Type.Literal('online')]);

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
  }),
  asOf: Type.String(),
});
export type GexResponseT = Static<typeof GexResponse>;

export const VannaQuery = Type.Object(
  { symbol: SymbolParam, expiration: Type.Optional(IsoDate('Pins one expiration; default: the 0–45 dte aggregate')) },
  { additionalProperties: false },
);
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

export const ExpirationsQuery = Type.Object({ symbol: SymbolParam }, { additionalProperties: false });
export const ExpirationsResponse = Type.Object({
  symbol: Type.String(),
  expirations: Type.Array(Type.String()),
  details: Type.Array(Type.Object({ expiration: Type.String(), dte: Type.Integer(), settlement: Type.Union([Type.Literal('AM'), Type.Literal('PM')]), contracts: Type.Integer(), openInterest: Type.Number() })),
  snapshotTime: Type.String(),
  meta: Type.Object({ excludedContracts: ExcludedContractsCount }),
});
export type ExpirationsResponseT = Static<typeof ExpirationsResponse>;

export const EventsQuery = Type.Object(
  {
    tickers: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._/^-]{0,15}(,[A-Za-z0-9][A-Za-z0-9._/^-]{0,15}){0,49}$', description: 'Comma-separated; default all' })),
    eventType: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('flip'), Type.Literal('wall')], { description: 'default all' })),
    minDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
    maxDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'default 50; values above 200 are clamped to 200' })),
  },
  { additionalProperties: false },
);
export type EventsQueryT = Static<typeof EventsQuery>;

const eventCommon = {
  id: Type.String(),
  ticker: Type.String(),
  expiration: Type.String(),
  timestamp: Type.String(),
  dte: Type.Integer({ description: 'Days to expiry as of the request date' }),
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

export const EventsStreamQuery = Type.Object(
  { tickers: EventsQuery.properties.tickers, eventType: EventsQuery.properties.eventType },
  { additionalProperties: false },
);

// ---------------------------------------------------------------- chains

export const ChainPostQuery = Type.Object(
  {
    symbol: Type.Optional(SymbolParam),
    quoteTime: Type.Optional(Type.String({ pattern: DATETIME_PATTERN, description: 'Overrides the file’s quote time (ISO 8601; without an offset: New York time)' })),
    format: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('cboe-csv'), Type.Literal('cboe-json'), Type.Literal('generic-csv'), Type.Literal('generic-json')])),
  },
  { additionalProperties: false },
);
export type ChainPostQueryT = Static<typeof ChainPostQuery>;

export const ChainInfoSchema = Type.Object({
  symbol: Type.String(),
  spot: Type.Number(),
  quoteTime: Type.String(),
  source: Type.String(),
  contracts: Type.Integer(),
  expirations: Type.Integer(),
  snapshots: Type.Integer({ description: 'Snapshots kept for this symbol' }),
});
export const ChainPostResponse = Type.Object({
  symbol: Type.String(),
  spot: Type.Number(),
  quoteTime: Type.String(),
  source: Type.String(),
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
  snapshotRetention: Type.Integer({ minimum: 1, maximum: 1000 }),
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
