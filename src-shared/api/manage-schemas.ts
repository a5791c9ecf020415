/**
 * The /v1 contract of the morning routine (DESIGN §5 "Management rules and rolls", docs/journal.md §Managing open
 * trades, §Rolls): the setting `manageRules`, GET /journal/manage and GET /journal/trades/{id}/rolls.
 */
import { Type, type Static } from 'typebox';
import { MANAGE_RULES } from '../journal/manage';
import { ROLL_DEFAULTS, ROLL_LIMITS } from '../journal/roll-candidates';
import { STRIKE_VS_LEVELS } from '../journal/trade-metrics';
import { STRATEGIES } from '../journal/strategies';
import { AccountIdParam, AccountSchema, DATETIME_PATTERN, IsoDate, Money, Nullable, OneOf, Params, SYMBOL_PATTERN, type Sent, Building } from './schema-kit';


/** At most this many upcoming dividends are kept (one a quarter for a book of fifty names). */
export const MAX_UPCOMING_DIVIDENDS = 200;

export const UpcomingDividendSchema = Type.Object(
  {
    symbol: Type.String({ pattern: SYMBOL_PATTERN, description: 'The underlying (any case)' }),
    exDate: IsoDate('The ex-dividend date'),
    amount: Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'Per share, in the underlying’s currency' }),
  },
  { additionalProperties: false },
);

export const ManageRulesSchema = Type.Object(
  {
    profitTargetPct: Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'Take profit at this % of the max profit captured (default 50); null: off' })),
    manageAtDte: Nullable(Type.Integer({ minimum: 0, maximum: 3650, description: 'Manage (close or roll) at this many days to the nearest short expiration (default 21); null: off' })),
    lossStopMultiple: Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 100, description: 'Stop at a loss of this many times the credit (default 2); null: off' })),
    itmWithinDays: Nullable(Type.Integer({ minimum: 0, maximum: 3650, description: 'A short option in the money within this many days of expiry (default 7); null: off' })),
    dividendRisk: Type.Boolean({ description: 'A short call in the money whose extrinsic value is below an upcoming dividend (upcomingDividends) going ex before its expiration (default on)' }),
    levelAlerts: Type.Boolean({ description: 'The position alerts: a dealer level crossed or came near a short strike (default on)' }),
    upcomingDividends: Type.Array(UpcomingDividendSchema, {
      maxItems: MAX_UPCOMING_DIVIDENDS,
      description: 'Dividends the dividend rule reads, entered by hand: symbol, ex-date, amount per share (past ex-dates are ignored)',
    }),
  },
  { additionalProperties: false, description: 'The management rules of GET /journal/manage; the whole object is written at once' },
);
export type ManageRulesJson = Static<typeof ManageRulesSchema>;

// ---------------------------------------------------------------- GET /journal/manage

export const ManageQuery = Params({
  asOf: Type.Optional(Type.String({ pattern: DATETIME_PATTERN, description: 'The instant (ISO 8601; without an offset read in the journal zone; a date = the end of that day); default now' })),
  accountId: Type.Optional(AccountIdParam('Only this account (404 UNKNOWN_ACCOUNT when none has this id)')),
});
export type ManageQueryT = Sent<Static<typeof ManageQuery>>;

const MarkSchema = Type.Object(
  {
    price: Type.Number({ description: 'Per share: an option’s bid/ask mid, shares’ spot' }),
    asOf: Type.String({ description: 'The quote time of the snapshot it comes from' }),
    snapshotId: Type.Integer(),
    ageDays: Type.Integer({ description: 'New York trading days after the quote day up to asOf' }),
    stale: Type.Boolean({ description: 'Always false on an item: a stale mark fires no rule (the trade is listed under stale)' }),
  },
  { description: 'The mark of the leg the most urgent rule is about (else the nearest short option)' },
);

const RuleHitSchema = Type.Object({
  rule: OneOf(MANAGE_RULES, {
    description:
      'itm_near_expiry: a short option in the money within itmWithinDays of expiry; loss_stop: a loss ≥ lossStopMultiple × the credit; dividend: a short call in the money whose extrinsic value is below an upcoming dividend; level: a position alert (a dealer level crossed or came near a short strike); dte: the nearest short expiration within manageAtDte days; profit_target: ≥ profitTargetPct % of the max profit captured',
  }),
  value: Type.Number({ description: 'The figure read: % captured (profit_target), × the credit lost (loss_stop), days to expiry (dte, itm_near_expiry), extrinsic per share (dividend), the level’s gap to the strike in % (level)' }),
  threshold: Type.Number({ description: 'The rule’s threshold in the same unit (the dividend per share; the alert distance in %)' }),
  message: Type.String({ description: 'The rule and its figures in words' }),
  leg: Nullable(Type.String({ description: 'The OCC symbol of the leg it is about; null for the whole trade (profit, loss)' })),
});

