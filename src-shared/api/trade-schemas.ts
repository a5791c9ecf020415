/**
 * The /v1 contract of trades (docs/journal.md §Trades and strategies, §Annotations): GET /journal/trades, GET
 * /journal/stats?groupBy=, GET /journal/trades/{id}, and notes and tags on a trade or a campaign (PUT …/annotation).
 */
import { Type, type Static } from 'typebox';
import { STRATEGIES } from '../journal/strategies';
import { TRADE_GROUPS } from '../journal/trade-stats';
import { STRIKE_VS_LEVELS } from '../journal/trade-metrics';
import { OUTCOMES } from '../journal/trades';
import { PAGE_LIMIT_CAP, PAGE_LIMIT_DEFAULT, TRANSACTION_TYPES } from './constants';
import { AccountIdParam, AccountSchema, IsoDate, Money, Nullable, OneOf, PaginationSchema, Params, TickerParam, TradeIdParam, type Sent } from './schema-kit';
import { LevelsScopeParam, ScopedLevelsFields } from './position-schemas';
import { LEVELS_SCOPES } from './constants';

/** Bounds of a note and its tags (DESIGN §5): enough for a trade plan, small enough to list. */
export const ANNOTATION_LIMITS = { noteChars: 10_000, tags: 20, tagChars: 40 } as const;
/** A tag: printable, not blank (kept trimmed, one space inside, lower case). */
const TAG_PATTERN = '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$';

const AccountParam = AccountIdParam('Only this account (404 UNKNOWN_ACCOUNT when none has this id)');
const TagParam = Type.String({ minLength: 1, maxLength: ANNOTATION_LIMITS.tagChars, description: 'Only trades carrying this tag (any case)' });

export const TradesQuery = Params({
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
  strategy: Type.Optional(OneOf(STRATEGIES)),
  symbol: Type.Optional(TickerParam('Underlying ticker (any case)')),
  accountId: Type.Optional(AccountParam),
  tag: Type.Optional(TagParam),
  from: Type.Optional(IsoDate('Opening day at or after (journal date; trades opened before history: their first close)')),
  to: Type.Optional(IsoDate('Opening day at or before (inclusive)')),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'default 1' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `default ${PAGE_LIMIT_DEFAULT}; values above ${PAGE_LIMIT_CAP} are clamped to ${PAGE_LIMIT_CAP}` })),
  levelsScope: Type.Optional(LevelsScopeParam),
});
export type TradesQueryT = Sent<Static<typeof TradesQuery>>;

/** GET /journal/trades/{id}: the levels at entry in a scope, as the list. */
export const TradeDetailQuery = Params({ levelsScope: Type.Optional(LevelsScopeParam) });
export type TradeDetailQueryT = Static<typeof TradeDetailQuery>;

const LevelsAtEntrySchema = Type.Object(
  {
    gammaZone: Type.Union([Type.Literal('positive'), Type.Literal('negative')]),
    putWall: Nullable(Type.Number()),
    callWall: Nullable(Type.Number()),
    gammaFlip: Nullable(Type.Number()),
    ...ScopedLevelsFields,
    shortStrikeVs: Nullable(OneOf(STRIKE_VS_LEVELS, { description: 'Where the main strike stood: strike < put wall; > call wall; else below or at/above the flip' })),
    shortStrikes: Type.Array(
      Type.Object({
        expiration: Type.String(),
        strike: Type.Number(),
        right: Type.Union([Type.Literal('C'), Type.Literal('P')]),
        place: Nullable(OneOf(STRIKE_VS_LEVELS)),
      }),
      { description: 'Every short option leg of the first structure (a strangle’s put and call), each placed against these levels; by strike, puts first' },
    ),
  },
  {
    description:
      "The dealer levels of the underlying's snapshot at entry (quoted at or before the open, that New York day or the trading day before) in levelsScope: own (default) the main leg's expiration alone; null without a snapshot, or when it does not list that expiration",
  },
);

const TradeLegSchema = Type.Object({
  transactionId: Type.String(),
  type: Type.Enum(TRANSACTION_TYPES),
  symbol: Type.String(),
  tradeDate: Type.String(),
  date: Type.String({ description: 'Journal date' }),
  role: Type.Union([Type.Literal('entry'), Type.Literal('open'), Type.Literal('close')], {
    description: 'entry: the first structure; open: a later opening (a roll’s new leg, the shares an assignment or exercise delivered, a call sold against them); close: a close, expiration, assignment or exercise',
  }),
  quantity: Type.Number({ description: 'Units of the row that belong to this trade' }),
  realizedPL: Nullable(Money('Booked on these units, costs of both legs included; null for openings and for units opened before history')),
});

