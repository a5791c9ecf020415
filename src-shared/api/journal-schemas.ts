/** The /v1 journal contract: performance, accounts, summary and transactions (docs/journal.md); positions and campaigns in position-schemas.ts. */
import { Type, type Static } from 'typebox';
import { PAGE_LIMIT_CAP, PERFORMANCE_PERIODS, PAGE_LIMIT_DEFAULT, TRANSACTION_SORTS, TRANSACTION_TYPES } from './constants';
import { AccountParam, adjustedField, optionContract } from './journal-fields';
import { Nullable, Params, OneOf, DATETIME_PATTERN, DATE_YEARS, IsoDate, Money, AccountSchema, PaginationSchema, AccountIdParam, TickerParam, type Sent } from './schema-kit';

// ---------------------------------------------------------------- journal

export const PerformanceQuery = Params({
  accountId: Type.Optional(AccountParam),
  period: Type.Optional(OneOf(PERFORMANCE_PERIODS, { description: 'default monthly' })),
  date: Type.Optional(Type.String({ pattern: DATETIME_PATTERN, description: 'Center date (ISO 8601); default today' })),
  from: Type.Optional(IsoDate('Custom range start; must come with to')),
  to: Type.Optional(IsoDate('Custom range end (inclusive); must come with from')),
});
export type PerformanceQueryT = Sent<Static<typeof PerformanceQuery>>;

/** docs/journal.md §Unmatched closes. */
const UnmatchedSchema = Type.Object(
  {
    closes: Type.Integer({ description: 'Rows (closes, sales of shares, assignments, exercises, expirations) that removed more than was open' }),
    quantity: Type.Number({ description: 'Units (shares or contracts) those rows removed beyond what was open' }),
  },
  { description: 'Unmatched closes: what was opened before the history starts. Their realized P&L is unknown and left out of every realized figure until an opening position is entered' },
);
const CommissionsMoney = () => Money('Commission + fees charged on fills and option settlements, a positive cost (already inside realized P&L once a lot closes)');
/** The broker statement's split, said where a trade's P&L (the whole wheel cycle) may differ (DESIGN §5). */
const OptionsPLMoney = () =>
  Money('Realized P&L of option lots, the broker statement’s convention: an assigned put’s premium stays here (the delivered shares’ result is stockPL), while a trade’s pnl on /journal/trades includes its shares');
const StockPLMoney = () => Money('Realized P&L of shares, the broker statement’s convention: the result of shares an assignment delivered is here, not in optionsPL');

