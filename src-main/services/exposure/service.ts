import type { Database } from 'better-sqlite3';
import { DEFAULT_FORMULA, EVENTS_LIMIT_CAP, EVENTS_LIMIT_DEFAULT, type Formula } from '../../../src-shared/api/constants';
import { computeGex, computeGexProfile, computeVanna, diffGex, expirationDetails, lookupExpirations, type GexHistoryPoint, type GexResult } from '../../../src-shared/exposure/index';
import type { ChainSnapshot } from '../../../src-shared/exposure/model';
import { NEW_YORK, todayIn } from '../../../src-shared/zone';
import { nowDate, type Clock } from '../../clock';
import { ExposureStateRepository } from '../../db/exposure-state';
import { GexHistoryRepository } from '../../db/gex-history';
import { SnapshotRepository } from '../../db/snapshots';
import type { WriteQueue, WriteTx } from '../../db/writes';
import type { Settings } from '../../settings';
import { resolveScope, scopeKey, type GexScopeQuery } from './compute';
import {
  instantBound,
  resolveExpirations,
  snapshotInfo,
  type SnapshotSummary,
  type DiffValue,
  type EventQuery,
  type ExpirationsValue,
  type ExposureEvent,
  type GexProfileValue,
  type GexQuery,
  type GexValue,
  type HistoryValue,
  type IngestResult,
  type LoadedSnapshot,
  type NewestSnapshot,
  type PlannedAnswer,
  type SnapshotInfo,
  type SnapshotListing,
  type SnapshotSelector,
  type SnapshotsListener,
  type VannaValue,
} from './values';
import { ExposureWorkerClient } from './worker-client';
import { HistoryPoints } from './history';
import { HistoryPool } from './history-pool';
import { ChainCache } from './chain-cache';
import { ChainIngest, type IngestInput } from './ingest';
import { EventStore } from './events';
import { failure, ok, type Result } from '../result';
import { movable, newJob } from '../worker-thread';
import type { ChainFormat } from '../../chains/index';
import type { ChainFileDate } from './peek';
import type { LakeFileDate } from './lake-plan';

export type { ChainFileOptions, GexScopeQuery } from './compute';
export type { IngestInput } from './ingest';
export * from './values';

/**
 * Chains, exposure answers and events. The prepared chains are the chain cache's (chain-cache.ts), storing a snapshot
 * is ingest.ts's; this class answers the reads. The answers computed are the HTTP layer's to cache (it hears of every
 * change from `changes`). The heavy work of a chain file and of history points runs in the exposure worker. Its
 * writes take their own turns of the process's write queue.
 */
export class ExposureService {
  /** Read by the answers outside this class too (reads.ts). */
  readonly snapshots: SnapshotRepository;
  /** The events, states and comparisons (events.ts); position alerts store theirs through it too. */
  readonly eventStore: EventStore;
  private readonly worker: ExposureWorkerClient;
  private readonly historyPoints: HistoryPoints;
  /** The workers of cold history points (read by tests). */
  readonly historyPool: HistoryPool;
  /** The prepared chains, and the snapshots' changes for those who keep answers computed on them. */
  readonly changes: ChainCache;
  private readonly ingester: ChainIngest;

  constructor(
    private readonly db: Database,
    private readonly settings: () => Pick<Settings, 'rate' | 'snapshotRetention' | 'snapshotRetentionBySymbol' | 'importTimeoutSeconds'>,
    private readonly clock: Clock,
    private readonly writes: WriteQueue,
    log?: (line: string) => void,
  ) {
    this.snapshots = new SnapshotRepository(db);
    this.eventStore = new EventStore(db);
    const history = new GexHistoryRepository(db);
    this.historyPoints = new HistoryPoints(history, log);
    this.worker = new ExposureWorkerClient(log);
    this.historyPool = new HistoryPool(this.worker, () => new ExposureWorkerClient(log), (id) => this.snapshots.byId(id));
    this.changes = new ChainCache(db, this.snapshots, this.worker, () => this.settings().rate);
    const stores = { db, snapshots: this.snapshots, states: new ExposureStateRepository(db), events: this.eventStore, history };
    this.ingester = new ChainIngest(stores, this.changes, this.worker, writes, settings, clock);
  }

