/**
 * The CPU side of the exposure service, free of the database and of the event loop's state, so that it runs the
 * same in the exposure worker (exposure-worker.ts) and inline (the CLI, the demo, the online source): a chain file
 * parsed, prepared, packed and evaluated for events before its snapshot is stored (`planIngest`), and the levels of
 * a scope over stored snapshots (`historyPoint`). What it needs of the database comes in as data; what it found
 * goes back as data for the service to store (exposure.ts, `commitIngest`).
 */
import { DEFAULT_FORMULA, EXPIRATIONS_COUNT_CAP, FORMULAS, type Formula } from '../../../src-shared/api/constants';
import { asTicker, type Ticker } from '../../../src-shared/ids';
import {
  computeGex,
  DEFAULT_EXPIRATIONS_COUNT,
  emptyChainReason,
  expirationsInDteRange,
  gexHistoryPoint,
  prepareChain,
  resolveGexExpirations,
  type ConfirmedState,
  type ExcludedContracts,
  type ExpirationIndex,
  type GexHistoryPoint,
  type PreparedChain,
  type ScopeExpiration,
} from '../../../src-shared/exposure/index';
import type { ChainSnapshot, SnapshotSourceId } from '../../../src-shared/exposure/model';
import { evaluateSnapshotEvents, type SnapshotEventDraft } from '../../../src-shared/exposure/snapshot-events';
import type { EventsExplanation } from '../../../src-shared/exposure/event-explain';
import { parseChainFile, type ChainFormat, type OverrideNames } from '../../chains/index';
import { packContracts, snapshotDigest, storedColumns, storedContracts } from '../../db/snapshot-payload';
import { packColumns } from '../../db/snapshot-columns';
import { historyPointOf, pointInFormula } from '../../../src-shared/exposure/history-point';
import { failure, MAX_FILE_PROBLEMS, ok, problemsSummary, type Result } from '../result';

export interface ChainFileOptions {
  format?: ChainFormat;
  symbol?: string;
  quoteTime?: string;
  /** The underlying price, for files without one (yfinance dumps) or to override the file's. */
  spot?: number;
  /** How messages name symbol, spot and quoteTime: the API's parameters (default) or the CLI's options. */
  names?: OverrideNames;
  /** The online source's snapshots are marked so. */
  source?: 'online';
  /**
   * A polled file (the online source): delayed quotes cannot come from the future, so a quote time more than
   * `skewMs` after the poll (a source writing another zone than UTC) is refused: it would sort after every real one.
   */
  polled?: { atMs: number; skewMs: number };
}

/** The scope parameters of /gex (and of /gex/profile, /gex/history, /gex/diff). */
export interface GexScopeQuery {
  expirations?: string;
  expirationsCount?: number;
  minDte?: number;
  maxDte?: number;
  formula?: Formula;
}

/**
 * The expirations of a scope on one chain (docs/exposure.md, "Scope"): the explicit list (each must be available:
 * the engine's UnknownExpirationError otherwise), else with minDte/maxDte every expiration in that dte range (the
 * nearest `expirationsCount` of them when given), else the nearest `expirationsCount` (default 3). `lenient`: an
 * explicit expiration the chain does not have is skipped instead (history over snapshots of other days).
 */
export function resolveScope(chain: ExpirationIndex<ScopeExpiration>, query: GexScopeQuery, lenient = false): string[] {
  if (query.expirations !== undefined) {
    const asked = query.expirations.split(',');
    const explicit = lenient ? asked.filter((e) => chain.byExpiration.has(e)) : asked;
    if (explicit.length === 0) return [];
    return resolveGexExpirations(chain, explicit).map((e) => e.expiration);
  }
  const count = scopeCount(query);
  if (query.minDte !== undefined || query.maxDte !== undefined) {
    return expirationsInDteRange(chain, { ...(query.minDte === undefined ? {} : { minDte: query.minDte }), ...(query.maxDte === undefined ? {} : { maxDte: query.maxDte }) }, count).map((e) => e.expiration);
  }
  return resolveGexExpirations(chain, null, count ?? DEFAULT_EXPIRATIONS_COUNT).map((e) => e.expiration);
}

/** `expirationsCount` clamped to its cap, as `limit` is (`expirationsCount=9` asks for as many as there may be). */
function scopeCount(query: GexScopeQuery): number | undefined {
  return query.expirationsCount === undefined ? undefined : Math.min(query.expirationsCount, EXPIRATIONS_COUNT_CAP);
}