const summaryFields = {
  realizedPL: Money('optionsPL + stockPL'),
  totalPL: Money('realizedPL + dividends + interest − fees'),
  premiumsCollected: Money('Gross sell-to-open credits'),
  lockedInPremiums: Money('Realized P&L of short option lots closed in the period'),
  rolls: Type.Integer(),
  rollCredits: Money('Open credit − close debit of the rolls'),
  dividends: Money('Net of withholding'),
  interest: Money(''),
  stockPL: StockPLMoney(),
  optionsPL: OptionsPLMoney(),
  fees: Money('Standalone fees (not commissions on trades)'),
  commissions: CommissionsMoney(),
  unmatched: UnmatchedSchema,
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

/** GET /journal/accounts: the accounts that hold transactions, with what they hold (the ids the journal's `accountId` filters take). */
export const AccountsResponse = Type.Object({
  accounts: Type.Array(
    Type.Object({
      id: Type.String({ description: 'What `accountId` takes on the journal routes' }),
      name: Type.String({ description: 'The account as the broker file named it (or as the import was told)' }),
      transactions: Type.Integer({ minimum: 1, description: 'Transactions stored in the account' }),
      firstTradeDay: Type.String({ description: 'Its oldest trade day (YYYY-MM-DD, the journal time zone)' }),
      lastTradeDay: Type.String({ description: 'Its newest trade day' }),
      dividendsOutsideCampaigns: Type.Array(Type.Object({ currency: Type.String(), amount: Money('Net of withholding') }), {
        description:
          'Dividends paid while no campaign held the shares (none on the payment day, none whose shares left within 60 days before it: docs/journal.md §Campaigns), per currency: in the summaries’ dividends, in no campaign',
      }),
    }),
  ),
  demo: Type.Boolean({ description: "Whether the journal holds the demo's transactions" }),
});
export type AccountsResponseT = Static<typeof AccountsResponse>;

export const SummaryQuery = Params({
  year: Type.Optional(Type.Integer({ minimum: DATE_YEARS.min, maximum: DATE_YEARS.max, description: 'Calendar year; default current year' })),
  accountId: Type.Optional(AccountParam),
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
  optionsPL: OptionsPLMoney(),
  stockPL: StockPLMoney(),
  dividends: Money(''),
  interest: Money(''),
  fees: Money('Standalone fees'),
  commissions: CommissionsMoney(),
  unmatched: UnmatchedSchema,
  totalPL: Money(''),
  trades: Type.Integer(),
  chains: Type.Object({ opened: Type.Integer(), closed: Type.Integer(), open: Type.Integer(), wins: Type.Integer(), losses: Type.Integer(), winRate: Nullable(Type.Number({ description: 'wins / closed, 0..1' })) }),
  equity: Type.Object({ series: Type.Array(Type.Object({ date: Type.String(), equity: Money('cumulative P&L') })), maxDrawdown: Money('Largest peak-to-trough fall of the cumulative P&L (≥ 0)') }),
  tradingDays: Type.Object({ active: Type.Integer(), winning: Type.Integer(), losing: Type.Integer(), bestDay: DayValue, worstDay: DayValue }),
  tradesByType: Type.Record(Type.String(), Type.Integer(), { description: 'Rows of each trade type (fills, assignments, exercises, expirations), every one named' }),
  otherRowsByType: Type.Record(Type.String(), Type.Integer(), { description: 'Rows of each other type (deposits, withdrawals, dividends, interest, fees, splits...): not trades' }),
});

export const SummaryResponse = Type.Object({
  year: Type.Integer(),
  currency: Type.String(),
  stats: YearStatsSchema,
  chartData: Type.Object({
    daily: Type.Array(Type.Object({ date: Type.String(), pl: Money(''), cumulative: Money('') })),
    monthly: Type.Array(Type.Object({ month: Type.String(), pl: Money('') })),
  }),
  byCurrency: Type.Record(
    Type.String(),
    Type.Object({ totalPL: Money(''), realizedPL: Money(''), premiumsCollected: Money(''), dividends: Money(''), commissions: CommissionsMoney(), unmatched: UnmatchedSchema }),
    { description: 'Other currencies with activity in the year, never mixed into stats' },
  ),
  accounts: Type.Array(AccountSchema),
  demo: Type.Boolean(),
});
export type SummaryResponseT = Static<typeof SummaryResponse>;

export const TransactionsQuery = Params({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'default 1' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `default ${PAGE_LIMIT_DEFAULT}; values above ${PAGE_LIMIT_CAP} are clamped to ${PAGE_LIMIT_CAP}` })),
  symbol: Type.Optional(TickerParam('Underlying ticker')),
  accountId: Type.Optional(AccountIdParam()),
  fromDate: Type.Optional(IsoDate('Lower bound on trade date (inclusive, New York date)')),
  toDate: Type.Optional(IsoDate('Upper bound on trade date (inclusive, New York date)')),
  type: Type.Optional(Type.Enum(TRANSACTION_TYPES, { description: 'Only this transaction type' })),
  sort: Type.Optional(Type.Enum(TRANSACTION_SORTS, { description: 'A column, ascending; with - descending. Over the whole filtered set; default -tradeDate (newest first); ties newest first' })),
});
export type TransactionsQueryT = Sent<Static<typeof TransactionsQuery>>;

export const TransactionSchema = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  accountName: Type.String(),
  type: Type.Enum(TRANSACTION_TYPES),
  symbol: Type.String({ description: 'OCC symbol without padding for options' }),
  underlying: Type.String(),
  isOption: Type.Boolean(),
  ...optionContract,
  quantity: Type.Number(),
  price: Type.Number({ description: 'Per share, 4 decimals' }),
  multiplier: Type.Number(),
  amount: Money('Signed cash, + = credit'),
  commission: Money(''),
  fees: Money(''),
  currency: Type.String(),
  tradeDate: Type.String({ description: 'ISO 8601 UTC' }),
  tradeDay: Type.String({ description: 'New York date' }),
  ...adjustedField,
  orderId: Nullable(Type.String()),
  description: Type.String(),
  source: Type.String(),
  importId: Type.Integer(),
  inferred: Type.Boolean(),
  realizedPL: Nullable(Money('Realized P&L this row booked (closing fills, expirations, assignments); null for rows that close nothing')),
});
export type TransactionJson = Static<typeof TransactionSchema>;

export const TransactionsResponse = Type.Object({
  transactions: Type.Array(TransactionSchema),
  accounts: Type.Array(AccountSchema),
  pagination: PaginationSchema,
});
export type TransactionsResponseT = Static<typeof TransactionsResponse>;