export const TradeSchema = Type.Object({
  id: Type.String({ description: 'Stable across re-imports and rebuilds: the id of its first opening transaction (before: + the first close’s, opened before history)' }),
  accountId: Type.String(),
  accountName: Type.String(),
  currency: Type.String(),
  underlying: Type.String(),
  strategy: OneOf(STRATEGIES),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  outcome: OneOf(OUTCOMES, {
    description: 'How it ended: assigned or exercised when one of its options was (its shares then stay in the trade until sold or called away), else expired when its options’ last way out was an expiration, else closed; open while any option or share is held',
  }),
  rolled: Type.Boolean({ description: 'Rolled at least once (rolls > 0)' }),
  openedBeforeHistory: Type.Boolean({ description: 'Its closes remove positions the history never opened: P&L unknown, left out of the stats' }),
  openedAt: Nullable(Type.String()),
  closedAt: Nullable(Type.String()),
  daysHeld: Nullable(Type.Integer({ description: 'Calendar days from the opening day to the closing day; null while open' })),
  legs: Type.Array(TradeLegSchema, { description: 'Its rows in the order they were booked: its timeline' }),
  credit: Nullable(Money('Net cash of the first structure at open, costs included (+ credit, − debit)')),
  maxProfit: Nullable(
    Money('Every credit of its structures (rolls and calls sold against its shares included) less every debit paid to roll, at the first structure’s best payoff; null when unbounded, or unknown (opened before history)'),
  ),
  maxLoss: Nullable(
    Money(
      'The largest risk it held less those credits: a short put strike × multiplier × contracts, a covered call the covered shares’ cost, a spread its width; null when unbounded (a naked call, short shares) or unknown (openedBeforeHistory: say unknown, not ∞)',
    ),
  ),
  collateral: Nullable(
    Money(
      'The largest collateral of what it held (docs/journal.md §Collateral, the figure of Campaigns and Positions): spreads at their width, short puts at strike × multiplier × contracts, shares and covered calls at the shares’ cost, long options their cost, naked calls Reg T at the entry spot (the strike without a snapshot); null unknown',
    ),
  ),
  collateralRule: Nullable(Type.String({ description: 'The rule of collateral in words (Reg T with its spot and snapshot, or the strike when none)' })),
  pnl: Nullable(Money('Realized (so far, while open), options and the shares delivered into it, costs included; null opened before history')),
  optionPL: Nullable(
    Money('Realized P&L of its options alone: the broker statement’s view, as /journal/summary’s optionsPL counts an assigned put’s premium; pnl − optionPL is its shares’ P&L. Null opened before history'),
  ),
  unrealizedPL: Nullable(Money('Open trades: its open legs’ share of their positions’ unrealized P&L (marks as /journal/positions); null when closed or without a fresh mark')),
  returnOnCollateral: Nullable(Type.Number({ description: '(pnl + unrealizedPL while open) / collateral' })),
  pctOfMaxProfit: Nullable(Type.Number({ description: '(pnl + unrealizedPL while open) / maxProfit' })),
  dteAtEntry: Nullable(Type.Integer({ description: 'New York days from the open to the nearest leg’s expiration' })),
  deltaAtEntry: Nullable(Type.Number({ description: 'The main leg’s own delta per share at entry (a put’s is negative)' })),
  mainLeg: Nullable(
    Type.Object(
      {
        symbol: Type.String(),
        expiration: Type.String(),
        strike: Type.Number(),
        right: Type.Union([Type.Literal('C'), Type.Literal('P')]),
        side: Type.Union([Type.Literal('short'), Type.Literal('long')]),
        contracts: Type.Number(),
      },
      { description: 'The option the entry figures describe: the short with the most contracts (then the nearest expiration, the richer premium, puts first); without a short, the long by the same rule' },
    ),
  ),
  entrySnapshot: Nullable(Type.Object({ quoteTime: Type.String(), spot: Type.Number() }, { description: 'The snapshot the entry figures come from' })),
  levelsAtEntry: Nullable(LevelsAtEntrySchema),
  rolls: Type.Integer(),
  campaignId: Nullable(Type.String({ description: 'The campaign (GET /journal/chains/{id}) holding its first transaction' })),
  note: Type.String(),
  tags: Type.Array(Type.String()),
});
export type TradeJson = Static<typeof TradeSchema>;

const LevelsScopeEcho = OneOf(LEVELS_SCOPES, { description: 'The levelsScope asked for (default own); each trade’s levelsAtEntry says its scope and expirations' });

export const TradesResponse = Type.Object({
  currency: Type.String({ description: 'The reporting currency (each trade says its own)' }),
  levelsScope: LevelsScopeEcho,
  trades: Type.Array(TradeSchema, { description: 'Newest opened first' }),
  pagination: PaginationSchema,
  accounts: Type.Array(AccountSchema),
  demo: Type.Boolean(),
});
export type TradesResponseT = Static<typeof TradesResponse>;

export const TradeParams = Params({ id: TradeIdParam('The stable id /journal/trades lists (any case)') });

