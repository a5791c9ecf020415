/** The /v1 positions and campaigns contract (docs/journal.md §Positions, §Campaigns), and the levels scope positions and trades share. */
import { Type, type Static } from 'typebox';
import { LEVELS_SCOPES, TRANSACTION_TYPES } from './constants';
import { AccountParam, adjustedField, optionContract } from './journal-fields';
import { TransactionsQuery } from './journal-schemas';
import { ReconciliationRowSchema } from './reconciliation-schemas';
import { AccountSchema, DATETIME_PATTERN, Money, Nullable, OneOf, PaginationSchema, Params, TickerParam, type Sent } from './schema-kit';

/** `levelsScope` of /journal/positions and /journal/trades (docs/journal.md §Levels scope). */
export const LevelsScopeParam = OneOf(LEVELS_SCOPES, {
  description: 'The dealer levels held against: own (default) the position’s own expiration alone (a trade’s main leg’s); nearest the /gex default (3 nearest expirations); book every expiration within 0–45 DTE',
});

/** What scoped levels add: their scope (as used: shares take nearest for own) and the expirations it took. */
export const ScopedLevelsFields = {
  scope: OneOf(LEVELS_SCOPES, { description: 'The scope these levels are of (own for an option; shares have no expiration: nearest)' }),
  expirations: Type.Array(Type.String(), { description: 'The expirations the levels were computed on, ascending (/gex?expirations= gives the same levels)' }),
};

const AsOfParam = Type.String({ pattern: DATETIME_PATTERN, description: 'The instant (ISO 8601; without an offset read in the journal zone; a date = the end of that day); default now' });

export const PositionsQuery = Params({
  asOf: Type.Optional(AsOfParam),
  accountId: Type.Optional(AccountParam),
  symbol: Type.Optional(TickerParam('Underlying ticker (an option root finds its chain’s: SPXW the SPX positions)')),
  levelsScope: Type.Optional(LevelsScopeParam),
});
export type PositionsQueryT = Sent<Static<typeof PositionsQuery>>;

const LevelsSchema = Type.Object(
  {
    callWall: Nullable(Type.Number()),
    putWall: Nullable(Type.Number()),
    gammaFlip: Nullable(Type.Number()),
    gammaZone: Type.Union([Type.Literal('positive'), Type.Literal('negative')]),
    ...ScopedLevelsFields,
  },
  { description: 'The dealer levels of the mark’s snapshot in levelsScope (walls as strikes); null without a fresh snapshot, or when it does not list the position’s expiration (own)' },
);

const PositionSchema = Type.Object({
  accountId: Type.String(),
  accountName: Type.String(),
  chainId: Nullable(Type.String()),
  currency: Type.String(),
  symbol: Type.String(),
  underlying: Type.String(),
  isOption: Type.Boolean(),
  ...optionContract,
  ...adjustedField,
  quantity: Type.Number({ description: 'Signed: + long, − short' }),
  multiplier: Type.Number(),
  deliverable: Type.Optional(
    Type.Object(
      {
        root: Type.String({ description: 'The adjusted root it trades under (AMD1); a chain marks it only where it lists that root' }),
        shares: Nullable(Type.Array(Type.Object({ symbol: Type.String(), quantity: Type.Number() }), { description: 'Shares delivered per contract, by symbol; null when the file named the adjusted contract without its terms' })),
        cash: Money('Cash delivered per contract'),
      },
      { description: 'An option a corporate action adjusted (docs/journal.md §Corporate actions): what one contract delivers' },
    ),
  ),
  averagePrice: Type.Number({ description: 'Entry value per share of the open lots, before costs' }),
  costBasis: Money('Net cash paid to open what is still open, costs included; negative for a short'),
  collateral: Money(
    'Its part of its campaign’s collateral at asOf (docs/journal.md §Collateral, the figure of Trades and Campaigns): shares at cost, a spread’s width on its short leg, a short put’s strike × multiplier × contracts, a long option’s cost, naked calls Reg T; 0 for what another position covers',
  ),
  openedAt: Type.String({ description: 'Journal date of the oldest open lot' }),
  dte: Nullable(Type.Integer()),
  mark: Nullable(
    Type.Object(
      {
        price: Type.Number(),
        source: Type.Union([Type.Literal('mid'), Type.Literal('spot')]),
        quoteTime: Type.String(),
        snapshotId: Type.Integer(),
        ageDays: Type.Integer({ description: 'New York trading days after the quote day up to the asOf day (0: quoted that day)' }),
        stale: Type.Boolean({ description: 'ageDays > markMaxAgeDays: shown, but left out of marketValue, unrealizedPL, the greeks and every total' }),
      },
      { description: 'From the newest snapshot of the underlying at or before asOf; null when none has the contract' },
    ),
  ),
  marketValue: Nullable(Money('quantity × mark × multiplier; null without a usable (fresh) mark')),
  unrealizedPL: Nullable(Money('marketValue − costBasis; null without a usable (fresh) mark')),
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
  alerts: Type.Optional(
    Type.Array(
      Type.Object({
        kind: Type.String({ description: 'position_crossed | position_within' }),
        message: Type.String(),
        eventId: Type.String(),
        timestamp: Type.String(),
      }),
      { description: 'Recent position events of this short option (issue 18): a dealer level crossed or came near its strike' },
    ),
  ),
});
export type PositionJson = Static<typeof PositionSchema>;