/** The scope as the key of a stored history point: equal keys for requests that resolve alike on every chain. */
export function scopeKey(query: GexScopeQuery): string {
  const explicit = query.expirations === undefined ? '' : [...new Set(query.expirations.split(','))].sort().join(',');
  const ranged = query.minDte !== undefined || query.maxDte !== undefined;
  const count = explicit !== '' ? '' : (scopeCount(query) ?? (ranged ? '' : DEFAULT_EXPIRATIONS_COUNT));
  return [query.formula ?? DEFAULT_FORMULA, explicit, count, query.minDte ?? '', query.maxDte ?? ''].join('|');
}

/** The scope whose history point every stored snapshot gets at ingest: /gex's default (nominal, nearest three). */
export const DEFAULT_SCOPE: GexScopeQuery = {};

/**
 * The points every stored snapshot gets with it (docs/decisions.md, "History points ahead"): the default scope in
 * each formula (the Exposure page's first view, whichever formula is picked), the other formulas derived exactly
 * from the nominal point. Other scopes are computed when first asked for (the pool of exposure workers).
 */
export function aheadPoints(nominal: GexHistoryPoint): Array<{ scope: string; point: GexHistoryPoint }> {
  return FORMULAS.map((formula) => ({ scope: scopeKey({ ...DEFAULT_SCOPE, formula }), point: pointInFormula(nominal, formula) }));
}

/** One snapshot's history point in a scope. */
export function historyPoint(chain: PreparedChain, query: GexScopeQuery): GexHistoryPoint {
  const result = computeGex(chain, { expirations: resolveScope(chain, query, true), formula: query.formula ?? DEFAULT_FORMULA, exact: true });
  return gexHistoryPoint(result, chain.quoteTime);
}

/** A stored snapshot as the worker receives it (the payload is the packed contracts, db/snapshot-payload.ts). */
export interface PackedSnapshot {
  id: number;
  symbol: string;
  quoteTime: string;
  spot: number;
  source: SnapshotSourceId;
  payload: Uint8Array;
}

export function preparePacked(stored: PackedSnapshot, rate: number): PreparedChain {
  const snapshot: ChainSnapshot = { symbol: stored.symbol, spot: stored.spot, quoteTime: stored.quoteTime, source: stored.source, contracts: storedContracts(stored) };
  return prepareChain(snapshot, { rate });
}

/** What an ingest learns from the database before planning: the confirmed states and the newest quote time. */
export interface IngestBasis {
  rate: number;
  /** The confirmed states of a ticker (exposure_state). */
  states(ticker: string): Map<string, ConfirmedState>;
  /** The quote time of the ticker's newest stored snapshot, or null. */
  latestQuoteTime(ticker: string): string | null;
}

/** A snapshot parsed, prepared, packed and evaluated, ready to be stored (exposure.ts, commitIngest). */
export interface IngestPlan {
  head: { symbol: Ticker; spot: number; quoteTime: string; source: SnapshotSourceId; contracts: number; expirations: number };
  /** The contracts in the stored (column) form. */
  payload: Uint8Array;
  /** What finds the snapshot if posted again (db/snapshot-payload.ts, snapshotDigest), computed here, off the event loop. */
  digest: string;
  chain: PreparedChain;
  excluded: ExcludedContracts;
  /** The expirations /v1/expirations shows (unexpired, standard roots). */
  unexpired: number;
  /** What the parser accepted but wants said (one side of the chain only, a quote time stood in for). */
  warnings: string[];
  /**
   * The default scope's history point, when planned off the event loop (the worker); null when the plan runs inline
   * (the commit computes it only for a snapshot that is new: the demo loaded twice stores nothing).
   */
  defaultPoint: GexHistoryPoint | null;
  /**
   * The events and states, evaluated against `basis` (the states as JSON) when the snapshot was the newest at
   * planning time; null otherwise. The commit uses them only if the states are still those.
   */
  evaluation: { basis: string; previousLatest: string | null; events: SnapshotEventDraft[]; states: Array<[string, ConfirmedState]>; explanation: EventsExplanation } | null;
}