  /** Stops the chain files being planned (the server is closing): their requests are answered at once. */
  stopJobs = (): void => this.worker.stopJobs();

  /** Ends the exposure workers. */
  async close(): Promise<void> {
    await Promise.all([this.worker.close(), this.historyPool.close()]);
  }

  // ------------------------------------------------------------ changes

  onSnapshotsChanged(listener: SnapshotsListener): () => void {
    return this.changes.onSnapshotsChanged(listener);
  }

  onEvent(listener: (event: ExposureEvent) => void): () => void {
    return this.ingester.onEvent(listener);
  }

  onNewestSnapshot(listener: (snapshot: NewestSnapshot) => void): () => void {
    return this.ingester.onNewestSnapshot(listener);
  }

  publishEvent(event: ExposureEvent): void {
    this.ingester.publishEvent(event);
  }

  /** Notices snapshots stored or deleted by another connection (see ChainCache.refresh). */
  refresh(): void {
    this.changes.refresh();
  }

  /** Drops every prepared chain (a new rate r, a write of ours rolled back); listeners drop their answers. */
  reset(): void {
    this.changes.reset();
  }

  // ------------------------------------------------------------ ingest (ingest.ts)

  /**
   * Stores a chain file or a parsed snapshot: planned (in the exposure worker for a file, a job stopped with `signal`;
   * inline for a snapshot), then committed in a write turn of its own. POST /v1/chains, the online source, the CLI,
   * the demo, the lake import.
   */
  ingest(input: IngestInput, signal?: AbortSignal): Promise<Result<IngestResult>> {
    return this.ingester.ingest(input, signal);
  }

  /**
   * A chain file's symbol and quote time, read in the exposure worker as a job (stopped with `signal`, the server's
   * close or importTimeoutSeconds): a backfill dates its files before storing them oldest first.
   */
  peekFile(file: Uint8Array, options: { format?: ChainFormat } = {}, signal?: AbortSignal): Promise<Result<ChainFileDate>> {
    return this.worker.job('peekChainFile', newJob(this.settings().importTimeoutSeconds, signal), movable(file), file, options);
  }

  /** A backfill's lake file dated by its footer in the exposure worker, as a job (lake-plan.ts). */
  peekLakeFile(file: Uint8Array, signal?: AbortSignal): Promise<Result<LakeFileDate>> {
    return this.worker.job('peekLakeFile', newJob(this.settings().importTimeoutSeconds, signal), movable(file), file);
  }

  /** Stores a snapshot in the caller's transaction: for a batch that already holds a write turn. */
  ingestInTurn(turn: WriteTx, snapshot: ChainSnapshot): Result<IngestResult> {
    return this.ingester.ingestInTurn(turn, snapshot);
  }

  // ------------------------------------------------------------ snapshots

  /** /v1/snapshots: the symbol's stored snapshots, newest first. */
  snapshotList(symbolParam: string): Result<SnapshotListing[]> {
    const symbol = symbolParam.toUpperCase();
    const list = this.snapshots.list(symbol);
    if (list.length === 0) return failure({ kind: 'unknown-symbol', symbol, known: this.snapshots.symbols() });
    return ok(list);
  }

  /**
   * Deletes one snapshot and its history points, in a write turn of its own. Events and the confirmed states stay:
   * they record what was seen when that snapshot arrived (docs/exposure.md, "Deleting a snapshot").
   */
  deleteSnapshot(id: number): Promise<Result<{ id: number; symbol: string; quoteTime: string }>> {
    return this.writes.run((turn) => {
      const stored = this.snapshots.byId(id);
      if (stored === null) return failure({ kind: 'unknown-snapshot', id });
      this.db.transaction(() => this.changes.writing(() => this.snapshots.delete(turn, id)))();
      this.changes.setNewest(stored.symbol, null);
      this.changes.forgetOlder(stored.symbol);
      this.changes.changed(stored.symbol);
      return ok({ id, symbol: stored.symbol, quoteTime: stored.quoteTime });
    });
  }