const ManageLegSchema = Type.Object({
  symbol: Type.String(),
  isOption: Type.Boolean(),
  expiration: Nullable(Type.String()),
  strike: Nullable(Type.Number()),
  right: Nullable(Type.Union([Type.Literal('C'), Type.Literal('P')])),
  quantity: Type.Number({ description: 'The trade’s own units, signed: − short' }),
  multiplier: Type.Number(),
  dte: Nullable(Type.Integer()),
  mark: Type.Number({ description: 'Per share (fresh)' }),
  delta: Nullable(Type.Number({ description: 'Per share, the option’s own (a put’s negative)' })),
  intrinsic: Nullable(Type.Number({ description: 'Per share at the snapshot’s spot' })),
  extrinsic: Nullable(Type.Number({ description: 'Per share: mark − intrinsic' })),
  distancePct: Nullable(Type.Number({ description: 'How far the strike is out of the money, in % of spot (negative: in the money)' })),
});

const TradeRefFields = {
  tradeId: Type.String({ description: 'GET /journal/trades/{id}; its rolls at /journal/trades/{id}/rolls' }),
  accountId: Type.String(),
  accountName: Type.String(),
  symbol: Type.String({ description: 'The underlying' }),
  strategy: OneOf(STRATEGIES),
  currency: Type.String(),
};

export const ManageItemSchema = Type.Object({
  ...TradeRefFields,
  rules: Type.Array(RuleHitSchema, { description: 'The rules it hits, most urgent first' }),
  mark: Nullable(MarkSchema),
  spot: Type.Number({ description: 'The spot of the snapshot marking it' }),
  pnl: Money('Realized so far + unrealized of its open legs'),
  unrealizedPL: Money('Of its open legs, at the marks'),
  maxProfit: Nullable(Money('The credit the profit target and the loss stop read: every credit of the trade less what its rolls paid; null for a debit trade')),
  pctOfMaxProfit: Nullable(Type.Number({ description: 'pnl / maxProfit (0.5 = 50 %)' })),
  legs: Type.Array(ManageLegSchema, { description: 'Its open legs with their figures' }),
});
export type ManageItemJson = Static<typeof ManageItemSchema>;

export const ManageStaleSchema = Type.Object({
  ...TradeRefFields,
  leg: Type.String({ description: 'The first open leg without a fresh mark' }),
  reason: Type.Union([Type.Literal('stale'), Type.Literal('unmarked')], { description: 'stale: the newest snapshot is older than markMaxAgeDays; unmarked: no snapshot, or none listing the contract' }),
  quoteTime: Nullable(Type.String({ description: 'The newest snapshot of the underlying at or before asOf' })),
  ageDays: Nullable(Type.Integer()),
});
export type ManageStaleJson = Static<typeof ManageStaleSchema>;

export const ManageResponse = Type.Object({
  asOf: Type.String(),
  currency: Type.String({ description: 'The reporting currency (each item says its own)' }),
  rules: ManageRulesSchema,
  open: Type.Integer({ description: 'Open trades held to the rules (items + stale + those hitting none)' }),
  items: Type.Array(ManageItemSchema, { description: 'Open trades with a fresh mark that hit a rule, most urgent first: by their first rule (ITM near expiry, loss stop, dividend, level, DTE, profit), then the nearest expiration' }),
  stale: Type.Array(ManageStaleSchema, { description: 'Open trades with a stale or missing mark: no rule is read on them' }),
  accounts: Type.Array(AccountSchema),
  demo: Type.Boolean(),
  building: Building,
});
export type ManageResponseT = Static<typeof ManageResponse>;

// ---------------------------------------------------------------- GET /journal/trades/{id}/rolls

export const RollsQuery = Params({
  snapshot: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A stored snapshot of the trade’s underlying (GET /v1/snapshots); default the newest now' })),
  maxDte: Type.Optional(Type.Integer({ minimum: 0, maximum: ROLL_LIMITS.maxDte, description: `Candidate expirations within this many days of the snapshot (default ${ROLL_DEFAULTS.maxDte})` })),
  expirations: Type.Optional(Type.Integer({ minimum: 1, maximum: ROLL_LIMITS.expirations, description: `The next expirations after the leg’s (default ${ROLL_DEFAULTS.expirations})` })),
  strikes: Type.Optional(Type.Integer({ minimum: 0, maximum: ROLL_LIMITS.strikes, description: `Listed strikes further out of the money beside the same strike (default ${ROLL_DEFAULTS.strikes})` })),
  minNet: Type.Optional(Type.Number({ minimum: -100_000, maximum: 100_000, description: 'Only candidates whose net (per share, + credit) is at least this: 0 for a net credit' })),
  net: Type.Optional(Type.Union([Type.Literal('mid'), Type.Literal('natural')], { description: 'Which net minNet reads (default mid)' })),
  maxDelta: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Only candidates whose |delta| is at most this' })),
  beyondWall: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: only strikes beyond their expiration’s wall (a put below the put wall, a call above the call wall)' })),
});
export type RollsQueryT = Static<typeof RollsQuery>;