export function statesJson(states: Map<string, ConfirmedState>): string {
  return JSON.stringify([...states].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Plans the ingest of a snapshot (already parsed); a chain with nothing to show is refused before anything is stored. */
export function planIngest(snapshot: ChainSnapshot, basis: IngestBasis, options: { defaultPoint?: boolean } = {}): Result<IngestPlan> {
  const symbol = asTicker(snapshot.symbol);
  const quoteMs = Date.parse(snapshot.quoteTime);
  if (Number.isNaN(quoteMs)) {
    return failure({ kind: 'file-refused', unsupported: false, detail: `The snapshot's quote time "${snapshot.quoteTime}" is not a date.`, problems: [{ line: null, param: 'quoteTime', message: 'is not a date' }] });
  }
  // One spelling of instants everywhere, so that ordering by quote_time as text is chronological.
  const normalized: ChainSnapshot = { ...snapshot, symbol, quoteTime: new Date(quoteMs).toISOString() };
  const chain = prepareChain(normalized, { rate: basis.rate });
  const empty = emptyChainReason(chain);
  if (empty !== null) return failure({ kind: 'file-refused', unsupported: false, detail: `The chain was not stored: ${empty}.`, problems: [{ line: null, message: empty }] });
  const previousLatest = basis.latestQuoteTime(symbol);
  let evaluation: IngestPlan['evaluation'] = null;
  if (previousLatest === null || normalized.quoteTime > previousLatest) {
    const previous = basis.states(symbol);
    const { events, states, explanation } = evaluateSnapshotEvents(symbol, chain, previous);
    evaluation = { basis: statesJson(previous), previousLatest, events, states: [...states], explanation };
  }
  return ok({
    head: {
      symbol,
      spot: normalized.spot,
      quoteTime: normalized.quoteTime,
      source: normalized.source,
      contracts: normalized.contracts.length,
      expirations: new Set(normalized.contracts.map((c) => c.expiration)).size,
    },
    payload: packColumns(normalized.contracts),
    digest: snapshotDigest(normalized, packContracts(normalized.contracts)),
    chain,
    excluded: chain.excluded,
    unexpired: chain.expirations.length,
    warnings: [],
    defaultPoint: options.defaultPoint === true ? historyPoint(chain, DEFAULT_SCOPE) : null,
    evaluation,
  });
}

/** Parses a chain file and plans its ingest; a file with problems plans nothing. */
/**
 * A chain file's text handed over to be let go: planChainFile empties it once the file is parsed, so that a 30 MB file's
 * text is not held beside the prepared and packed chain (docs/architecture.md §Reliability and security).
 */
export interface TextBox {
  text: string;
}

export function planChainFile(
  file: string | TextBox,
  options: ChainFileOptions,
  basis: IngestBasis,
  planOptions: { defaultPoint?: boolean; /** Runs between the parse and the plan (the worker collects the parse's garbage there). */ afterParse?: () => void } = {},
): Result<IngestPlan> {
  const box = typeof file === 'string' ? { text: file } : file;
  const parsed = parseChainFile(box.text, {
    ...(options.format === undefined ? {} : { format: options.format }),
    ...(options.symbol === undefined ? {} : { symbol: asTicker(options.symbol) }),
    ...(options.quoteTime === undefined ? {} : { quoteTime: options.quoteTime }),
    ...(options.spot === undefined ? {} : { spot: options.spot }),
    ...(options.names === undefined ? {} : { names: options.names }),
  });
  if (!parsed.ok) {
    return failure({
      kind: 'file-refused',
      unsupported: false,
      detail: `The chain file has ${problemsSummary(parsed.errors, parsed.errorCount)}; nothing was stored.`,
      problems: parsed.errors.slice(0, MAX_FILE_PROBLEMS),
    });
  }
  // The text is let go (its only reference is the box, when the worker handed one over), and the parse's garbage with it.
  box.text = '';
  planOptions.afterParse?.();
  const aheadMs = options.polled === undefined ? 0 : Date.parse(parsed.snapshot.quoteTime) - options.polled.atMs;
  if (options.polled !== undefined && aheadMs > options.polled.skewMs) {
    const detail = `the quote time ${parsed.snapshot.quoteTime} is ${(aheadMs / 3_600_000).toFixed(1)} h after the poll: the source's timestamp is not UTC`;
    return failure({ kind: 'file-refused', unsupported: false, detail, problems: [{ line: null, param: 'quoteTime', message: detail }] });
  }
  const plan = planIngest(options.source === undefined ? parsed.snapshot : { ...parsed.snapshot, source: options.source }, basis, planOptions);
  return plan.ok ? ok({ ...plan.value, warnings: parsed.warnings }) : plan;
}

/**
 * A stored snapshot's history point in a scope, the cheap way (src-shared/exposure/history-point.ts): the packed
 * columns read, and only the scope's expirations prepared. Equal to `historyPoint(preparePacked(stored, rate), query)`.
 */
export function packedHistoryPoint(stored: PackedSnapshot, query: GexScopeQuery, rate: number): GexHistoryPoint {
  return historyPointOf(stored, storedColumns(stored), rate, query.formula ?? DEFAULT_FORMULA, (index) => resolveScope(index, query, true));
}