  // ------------------------------------------------------------ reads

  private today(): string {
    return todayIn(NEW_YORK, nowDate(this.clock));
  }

  /** The snapshot a request names, or the symbol's newest; prepared (ChainCache.loaded). */
  private loaded(symbol: string, selector: SnapshotSelector = {}): Promise<Result<LoadedSnapshot>> {
    return this.changes.loaded(symbol, selector);
  }

  /** The expirations of a scope on a loaded chain, unknown explicit ones as the domain error. */
  private scope(loaded: LoadedSnapshot, query: GexScopeQuery): Result<string[]> {
    return resolveExpirations(loaded, 'expirations', () => resolveScope(loaded.chain, query));
  }

  /**
   * A /gex-like answer on the snapshot and scope a query names; its key names the snapshot, the formula and the
   * resolved expirations.
   */
  async gexAnswer<T>(kind: string, query: GexQuery, compute: (loaded: LoadedSnapshot, options: { expirations: string[]; formula: Formula; exact: true }) => T): Promise<Result<PlannedAnswer<T>>> {
    const found = await this.loaded(query.symbol, query);
    if (!found.ok) return found;
    const loaded = found.value;
    const resolved = this.scope(loaded, query);
    if (!resolved.ok) return resolved;
    const formula = query.formula ?? DEFAULT_FORMULA;
    const expirations = resolved.value;
    return ok({ key: `${loaded.symbol}|${kind}|${loaded.snapshotId}|${formula}|${expirations.join(',')}`, symbol: loaded.symbol, compute: () => compute(loaded, { expirations, formula, exact: true }) });
  }

  /** /gex: the nearest `expirationsCount` expirations, a dte range, or the explicit ones (each must be unexpired). */
  gex(query: GexQuery): Promise<Result<PlannedAnswer<GexValue>>> {
    return this.gexAnswer('gex', query, (loaded, options) => ({ snapshot: snapshotInfo(loaded), result: computeGex(loaded.chain, options), formula: options.formula, asOfMs: this.clock.nowMs() }));
  }

  /** /gex/profile: the 201 sweep points of the scope in the formula's unit, and the flip from the same sweep. */
  gexProfile(query: GexQuery): Promise<Result<PlannedAnswer<GexProfileValue>>> {
    return this.gexAnswer('profile', query, (loaded, options) => ({ snapshot: snapshotInfo(loaded), result: computeGexProfile(loaded.chain, options), asOfMs: this.clock.nowMs() }));
  }

  /**
   * /gex/history: one point per stored snapshot quoted in [from, to], oldest first. Points are kept per (snapshot,
   * scope) in gex_history; the missing ones are computed by the pool of exposure workers (history-pool.ts: never on
   * this thread, each once, given up with the client) and stored in the background (history.ts): a read never waits
   * for, nor fails on, another process's write lock.
   */
  async gexHistory(query: { symbol: string; from?: string; to?: string } & GexScopeQuery, signal?: AbortSignal): Promise<Result<HistoryValue>> {
    const listed = this.snapshotList(query.symbol);
    if (!listed.ok) return listed;
    const from = query.from === undefined ? null : instantBound(query.from, 'start');
    const to = query.to === undefined ? null : instantBound(query.to, 'end');
    const heads = listed.value.filter((h) => (from === null || h.quoteTime >= from) && (to === null || h.quoteTime <= to)).reverse();
    const points = await this.scopePoints(
      heads.map((h) => h.id),
      query,
      signal,
    );
    return ok({
      symbol: listed.value[0]?.symbol ?? query.symbol.toUpperCase(),
      formula: query.formula ?? DEFAULT_FORMULA,
      points: heads.flatMap((h) => {
        const point = points.get(h.id);
        return point === undefined ? [] : [{ ...point, snapshotId: h.id }];
      }),
    });
  }