const PositionTotalsFields = {
  costBasis: Money(''),
  collateral: Money('Σ of the positions’ collateral'),
  marketValue: Money('Of the positions with a fresh mark'),
  unrealizedPL: Money('Of the positions with a fresh mark'),
  unmarked: Type.Integer({ description: 'Positions left out of marketValue and unrealizedPL: unmarkedCount + staleCount' }),
  unmarkedCount: Type.Integer({ description: 'Positions without any mark' }),
  staleCount: Type.Integer({ description: 'Positions whose mark is older than markMaxAgeDays trading days' }),
};

/** docs/journal.md §Positions, "Needs attention". */
const NeedsAttentionSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('opened_before_history'), Type.Literal('expiry_unknown'), Type.Literal('in_the_money'), Type.Literal('other_rows'), Type.Literal('reconciliation')], {
      description:
        'opened_before_history: closes, sales or settlements removed more than was open (an opening position is missing: enter it as a manual opening dated at or before firstDate); expiry_unknown: an option past its expiration with no closing row and no snapshot of the underlying within one New York trading day of the expiry instant, before or after it (POST /journal/expirations books it expired); in_the_money: such a snapshot shows it in the money (assignment or exercise likely: import the broker\'s row); other_rows: rows kept as OTHER that move cash in the account and currency (quantity counts them, cash sums them, firstTradeDate is the first): their cash counts in no P&L figure; reconciliation: a figure an imported file states about itself (or a balance assertion the import broke) that the journal does not agree with, until fixed, undone or acknowledged (POST /imports/{id}/acknowledge)',
    }),
    reason: Type.Union([Type.Literal('opened-before-history'), Type.Literal('no-snapshot-after-expiry'), Type.Literal('in-the-money'), Type.Literal('other-rows'), Type.Literal('differs-from-broker')], { description: 'The kind as before 2026-11-26 (kept for older clients)' }),
    accountId: Type.String(),
    accountName: Type.String(),
    currency: Type.String(),
    symbol: Type.String(),
    underlying: Type.String(),
    isOption: Type.Boolean(),
    ...optionContract,
    multiplier: Type.Number(),
    quantity: Type.Number({ description: 'Signed: + long, − short. opened_before_history: the missing opening position (the units removed beyond what was open); the others: the open position' }),
    sideKnown: Type.Boolean({ description: 'opened_before_history: false when no row says the side (an expiration of an option never opened in the history; taken as short)' }),
    firstDate: Nullable(Type.String({ description: 'opened_before_history: New York date of the first unmatched close (an opening dated on or before it matches it)' })),
    firstTradeDate: Nullable(Type.String({ description: 'opened_before_history: the instant of the first unmatched close' })),
    closes: Type.Integer({ description: 'opened_before_history: rows with an unmatched part; 0 for the others' }),
    closedBy: Type.Optional(Type.Array(Type.String(), { description: 'opened_before_history: the types of those rows (ASSIGNMENT, BUY_TO_CLOSE, …), first seen first' })),
    spot: Nullable(Type.Number({ description: 'in_the_money: the snapshot that shows it' })),
    quoteTime: Nullable(Type.String()),
    lastSnapshot: Nullable(
      Type.Object(
        { spot: Type.Number(), quoteTime: Type.String(), outOfTheMoney: Type.Boolean() },
        { description: "expiry_unknown: the last snapshot of the underlying quoted at or before the expiry, and whether the option was out of the money then (no evidence of the expiry: what the Positions page's bulk \"Expired worthless\" reads); null otherwise" },
      ),
    ),
    cash: Type.Optional(Money('other_rows: the cash the rows carry (+ received)')),
    reconciliation: Type.Optional(Type.Object({ importId: Type.Integer(), ...ReconciliationRowSchema.properties }, { description: 'reconciliation: the import and its figure' })),
  },
  { description: 'What the book cannot decide alone; listed here and nowhere else (no position row)' },
);