const TimelineEntrySchema = Type.Object({
  transactionId: Type.String(),
  tradeDate: Type.String({ description: 'The instant of the row (ISO 8601 UTC)' }),
  date: Type.String({ description: 'Journal date' }),
  type: Type.Enum(TRANSACTION_TYPES),
  side: Nullable(Type.Union([Type.Literal('buy'), Type.Literal('sell')], { description: 'null for an expiration, assignment or exercise' })),
  symbol: Type.String(),
  expiration: Nullable(Type.String()),
  strike: Nullable(Type.Number()),
  right: Nullable(Type.Union([Type.Literal('C'), Type.Literal('P')])),
  role: Type.Union([Type.Literal('entry'), Type.Literal('open'), Type.Literal('close')], { description: 'As in the legs of /journal/trades' }),
  roll: Type.Integer({ minimum: 0, description: 'The structure it belongs to: 0 the first, n the n-th rolled into the trade or sold against its shares (in the order they opened)' }),
  quantity: Type.Number({ description: 'Units of the row that belong to this trade' }),
  rowQuantity: Nullable(Type.Number({ description: 'Units of the whole row (more than quantity when the row is shared with another trade)' })),
  price: Nullable(Type.Number({ description: 'Per share, as the row reads (4 decimals)' })),
  inferred: Type.Boolean({ description: 'An expiration the journal inferred (docs/journal.md), not a row of a file' }),
  costs: Money('Commission and fees of these units, prorated when the row is shared'),
  cash: Money('These units as booked, costs included (+ received, − paid); a closed trade’s cash adds up to its pnl'),
  realizedPL: Nullable(Money('As in the legs of /journal/trades')),
  runningRealizedPL: Nullable(Money('The trade’s realized P&L after this row (ends at pnl); null opened before history')),
});

export const TradeDetailResponse = Type.Object({
  currency: Type.String({ description: 'The reporting currency (the trade says its own)' }),
  levelsScope: LevelsScopeEcho,
  trade: TradeSchema,
  timeline: Type.Array(TimelineEntrySchema, { description: 'Each row of the trade, in the order the ledger booked them' }),
  accounts: Type.Array(AccountSchema),
  demo: Type.Boolean(),
});
export type TradeDetailResponseT = Static<typeof TradeDetailResponse>;
export type TimelineEntryJson = TradeDetailResponseT['timeline'][number];

export const StatsQuery = Params({
  groupBy: Type.Optional(OneOf(TRADE_GROUPS, { description: 'default strategy' })),
  from: Type.Optional(IsoDate('Closing day at or after (journal date)')),
  to: Type.Optional(IsoDate('Closing day at or before (inclusive)')),
  accountId: Type.Optional(AccountParam),
});
export type StatsQueryT = Sent<Static<typeof StatsQuery>>;

export const StatsRowSchema = Type.Object({
  key: Nullable(Type.String({ description: 'The group (a strategy, a bucket, a month YYYY-MM, a tag); null: untagged trades' })),
  trades: Type.Integer(),
  wins: Type.Integer({ description: 'pnl > 0' }),
  losses: Type.Integer({ description: 'pnl ≤ 0 (break-even counts as a loss)' }),
  winRate: Type.Number({ description: 'wins / trades, 0..1' }),
  pnl: Money(''),
  avgPnl: Money(''),
  avgWin: Nullable(Money('')),
  avgLoss: Nullable(Money('')),
  profitFactor: Nullable(Type.Number({ description: 'Σ wins / |Σ losses|; null when no trade lost money' })),
  avgDaysHeld: Nullable(Type.Number()),
  avgReturnOnCollateral: Nullable(Type.Number()),
  avgPctOfMaxProfit: Nullable(Type.Number()),
  largestLoss: Nullable(Money('The most negative pnl')),
});
export type StatsRowJson = Static<typeof StatsRowSchema>;

export const StatsResponse = Type.Object({
  currency: Type.String({ description: 'Closed trades of this (the reporting) currency only: money never mixes' }),
  groupBy: OneOf(TRADE_GROUPS),
  rows: Type.Array(StatsRowSchema, { description: 'Buckets in their order, others by key; only groups with trades' }),
  accounts: Type.Array(AccountSchema),
  demo: Type.Boolean(),
});
export type StatsResponseT = Static<typeof StatsResponse>;

export const AnnotationParams = Params({ id: Type.String({ minLength: 1, maxLength: 200 }) });

export const AnnotationBody = Type.Object(
  {
    note: Type.String({ maxLength: ANNOTATION_LIMITS.noteChars, description: `At most ${ANNOTATION_LIMITS.noteChars.toLocaleString('en-US')} characters; empty (with no tags) removes the annotation` }),
    tags: Type.Array(Type.String({ minLength: 1, maxLength: ANNOTATION_LIMITS.tagChars, pattern: TAG_PATTERN }), {
      maxItems: ANNOTATION_LIMITS.tags,
      description: `At most ${ANNOTATION_LIMITS.tags} tags of 1–${ANNOTATION_LIMITS.tagChars} characters; kept lower case, duplicates once`,
    }),
  },
  { additionalProperties: false },
);
export type AnnotationBodyT = Static<typeof AnnotationBody>;

export const AnnotationResponse = Type.Object({
  kind: Type.Union([Type.Literal('trade'), Type.Literal('campaign')]),
  id: Type.String(),
  note: Type.String(),
  tags: Type.Array(Type.String()),
  updatedAt: Nullable(Type.String({ description: 'null once removed' })),
});
export type AnnotationResponseT = Static<typeof AnnotationResponse>;
