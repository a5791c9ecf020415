/** The /v1 exposure contract: /gex, /vanna, /expirations, exposure over time, snapshots, chains (docs/exposure.md); the events' in event-schemas.ts. */
import { Type, type Static } from 'typebox';
import type { SnapshotId } from '../ids';
import { CHAIN_FORMATS, EXPIRATIONS_COUNT_CAP, FORMULAS, SNAPSHOT_SOURCES } from './constants';
import { EventReportSchema } from './event-schemas';
import { Nullable, Params, OneOf, DATETIME_PATTERN, EXPIRATIONS_PATTERN, IsoDate, TickerParam, type Sent } from './schema-kit';

// ---------------------------------------------------------------- exposure

const SymbolParam = TickerParam('Ticker, e.g. SPX (any case: read upper-cased)');

/** `snapshot=` / `at=` of /gex, /vanna, /expirations and /gex/profile: which stored snapshot (default the newest). */
const snapshotSelector = {
  snapshot: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A stored snapshot of the symbol (id from /v1/snapshots)' })),
  at: Type.Optional(Type.String({ pattern: DATETIME_PATTERN, description: 'The newest snapshot quoted at or before this instant (ISO 8601; no offset: New York time; a date: the end of that day)' })),
};

/** The scope of /gex (also /gex/profile, /gex/history, /gex/diff). */
const gexScope = {
  expirations: Type.Optional(Type.String({ pattern: EXPIRATIONS_PATTERN, description: 'Comma-separated YYYY-MM-DD' })),
  expirationsCount: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: `Nearest N expirations; default 3 (with minDte/maxDte: default all in the range); values above ${EXPIRATIONS_COUNT_CAP} are clamped to ${EXPIRATIONS_COUNT_CAP}; not with expirations`,
    }),
  ),
  minDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650, description: 'Every expiration with dte ≥ minDte (minDte=1: all but 0DTE); not with expirations' })),
  maxDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650, description: 'Every expiration with dte ≤ maxDte (maxDte=0: 0DTE alone); not with expirations' })),
  formula: Type.Optional(Type.Enum(FORMULAS, { description: 'default nominal' })),
};

export const GexQuery = Params({
  symbol: SymbolParam,
  ...gexScope,
  ...snapshotSelector,
});
export type GexQueryT = Sent<Static<typeof GexQuery>>;

const Level = Nullable(Type.Object({ strike: Type.Number(), gex: Type.Number() }));
const ExcludedContractsCount = Type.Integer({
  description: 'Unexpired contracts of the snapshot left out of every figure because their root is adjusted (ends in a digit, e.g. AMD1: a non-standard deliverable)',
});
export const SnapshotSource = OneOf(SNAPSHOT_SOURCES);
/** The levels of a GEX answer (docs/exposure.md §GEX levels): /gex and each /gex/history point. */
const gexLevels = {
  totalGEX: Type.Number(),
  gammaZone: Type.Union([Type.Literal('positive'), Type.Literal('negative')]),
  gammaInflection: Nullable(Type.Number()),
  callWall: Level,
  putWall: Level,
};

/** How often the gamma profile changes sign on [0.8S, 1.2S], and where (/gex and /gex/profile). */
const flipQuality = {
  flipStatus: Type.Union([Type.Literal('ok'), Type.Literal('multiple'), Type.Literal('none')], {
    description: 'ok: one sign change of the gamma profile on [0.8S, 1.2S]; multiple: several (gammaInflection is the root nearest spot); none',
  }),
  flipRoots: Type.Array(Type.Number(), { description: 'Every root of the gamma profile on [0.8S, 1.2S], ascending' }),
};

