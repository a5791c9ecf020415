/**
 * The exposure reads, declared once (docs/architecture.md §Map), as the journal's calls are (journal/handlers.ts): each
 * entry of `exposureReads` is a read the server can make, run on the stores and caches the service composes
 * (`ExposureReadHost`). The service (service.ts) binds each to its host; a route calls the service's method. A new
 * read is an entry here, its service line, and its route.
 */
import { DEFAULT_FORMULA, EVENTS_LIMIT_CAP, EVENTS_LIMIT_DEFAULT, type Formula } from '../../../src-shared/api/constants';
import type { SnapshotId, Ticker } from '../../../src-shared/ids';
import { computeGex, computeGexGrid, computeGexProfile, computeVanna, diffGex, expirationDetails, lookupExpirations, type GexGridResult, type GexHistoryPoint, type GexResult } from '../../../src-shared/exposure/index';
import type { LevelAlertFact } from '../../../src-shared/journal/manage';
import { NEW_YORK, todayIn } from '../../../src-shared/zone';
import { nowDate, type Clock } from '../../clock';
import type { SnapshotRepository } from '../../db/snapshots';
import type { WriteQueue } from '../../db/writes';
import { failure, ok, type Result } from '../result';
import type { ChainCache } from './chain-cache';
import { resolveScope, scopeKey, type GexScopeQuery } from './compute';
import type { EventStore, PositionAlertJson, TickerExplanation } from './events';
import type { HistoryPoints } from './history';
import type { HistoryPool } from './history-pool';
import {
  instantBound,
  resolveExpirations,
  snapshotInfo,
  type DiffValue,
  type EventQuery,
  type ExpirationsValue,
  type ExposureEvent,
  type GexProfileValue,
  type GexQuery,
  type GexValue,
  type HistoryValue,
  type LoadedSnapshot,
  type PlannedAnswer,
  type SnapshotInfo,
  type SnapshotListing,
  type SnapshotSelector,
  type SnapshotSummary,
  type VannaValue,
} from './values';

/** What the reads run on: the stores and caches the service composes. */
export interface ExposureReadHost {
  snapshots: SnapshotRepository;
  /** The prepared chains (chain-cache.ts). */
  chains: ChainCache;
  events: EventStore;
  historyPoints: HistoryPoints;
  /** The workers of cold history points (history-pool.ts). */
  historyPool: HistoryPool;
  writes: WriteQueue;
  rate: () => number;
  clock: Clock;
}

export interface GexGridValue {
  snapshot: SnapshotInfo;
  result: GexGridResult;
  asOfMs: number;
}

export type GexGridQuery = { symbol: Ticker; formula?: Formula; minDte?: number; maxDte?: number } & SnapshotSelector;

/** Position alerts are kept this long on Positions (docs/exposure.md §Events, "Alerts on your strikes"). */
export const ALERT_DAYS = 7;
/** Position events kept for the management rules' level rule: the newest this many of the fortnight before asOf. */
export const MANAGE_ALERTS_LIMIT = 500;
const DAY_MS = 86_400_000;

function today(host: ExposureReadHost): string {
  return todayIn(NEW_YORK, nowDate(host.clock));
}

/** The expirations of a scope on a loaded chain, unknown explicit ones as the domain error. */
function scope(loaded: LoadedSnapshot, query: GexScopeQuery): Result<string[]> {
  return resolveExpirations(loaded, 'expirations', () => resolveScope(loaded.chain, query));
}

/**
 * A /gex-like answer on the snapshot and scope a query names; its key names the snapshot, the formula and the
 * resolved expirations (the HTTP layer caches it by that key).
 */
export async function gexAnswer<T>(
  host: ExposureReadHost,
  kind: string,
  query: GexQuery,
  compute: (loaded: LoadedSnapshot, options: { expirations: string[]; formula: Formula; exact: true }) => T,
): Promise<Result<PlannedAnswer<T>>> {
  const found = await host.chains.loaded(query.symbol, query);
  if (!found.ok) return found;
  const loaded = found.value;
  const resolved = scope(loaded, query);
  if (!resolved.ok) return resolved;
  const formula = query.formula ?? DEFAULT_FORMULA;
  const expirations = resolved.value;
  return ok({ key: `${loaded.symbol}|${kind}|${loaded.snapshotId}|${formula}|${expirations.join(',')}`, symbol: loaded.symbol, compute: () => compute(loaded, { expirations, formula, exact: true }) });
}

/** /v1/snapshots: the symbol's stored snapshots, newest first. */
function snapshotList(host: ExposureReadHost, symbol: Ticker): Result<SnapshotListing[]> {
  const list = host.snapshots.list(symbol);
  if (list.length === 0) return failure({ kind: 'unknown-symbol', symbol, known: host.snapshots.symbols() });
  return ok(list);
}