export const PositionsResponse = Type.Object({
  asOf: Type.String(),
  currency: Type.String({ description: 'Totals are in this (the reporting) currency' }),
  levelsScope: OneOf(LEVELS_SCOPES, { description: 'The levelsScope asked for (default own); each position’s levels say the scope they are of' }),
  positions: Type.Array(PositionSchema),
  totals: Type.Object({
    ...PositionTotalsFields,
    byAccount: Type.Array(Type.Object({ accountId: Type.String(), accountName: Type.String(), ...PositionTotalsFields })),
  }),
  marksAsOf: Type.Array(Type.Object({ symbol: Type.String(), snapshotId: Type.Integer(), quoteTime: Type.String(), spot: Type.Number(), ageDays: Type.Integer(), stale: Type.Boolean() })),
  needsAttention: Type.Array(NeedsAttentionSchema),
  inferredExpirations: Type.Array(Type.Object({ accountId: Type.String(), accountName: Type.String(), symbol: Type.String(), quantity: Type.Number(), tradeDate: Type.String(), spot: Type.Number(), quoteTime: Type.String() })),
  accounts: Type.Array(AccountSchema),
  demo: Type.Boolean(),
});
export type PositionsResponseT = Static<typeof PositionsResponse>;

export const CampaignsQuery = Params({
  asOf: Type.Optional(AsOfParam),
  accountId: Type.Optional(AccountParam),
  symbol: Type.Optional(TickerParam('Underlying ticker')),
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
  // A campaign lists every leg's id: a 100k-transaction journal's campaigns are megabytes, so they come a page at a time.
  page: TransactionsQuery.properties.page,
  limit: TransactionsQuery.properties.limit,
});
export type CampaignsQueryT = Sent<Static<typeof CampaignsQuery>>;

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
  commissions: Money('Commission + fees charged on its fills and settlements (the part opened in the history), a positive cost inside realizedPL'),
  pnl: Money('realizedPL + dividends − fees'),
  unrealizedPL: Nullable(Money('Open chains: Σ unrealized of their open positions; null when one has no fresh mark (none, or older than markMaxAgeDays)')),
  sharesHeld: Type.Number(),
  adjustedCostBasis: Nullable(Type.Number({ description: 'Per share: (cost of the shares held − net option cash) / shares' })),
  collateralPeak: Money(
    'Largest collateral at a close: cost of shares held + strike × multiplier × contracts of open short puts; with naked calls, Reg T of the uncovered short options at the spot at entry (docs/journal.md §Campaigns)',
  ),
  collateralRule: Type.String({ description: 'The rule of collateralPeak in words, with the spot and its snapshot for Reg T (or that no snapshot was found and the strike was used)' }),
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
  chains: Type.Array(CampaignSchema, { description: 'Newest opened first, a page of them' }),
  pagination: PaginationSchema,
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