export const GexResponse = Type.Object({
  symbol: Type.String(),
  stockPrice: Type.Number(),
  ...gexLevels,
  ...flipQuality,
  totalDEX: Type.Number({ description: 'Σ Δ·OI·m over the scope: shares of delta held by the open interest (the dealers’ hedge is its opposite); not scaled by formula' }),
  totalDEXNotional: Type.Number({ description: 'totalDEX × spot, in $' }),
  data: Type.Array(
    Type.Object({
      strike: Type.Number(),
      callGEX: Type.Number(),
      putGEX: Type.Number(),
      netGEX: Type.Number(),
      callOI: Type.Number(),
      putOI: Type.Number(),
      callVolume: Nullable(Type.Number({ description: 'Σ volume of the calls at the strike in scope (contracts); null when the snapshot has no volume' })),
      putVolume: Nullable(Type.Number({ description: 'Σ volume of the puts at the strike in scope (contracts); null when the snapshot has no volume' })),
      callDEX: Type.Number({ description: 'Σ Δ·OI·m of the calls at the strike (shares)' }),
      putDEX: Type.Number({ description: 'Σ Δ·OI·m of the puts at the strike (shares, ≤ 0)' }),
      netDEX: Type.Number(),
    }),
  ),
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
  emptyScope: Nullable(
    Type.String({
      description: 'Why the scope holds no contract (every expiration in it has expired at the quote time, e.g. 0DTE after the close): gammaZone, the flip and the walls then mean nothing. Null when it holds contracts',
    }),
  ),
  asOf: Type.String(),
});
export type GexResponseT = Static<typeof GexResponse>;

export const VannaQuery = Params({ symbol: SymbolParam, expiration: Type.Optional(IsoDate('Pins one expiration; default: the 0–45 dte aggregate')), ...snapshotSelector });
export type VannaQueryT = Sent<Static<typeof VannaQuery>>;

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
      atmStrike: Nullable(Type.Number({ description: 'The listed strike nearest the forward with both a call and a put (ties: the lower)' })),
      atmIV: Nullable(Type.Number({ description: 'Mean IV (decimal) of the ATM call and put, of those with a usable IV' })),
      straddle: Nullable(Type.Number({ description: 'ATM call mid + put mid, per share' })),
      expectedMove: Nullable(Type.Number({ description: 'The straddle: the move to expiry the market prices, per share' })),
      expectedMovePct: Nullable(Type.Number({ description: 'expectedMove ÷ spot (0.012 = 1.2%)' })),
      maxPain: Nullable(Type.Number({ description: 'The listed strike where Σ OI·m·intrinsic value at expiry is least' })),
      callOI: Type.Number(),
      putOI: Type.Number(),
      putCallOIRatio: Nullable(Type.Number({ description: 'putOI ÷ callOI (null without call open interest)' })),
      callVolume: Nullable(Type.Number({ description: 'null when the source has no volume' })),
      putVolume: Nullable(Type.Number({ description: 'null when the source has no volume' })),
      skew25: Nullable(Type.Number({ description: 'IV of the put with delta nearest −0.25 minus IV of the call nearest +0.25 (decimal); null unless both within 0.10' })),
    }),
  ),
  termStructure: Type.Array(Type.Object({ expiration: Type.String(), dte: Type.Integer(), atmIV: Nullable(Type.Number()) }), { description: 'ATM IV per expiration, ascending' }),
  snapshotTime: Type.String(),
  meta: Type.Object({ excludedContracts: ExcludedContractsCount }),
});
export type ExpirationsResponseT = Static<typeof ExpirationsResponse>;

// ---------------------------------------------------------------- exposure over time

export const GexProfileQuery = GexQuery;
export const GexProfileResponse = Type.Object({
  symbol: Type.String(),
  stockPrice: Type.Number(),
  formula: Type.String(),
  unit: Type.String(),
  gammaInflection: Nullable(Type.Number()),
  ...flipQuality,
  points: Type.Array(Type.Object({ spot: Type.Number({ description: 'Hypothetical spot x' }), netGEX: Type.Number({ description: "P(x) × the formula's factor at x (1, x, x²·0.01)" }) }), {
    description: '201 points evenly on [0.8S, 1.2S]',
  }),
  meta: Type.Object({ expirations: Type.Array(Type.String()), snapshotId: Type.Integer(), snapshotTime: Type.String(), source: Type.String() }),
  asOf: Type.String(),
});
export type GexProfileResponseT = Static<typeof GexProfileResponse>;

