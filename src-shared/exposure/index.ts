/** The dealer-exposure engine (docs/exposure.md): pure functions from a chain snapshot to numbers. */
export type { ChainSnapshot, OptionContract, SnapshotSourceId } from './model';
export { bsmGreeks, normCdf, normPdf, type Greeks, type GreeksInput } from './greeks';
export { AM_SETTLED_ROOTS, daysToExpiry, expiryInstantMs, settlementOf, yearsToExpiry, type Settlement } from './time';
export { DEFAULT_ENGINE_SETTINGS, isAdjustedRoot, prepareChain, type EngineSettings, type ExcludedContracts, type PreparedChain, type PreparedExpiration } from './prepare';
export { availableExpirations, emptyChainReason, expirationDetails, termStructure, type ExpirationDetail } from './chain-reads';
export {
  DEFAULT_EXPIRATIONS_COUNT,
  expirationsInDteRange,
  lookupExpirations,
  resolveGexExpirations,
  UnknownExpirationError,
  type DteRange,
  type ExpirationIndex,
  type ScopeExpiration,
} from './expiration-scope';
export {
  computeGex,
  computeGexProfile,
  diffGex,
  gexHistoryPoint,
  formulaFactor,
  type GexDiffRow,
  type GexHistoryPoint,
  type GexProfileResult,
  type GexResult,
  type GexRow,
  type GexScope,
  type Wall,
} from './gex';
export { expirationStats, maxPain, quoteMid, SKEW_DELTA, SKEW_DELTA_TOLERANCE, type ExpirationStats } from './expiration-stats';
export { flipStatusOf, type FlipStatus } from './sweep';
export { deltaAt } from './dex';
export { computeGexGrid, type GexGridResult } from './grid';
export { computeVanna, VANNA_MAX_DTE, VANNA_MIN_DTE, type VannaResult, type VannaRow } from './vanna';
export { evaluateEvents, FLIP_DEAD_BAND, WALL_MARGIN, type ConfirmedState, type EventDraft, type FlipEventDraft, type WallEventDraft } from './events';
export { BOOK_SCOPE, bookExpirations, evaluateBookEvents, type BookEventDraft, type BookEvaluation } from './book-events';
export { evaluateSnapshotEvents, type SnapshotEvaluation, type SnapshotEventDraft } from './snapshot-events';
export { draftExplanation, eventReport, explainEvaluation, explanationLines, type EventReport, type EventsExplanation } from './event-explain';
export { evaluatePositionAlerts, positionAlertText, POSITION_ALERT_DISTANCE_PCT, type PositionAlertDraft } from './position-alerts';