  /**
   * The history points of stored snapshots in a scope (an expiration a snapshot does not list is skipped: its point is
   * of what remains): the stored ones, the missing computed by the pool of exposure workers and kept in the background.
   * /gex/history, and the position alerts' levels of each short option's own expiration.
   */
  async scopePoints(ids: readonly number[], query: GexScopeQuery, signal?: AbortSignal): Promise<Map<number, GexHistoryPoint>> {
    const key = scopeKey(query);
    const points = this.historyPoints.find([...ids], key);
    const missing = ids.filter((id) => !points.has(id));
    if (missing.length > 0) {
      const keep = (computed: Array<{ id: number; point: GexHistoryPoint }>) => this.historyPoints.keep(key, computed, this.writes);
      const computed = await this.historyPool.points(missing, { scope: key, query, rate: this.settings().rate, keep }, signal);
      for (const [id, point] of computed) points.set(id, point);
    }
    return points;
  }

  /**
   * /gex/diff: the change per strike from one snapshot to another, each computed in the same scope (the scope is
   * resolved on each snapshot: the nearest three of each, or the explicit expirations, which both must have).
   */
  async gexDiff(query: { symbol: string; from: number; to: number } & GexScopeQuery): Promise<Result<DiffValue>> {
    const formula = query.formula ?? DEFAULT_FORMULA;
    const sides: Array<{ snapshot: SnapshotInfo; result: GexResult }> = [];
    for (const id of [query.from, query.to]) {
      const found = await this.loaded(query.symbol, { snapshot: id });
      if (!found.ok) return found;
      const resolved = this.scope(found.value, query);
      if (!resolved.ok) return resolved;
      sides.push({ snapshot: snapshotInfo(found.value), result: computeGex(found.value.chain, { expirations: resolved.value, formula, exact: true }) });
    }
    const [before, after] = sides;
    if (before === undefined || after === undefined) throw new Error('gexDiff: two sides');
    return ok({ symbol: before.snapshot.symbol, formula, from: before, to: after, data: diffGex(before.result, after.result) });
  }

  /** /vanna: the 0–45 dte aggregate, or one expiration. */
  async vanna(query: { symbol: string; expiration?: string } & SnapshotSelector): Promise<Result<PlannedAnswer<VannaValue>>> {
    const found = await this.loaded(query.symbol, query);
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
      compute: () => ({ snapshot: snapshotInfo(loaded), result: computeVanna(loaded.chain, { expiration }), asOfMs: this.clock.nowMs() }),
    });
  }

  /** /expirations of the newest snapshot (a symbol) or of the one a selector names. */
  async expirations(query: string | ({ symbol: string } & SnapshotSelector)): Promise<Result<ExpirationsValue>> {
    const found = typeof query === 'string' ? await this.loaded(query) : await this.loaded(query.symbol, query);
    if (!found.ok) return found;
    const loaded = found.value;
    return ok({ snapshot: snapshotInfo(loaded), details: expirationDetails(loaded.chain), excludedContracts: loaded.chain.excluded.adjusted });
  }

  /** Stored events, newest first; dte counts from today in New York. */
  events(query: EventQuery): ExposureEvent[] {
    return this.eventStore.read({ ...query, limit: Math.min(query.limit ?? EVENTS_LIMIT_DEFAULT, EVENTS_LIMIT_CAP) }, todayIn(NEW_YORK, nowDate(this.clock)));
  }

  snapshotSummaries(): SnapshotSummary[] {
    return this.snapshots.summaries().map((s) => ({ symbol: s.symbol, spot: s.spot, quoteTime: s.quote_time, source: s.source, contracts: s.contracts, expirations: s.expirations, snapshots: s.snapshots }));
  }
}