const Place = Nullable(OneOf(STRIKE_VS_LEVELS, { description: 'The strike against its expiration’s levels: below the put wall, put wall to flip, flip to call wall, above the call wall' }));

const RollCandidateSchema = Type.Object({
  expiration: Type.String(),
  symbol: Type.String({ description: 'The new contract (OCC)' }),
  strike: Type.Number(),
  dte: Type.Integer({ description: 'New York days from the snapshot’s quote to the expiration' }),
  bid: Type.Number(),
  ask: Type.Number(),
  openMid: Type.Number({ description: 'Selling it at mid, per share' }),
  openNatural: Type.Number({ description: 'Selling it at the bid, per share' }),
  netMid: Nullable(Type.Number({ description: 'openMid − closeMid, per share (+ credit); null when the leg has no quote' })),
  netNatural: Nullable(Type.Number({ description: 'openNatural − closeNatural (bid of the new − ask of the old), per share' })),
  delta: Nullable(Type.Number({ description: 'The new contract’s own delta per share (a put’s negative), from the snapshot’s IV' })),
  probOTM: Nullable(Type.Number({ description: '1 − |delta|' })),
  iv: Type.Number(),
  openInterest: Type.Number(),
  collateral: Nullable(Money('The trade’s collateral after the roll')),
  returnOnCollateral: Nullable(Type.Number({ description: 'netMid × multiplier × contracts / collateral' })),
  annualized: Nullable(Type.Number({ description: 'returnOnCollateral × 365 / dte' })),
  place: Place,
});
export type RollCandidateJson = Static<typeof RollCandidateSchema>;

const RollLegSchema = Type.Object({
  leg: Type.Object({
    symbol: Type.String(),
    expiration: Type.String(),
    strike: Type.Number(),
    right: Type.Union([Type.Literal('C'), Type.Literal('P')]),
    contracts: Type.Number({ description: 'Short (unsigned), the trade’s own' }),
    multiplier: Type.Number(),
    dte: Type.Integer({ description: 'Days from the snapshot’s quote to its expiration' }),
  }),
  root: Nullable(Type.String({ description: 'The root the candidates are of (the leg’s product)' })),
  closeBid: Nullable(Type.Number()),
  closeAsk: Nullable(Type.Number()),
  closeMid: Nullable(Type.Number({ description: 'Buying the leg back at mid, per share; null without a two-sided quote' })),
  closeNatural: Nullable(Type.Number({ description: 'Buying it back at the ask, per share' })),
  expirations: Type.Array(
    Type.Object({
      expiration: Type.String(),
      dte: Type.Integer(),
      putWall: Nullable(Type.Number()),
      callWall: Nullable(Type.Number()),
      gammaFlip: Nullable(Type.Number()),
      gammaZone: Nullable(Type.Union([Type.Literal('positive'), Type.Literal('negative')])),
    }),
    { description: 'The candidate expirations looked at, each with its own levels (= /gex?expirations=<date> of the snapshot)' },
  ),
  considered: Type.Integer({ description: 'Candidates priced before the filters' }),
  candidates: Type.Array(RollCandidateSchema, { description: 'By expiration, then from the leg’s strike outward' }),
});
export type RollLegJson = Static<typeof RollLegSchema>;

export const RollsResponse = Type.Object({
  tradeId: Type.String(),
  symbol: Type.String({ description: 'The underlying' }),
  currency: Type.String(),
  snapshot: Type.Object({ id: Type.Integer(), quoteTime: Type.String(), spot: Type.Number(), ageDays: Type.Integer() }),
  filters: Type.Object({
    maxDte: Type.Integer(),
    expirations: Type.Integer(),
    strikes: Type.Integer(),
    minNet: Nullable(Type.Number()),
    net: Type.Union([Type.Literal('mid'), Type.Literal('natural')]),
    maxDelta: Nullable(Type.Number()),
    beyondWall: Type.Boolean(),
  }),
  legs: Type.Array(RollLegSchema, { description: 'Each short option the trade holds open, nearest expiration first' }),
});
export type RollsResponseT = Static<typeof RollsResponse>;