/**
 * The history points of stored snapshots in a scope (an expiration a snapshot does not list is skipped: its point is
 * of what remains): the stored ones, the missing computed by the pool of exposure workers and kept in the background.
 * /gex/history, and the position alerts' levels of each short option's own expiration.
 */
async function scopePoints(host: ExposureReadHost, ids: readonly number[], query: GexScopeQuery, signal?: AbortSignal): Promise<Map<number, GexHistoryPoint>> {
  const key = scopeKey(query);
  const points = host.historyPoints.find([...ids], key);
  const missing = ids.filter((id) => !points.has(id));
  if (missing.length > 0) {
    const keep = (computed: Array<{ id: number; point: GexHistoryPoint }>) => host.historyPoints.keep(key, computed, host.writes);
    const computed = await host.historyPool.points(missing, { scope: key, query, rate: host.rate(), keep }, signal);
    for (const [id, point] of computed) points.set(id, point);
  }
  return points;
}

export const exposureReads = {
  snapshotList,
  /** One stored snapshot without its contracts (`GET /v1/snapshots/{id}`, the Location of `POST /v1/chains`). */
  snapshotById: (host: ExposureReadHost, id: SnapshotId): Result<SnapshotListing> => {
    const head = host.snapshots.headById(id);
    return head === null ? failure({ kind: 'unknown-snapshot', id }) : ok(head);
  },
  /** /v1/chains: each symbol with stored snapshots. */
  snapshotSummaries: (host: ExposureReadHost): SnapshotSummary[] =>
    host.snapshots.summaries().map((s) => ({ symbol: s.symbol, spot: s.spot, quoteTime: s.quote_time, source: s.source, contracts: s.contracts, expirations: s.expirations, snapshots: s.snapshots })),
  /** /gex: the nearest `expirationsCount` expirations, a dte range, or the explicit ones (each must be unexpired). */
  gex: (host: ExposureReadHost, query: GexQuery): Promise<Result<PlannedAnswer<GexValue>>> =>
    gexAnswer(host, 'gex', query, (loaded, options) => ({ snapshot: snapshotInfo(loaded), result: computeGex(loaded.chain, options), formula: options.formula, asOfMs: host.clock.nowMs() })),
  /** /gex/profile: the 201 sweep points of the scope in the formula's unit, and the flip from the same sweep. */
  gexProfile: (host: ExposureReadHost, query: GexQuery): Promise<Result<PlannedAnswer<GexProfileValue>>> =>
    gexAnswer(host, 'profile', query, (loaded, options) => ({ snapshot: snapshotInfo(loaded), result: computeGexProfile(loaded.chain, options), asOfMs: host.clock.nowMs() })),
  /**
   * /gex/grid (docs/exposure.md, "Grid"): net GEX per expiration × strike for a heat map, every unexpired expiration
   * within [minDte, maxDte] (default: the whole chain), cached like /gex.
   */
  gexGrid: (host: ExposureReadHost, query: GexGridQuery): Promise<Result<PlannedAnswer<GexGridValue>>> =>
    gexAnswer(host, 'grid', { ...query, minDte: query.minDte ?? 0 }, (loaded, options) => ({ snapshot: snapshotInfo(loaded), result: computeGexGrid(loaded.chain, options), asOfMs: host.clock.nowMs() })),
  /**
   * /gex/history: one point per stored snapshot quoted in [from, to], oldest first. Points are kept per (snapshot,
   * scope) in gex_history; the missing ones are computed by the pool of exposure workers (history-pool.ts: never on
   * this thread, each once, given up with the client) and stored in the background (history.ts): a read never waits
   * for, nor fails on, another process's write lock.
   */
  gexHistory: async (host: ExposureReadHost, query: { symbol: Ticker; from?: string; to?: string } & GexScopeQuery, signal?: AbortSignal): Promise<Result<HistoryValue>> => {
    const listed = snapshotList(host, query.symbol);
    if (!listed.ok) return listed;
    const from = query.from === undefined ? null : instantBound(query.from, 'start');
    const to = query.to === undefined ? null : instantBound(query.to, 'end');
    const heads = listed.value.filter((h) => (from === null || h.quoteTime >= from) && (to === null || h.quoteTime <= to)).reverse();
    const points = await scopePoints(
      host,
      heads.map((h) => h.id),
      query,
      signal,
    );
    return ok({
      symbol: listed.value[0]?.symbol ?? query.symbol,
      formula: query.formula ?? DEFAULT_FORMULA,
      points: heads.flatMap((h) => {
        const point = points.get(h.id);
        return point === undefined ? [] : [{ ...point, snapshotId: h.id }];
      }),
    });
  },
  scopePoints,
  /**
   * /gex/diff: the change per strike from one snapshot to another, each computed in the same scope (the scope is
   * resolved on each snapshot: the nearest three of each, or the explicit expirations, which both must have).
   */
  gexDiff: async (host: ExposureReadHost, query: { symbol: Ticker; from: number; to: number } & GexScopeQuery): Promise<Result<DiffValue>> => {
    const formula = query.formula ?? DEFAULT_FORMULA;
    const sides: Array<{ snapshot: SnapshotInfo; result: GexResult }> = [];
    for (const id of [query.from, query.to]) {
      const found = await host.chains.loaded(query.symbol, { snapshot: id });
      if (!found.ok) return found;
      const resolved = scope(found.value, query);
      if (!resolved.ok) return resolved;
      sides.push({ snapshot: snapshotInfo(found.value), result: computeGex(found.value.chain, { expirations: resolved.value, formula, exact: true }) });
    }
    const [before, after] = sides;
    if (before === undefined || after === undefined) throw new Error('gexDiff: two sides');
    return ok({ symbol: before.snapshot.symbol, formula, from: before, to: after, data: diffGex(before.result, after.result) });
  },
  /** /vanna: the 0–45 dte aggregate, or one expiration. */
  vanna: async (host: ExposureReadHost, query: { symbol: Ticker; expiration?: string } & SnapshotSelector): Promise<Result<PlannedAnswer<VannaValue>>> => {
    const found = await host.chains.loaded(query.symbol, query);
    if (!found.ok) return found;
    const loaded = found.value;
    const expiration = query.expiration ?? null;
    if (expiration !== null) {
      const resolved = resolveExpirations(loaded, 'expiration', () => lookupExpirations(loaded.chain, [expiration]));
      if (!resolved.ok) return resolved;
    }
    return ok({
      key: `${loaded.symbol}|vanna|${loaded.snapshotId}|${expiration ?? ''}`,
      symbol: loaded.symbol,
      compute: () => ({ snapshot: snapshotInfo(loaded), result: computeVanna(loaded.chain, { expiration }), asOfMs: host.clock.nowMs() }),
    });
  },
  /** /expirations of the newest snapshot (a symbol) or of the one a selector names. */
  expirations: async (host: ExposureReadHost, query: Ticker | ({ symbol: Ticker } & SnapshotSelector)): Promise<Result<ExpirationsValue>> => {
    const found = typeof query === 'string' ? await host.chains.loaded(query) : await host.chains.loaded(query.symbol, query);
    if (!found.ok) return found;
    const loaded = found.value;
    return ok({ snapshot: snapshotInfo(loaded), details: expirationDetails(loaded.chain), excludedContracts: loaded.chain.excluded.adjusted });
  },
  /** Stored events, newest first (limit clamped); dte counts from today in New York. */
  events: (host: ExposureReadHost, query: EventQuery): ExposureEvent[] =>
    host.events.read({ ...query, limit: Math.min(query.limit ?? EVENTS_LIMIT_DEFAULT, EVENTS_LIMIT_CAP) }, today(host)),
  /** The latest comparison of each ticker named (all without a list): /gex/events beside its events. */
  explanations: (host: ExposureReadHost, tickers: readonly Ticker[] | undefined): TickerExplanation[] => host.events.latestExplanations(tickers),
  /** The position alerts of the last ALERT_DAYS, by position key (positionKey): Positions lists them on each position. */
  recentPositionAlerts: (host: ExposureReadHost): Map<string, PositionAlertJson[]> =>
    host.events.positionAlerts(new Date(nowDate(host.clock).getTime() - ALERT_DAYS * DAY_MS).toISOString(), today(host)),
  /**
   * The position alerts the management rules read (docs/journal.md §Managing open trades): those quoted in the two
   * weeks up to `asOfMs` (the journal worker keeps those within the marks' age); asOf as the journal reads it is
   * decided there, so a wide window is read here: a day past it covers any zone.
   */
  manageAlerts: (host: ExposureReadHost, asOfMs: number): LevelAlertFact[] => {
    const toMs = asOfMs + DAY_MS;
    const facts: LevelAlertFact[] = [];
    for (const event of host.events.positionEvents(new Date(toMs - 16 * DAY_MS).toISOString(), new Date(toMs).toISOString(), MANAGE_ALERTS_LIMIT)) {
      if (event.eventType !== 'position') continue;
      facts.push({ accountId: event.accountId, symbol: event.symbol, level: event.level, alert: event.alert, gapPct: event.gapPct, distancePct: event.distancePct, timestamp: event.timestamp, message: event.explanation ?? '' });
    }
    return facts;
  },
};

export type ExposureReads = typeof exposureReads;

/** A read as the service offers it: bound to its host. */
export type BoundRead<F> = F extends (host: ExposureReadHost, ...args: infer A) => infer R ? (...args: A) => R : never;