export const GexGridQuery = Params({
  symbol: SymbolParam,
  formula: gexScope.formula,
  minDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650, description: 'Expirations with dte ≥ minDte (default 0: the whole chain)' })),
  maxDte: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650, description: 'Expirations with dte ≤ maxDte' })),
  ...snapshotSelector,
});
export type GexGridQueryT = Sent<Static<typeof GexGridQuery>>;
export const GexGridResponse = Type.Object({
  symbol: Type.String(),
  stockPrice: Type.Number(),
  formula: Type.String(),
  unit: Type.String(),
  expirations: Type.Array(Type.String(), { description: 'Rows, ascending' }),
  strikes: Type.Array(Type.Number(), { description: 'Columns: strikes within [0.8S, 1.2S] with open interest in some expiration of the scope, ascending' }),
  netGEX: Type.Array(Type.Array(Type.Number()), { description: "netGEX[row][column] in the formula's unit; 0 where the expiration has no open interest at the strike" }),
  meta: Type.Object({ snapshotId: Type.Integer(), snapshotTime: Type.String(), source: Type.String() }),
  asOf: Type.String(),
});
export type GexGridResponseT = Static<typeof GexGridResponse>;

const Bound = (description: string) => Type.String({ pattern: DATETIME_PATTERN, description });
export const GexHistoryQuery = Params({
  symbol: SymbolParam,
  from: Type.Optional(Bound('Snapshots quoted at or after (ISO 8601; a date: from its start, New York)')),
  to: Type.Optional(Bound('Snapshots quoted at or before (ISO 8601; a date: to its end, New York)')),
  ...gexScope,
});
export const GexHistoryPointSchema = Type.Object({
  snapshotId: Type.Integer(),
  quoteTime: Type.String(),
  spot: Type.Number(),
  ...gexLevels,
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
export const SnapshotResponse = Type.Object({ ...SnapshotListingSchema.properties, symbol: Type.String() });
export type SnapshotResponseT = Static<typeof SnapshotResponse>;
/** A stored snapshot's id in a path: a SnapshotId once decoded (src-shared/ids.ts). */
export const SnapshotIdParams = Params({ id: Type.Unsafe<SnapshotId>(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })) });
export const SnapshotDeleteResponse = Type.Object({ id: Type.Integer(), symbol: Type.String(), quoteTime: Type.String() });

// ---------------------------------------------------------------- chains

export const ChainPostQuery = Params({
  symbol: Type.Optional(SymbolParam),
  spot: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e9, description: 'The underlying price, for files without one (yfinance dumps) or to override the file’s' })),
  quoteTime: Type.Optional(Type.String({ pattern: DATETIME_PATTERN, description: 'Overrides the file’s quote time (ISO 8601; without an offset: New York time)' })),
  format: Type.Optional(OneOf(CHAIN_FORMATS)),
});
export type ChainPostQueryT = Sent<Static<typeof ChainPostQuery>>;

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
  id: Type.Integer({ description: 'The stored snapshot (also in Location: /v1/snapshots/{id}); the one stored before when stored is false' }),
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
  warnings: Type.Array(Type.String(), { description: 'What was accepted but should be known: one side of the chain only, the quote time taken from the newest trade' }),
  stored: Type.Boolean({ description: 'false when this exact snapshot was already stored' }),
  events: Type.Integer({ description: 'Events created by this snapshot, as GET /v1/gex/events?scope=all (the Events page) lists them: per expiration, of the book, and on your strikes (position events)' }),
  eventsByScope: Type.Object(
    { expiration: Type.Integer(), book: Type.Integer(), position: Nullable(Type.Integer({ description: 'Position events: a dealer level crossed or came near a short strike of the journal; null when the journal was busy (a large import being read) and they were not counted within 2 s: GET /v1/gex/events lists them once made' })) },
    { description: 'events by scope (they add up to events; a null position count adds nothing)' },
  ),
  // null when the snapshot was stored before or is older than the newest: nothing was compared.
  eventReport: Nullable(EventReportSchema),
});
export const ChainsResponse = Type.Object({ symbols: Type.Array(ChainInfoSchema) });
