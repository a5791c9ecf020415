import type { Database } from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { LRUCache } from 'lru-cache';
import { DEFAULT_FORMULA, EVENTS_LIMIT_CAP, EVENTS_LIMIT_DEFAULT, type Formula } from '../../src-shared/api/constants';
import { BOOK_SCOPE, computeGex, computeGexProfile, computeVanna, diffGex, expirationDetails, lookupExpirations, type ConfirmedState, type GexResult } from '../../src-shared/exposure/index';
import type { ChainSnapshot } from '../../src-shared/exposure/model';
import { NEW_YORK, todayIn } from '../../src-shared/zone';
import { nowDate, nowIso, type Clock } from '../clock';
import { ExposureStateRepository } from '../db/exposure-state';
import { GexHistoryRepository } from '../db/gex-history';
import { Generations } from '../db/generations';
import { dataVersionReader } from '../db/open';
import { SnapshotRepository } from '../db/snapshots';
import type { WriteQueue } from '../db/writes';
import type { Settings } from '../settings';
import {
  DEFAULT_SCOPE,
  historyPoint,
  planChainFile,
  planIngest,
  resolveScope,
  scopeKey,
  statesJson,
  type ChainFileOptions,
  type GexScopeQuery,
  type IngestBasis,
  type IngestPlan,
  type PackedSnapshot,
} from './exposure-compute';
import {
  instantBound,
  loadedFrom,
  resolveExpirations,
  snapshotInfo,
  type ChainSummary,
  type DiffValue,
  type EventQuery,
  type ExpirationsValue,
  type ExposureEvent,
  type GexProfileValue,
  type GexQuery,
  type GexValue,
  type HistoryValue,
  type IngestResult,
  type LoadedChain,
  type NewestSnapshot,
  type PlannedAnswer,
  type SnapshotInfo,
  type SnapshotListing,
  type SnapshotSelector,
  type SnapshotsListener,
  type VannaValue,
} from './exposure-values';
import { ExposureWorkerClient } from './exposure-worker-client';
import { HistoryPoints } from './exposure-history';
import { movable, newJob } from './worker-thread';
import type { BasisData } from './exposure-worker';
import { evaluateSnapshotEvents } from '../../src-shared/exposure/snapshot-events';
import type { EventReportJson } from '../../src-shared/api/exposure-schemas';
import { EventStore } from './exposure-events';
import { failure, ok, type Result } from './result';

export type { ChainFileOptions, GexScopeQuery } from './exposure-compute';
export * from './exposure-values';

/** Older snapshots kept prepared beside each symbol's newest (a prepared SPX chain is a few MB). */
const OLDER_CHAINS = 6;

/**
 * Chains, exposure answers and events. Keeps each symbol's newest snapshot prepared (and a few older ones that were
 * asked for by `snapshot=`/`at=`); the answers computed from them are the server's to cache (it hears of every change
 * through onSnapshotsChanged). The heavy work of a chain file and of history points runs in the exposure worker.
 */
export class ExposureService {
  /** Read by the answers outside this class too (exposure-reads.ts). */
  readonly snapshots: SnapshotRepository;
  private readonly states: ExposureStateRepository;
  /** The events, states and comparisons (exposure-events.ts); position alerts store theirs through it too. */
  readonly eventStore: EventStore;
  private readonly history: GexHistoryRepository;
  private readonly generations: Generations;
  private readonly chains = new Map<string, LoadedChain>();
  private readonly older = new LRUCache<number, LoadedChain>({ max: OLDER_CHAINS });
  /** Chains being prepared in the worker, by snapshot id. */
  private readonly preparing = new Map<number, Promise<LoadedChain>>();
  /** Counts resets: a chain prepared across one is prepared again. */
  private epoch = 0;
  private readonly emitter = new EventEmitter();
  private readonly readDataVersion: () => number;
  private readonly worker: ExposureWorkerClient;
  private dataVersion: number;
  private snapshotGeneration: number;
  private readonly historyPoints: HistoryPoints;

  constructor(
    private readonly db: Database,
    private readonly settings: () => Pick<Settings, 'rate' | 'snapshotRetention' | 'snapshotRetentionBySymbol' | 'importTimeoutSeconds'>,
    private readonly clock: Clock,
    log?: (line: string) => void,
  ) {
    this.snapshots = new SnapshotRepository(db);
    this.states = new ExposureStateRepository(db);
    this.eventStore = new EventStore(db);
    this.history = new GexHistoryRepository(db);
    this.historyPoints = new HistoryPoints(this.history, log);
    this.generations = new Generations(db);
    this.emitter.setMaxListeners(0);
    this.readDataVersion = dataVersionReader(db);
    this.dataVersion = this.readDataVersion();
    this.snapshotGeneration = this.generations.snapshots();
    this.worker = new ExposureWorkerClient(log);
  }

  /** Stops the chain files being planned (the server is closing): their requests are answered at once. */
  stopJobs = (): void => this.worker.stopJobs();

  /** Ends the exposure worker. */
  close(): Promise<void> {
    return this.worker.close();
  }

  // ------------------------------------------------------------ changes

  onSnapshotsChanged(listener: SnapshotsListener): () => void {
    this.emitter.on('snapshots', listener);
    return () => this.emitter.off('snapshots', listener);
  }

  /** A snapshot became its symbol's newest (after its transaction): position alerts are evaluated on it. */
  onNewestSnapshot(listener: (snapshot: NewestSnapshot) => void): () => void {
    this.emitter.on('newest', listener);
    return () => this.emitter.off('newest', listener);
  }

  onEvent(listener: (event: ExposureEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /**
   * Notices snapshots stored or deleted by another connection (the CLI): SQLite's data_version says that something
   * was committed, the snapshots' own counter whether it was a snapshot. A journal import or a key-usage flush
   * leaves the prepared chains (and the server's answers) as they are.
   */
  refresh(): void {
    const version = this.readDataVersion();
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    // reset() reads the counter again.
    if (this.generations.snapshots() !== this.snapshotGeneration) this.reset();
  }

  /**
   * Drops every prepared chain (another process's snapshots, a new rate r, a write of ours rolled back: the chain it
   * prepared may be of a snapshot never stored); listeners drop their answers.
   */
  reset(): void {
    this.snapshotGeneration = this.generations.snapshots();
    this.epoch += 1;
    this.preparing.clear();
    this.chains.clear();
    this.older.clear();
    this.emitter.emit('snapshots', null);
  }

  /**
   * Snapshots of a symbol were deleted (by request, or pruned by retention): none of them may answer again, neither
   * from the prepared older chains nor from a preparation under way (which the epoch sends back to the database).
   */
  private forgetOlder(symbol: string): void {
    this.epoch += 1;
    for (const [id, loaded] of [...this.older.entries()]) if (loaded.symbol === symbol) this.older.delete(id);
  }

  /** Snapshots kept for a symbol: its own setting, else the default (docs/exposure.md, "Retention"). */
  private retention(symbol: string): number {
    const settings = this.settings();
    return settings.snapshotRetentionBySymbol[symbol] ?? settings.snapshotRetention;
  }

  // ------------------------------------------------------------ ingest

  private basis(): IngestBasis {
    return {
      rate: this.settings().rate,
      states: (ticker) => this.confirmedStates(ticker),
      latestQuoteTime: (ticker) => this.snapshots.latest(ticker)?.quoteTime ?? null,
    };
  }

  private confirmedStates(ticker: string): Map<string, ConfirmedState> {
    return new Map<string, ConfirmedState>(
      this.states.forTicker(ticker).map((row) => [row.expiration, { zone: row.zone === 'negative' ? 'negative' : 'positive', callWallStrike: row.call_wall, putWallStrike: row.put_wall }]),
    );
  }

  /** Parses a chain file and stores its snapshot, on this thread (the CLI); a file with problems stores nothing. */
  ingestText(text: string, options: ChainFileOptions): Result<IngestResult> {
    const plan = planChainFile(text, options, this.basis());
    return plan.ok ? this.commitIngest(plan.value) : plan;
  }

  /**
   * POST /v1/chains: the file (text, or bytes moved there) is planned in the exposure worker outside any write turn, as
   * a job (docs/decisions.md §Jobs); only the commit takes a turn. It evaluates the events again if a snapshot of the
   * ticker came in meanwhile (applyEvents), so the plan needs no turn of its own.
   */
  async ingestFile(file: string | Uint8Array, options: ChainFileOptions, writes: WriteQueue, signal?: AbortSignal): Promise<Result<IngestResult>> {
    const job = newJob(this.settings().importTimeoutSeconds, signal);
    const plan = await this.worker.job('planChainFile', job, movable(file), file, options, this.basisData(options.symbol));
    if (!plan.ok) return plan;
    // A rate changed while the file was planned: the stored snapshot is right, its prepared chain is not kept.
    return writes.exclusive((deadlineMs) => writes.transaction(() => this.commitIngest(plan.value, plan.value.chain.rate !== this.settings().rate), deadlineMs));
  }

  /** The basis as data for the worker: the states of the file's ticker (every ticker when the file names it). */
  private basisData(symbol: string | undefined): BasisData {
    const rows = symbol === undefined ? this.states.all() : this.states.forTicker(symbol.toUpperCase());
    const latest: Record<string, string> = {};
    for (const summary of this.snapshots.summaries()) latest[summary.symbol] = summary.quote_time;
    return {
      rate: this.settings().rate,
      states: rows.map((row) => ({ ticker: row.ticker, expiration: row.expiration, state: { zone: row.zone === 'negative' ? 'negative' : 'positive', callWallStrike: row.call_wall, putWallStrike: row.put_wall } })),
      latest,
    };
  }

  /**
   * Stores a snapshot (the demo, the online source, tests); when it is the symbol's newest, evaluates events and
   * replaces the symbol's prepared chain. Runs in one transaction (inside the caller's, when it has one).
   */
  ingest(snapshot: ChainSnapshot): Result<IngestResult> {
    const plan = planIngest(snapshot, this.basis());
    return plan.ok ? this.commitIngest(plan.value) : plan;
  }

  /** Stores a planned snapshot with its events, states and default history point, in one transaction. */
  private commitIngest(plan: IngestPlan, rateChanged = false): Result<IngestResult> {
    const { head } = plan;
    const symbol = head.symbol;
    const created: ExposureEvent[] = [];
    let eventReport: EventReportJson | null = null;
    let newest = false;
    let pruned = false;
    const stored = this.db.transaction(() => {
      // Snapshots another process stored before this write: their changes are not to be taken for ours below.
      if (this.generations.snapshots() !== this.snapshotGeneration) this.reset();
      const row = this.snapshots.insert(head, Buffer.from(plan.payload.buffer, plan.payload.byteOffset, plan.payload.byteLength), nowIso(this.clock));
      if (row.inserted) {
        const previousLatest = this.snapshots.latestQuoteTime(symbol, row.id);
        newest = previousLatest === null || head.quoteTime > previousLatest;
        if (newest) {
          const applied = this.applyEvents(symbol, plan, previousLatest);
          created.push(...applied.created);
          eventReport = applied.report;
          if (rateChanged) this.chains.delete(symbol);
          else this.chains.set(symbol, loadedFrom(row.id, plan.chain));
        }
        this.history.insert(row.id, scopeKey(DEFAULT_SCOPE), plan.defaultPoint ?? historyPoint(plan.chain, DEFAULT_SCOPE));
        if (this.snapshots.prune(symbol, this.retention(symbol)) > 0) pruned = true;
      }
      this.snapshotGeneration = this.generations.snapshots();
      return row;
    })();
    if (pruned) this.forgetOlder(symbol);
    if (stored.inserted) this.emitter.emit('snapshots', symbol);
    for (const event of created) this.emitter.emit('event', event);
    if (newest) this.emitter.emit('newest', { symbol, snapshotId: stored.id, quoteTime: head.quoteTime, spot: head.spot });
    return ok({
      id: stored.id,
      symbol,
      spot: head.spot,
      quoteTime: head.quoteTime,
      source: head.source,
      contracts: head.contracts,
      expirations: plan.unexpired,
      excluded: plan.excluded,
      warnings: plan.warnings,
      stored: stored.inserted,
      events: created.filter((event) => event.expiration !== BOOK_SCOPE).length,
      eventReport,
    });
  }

  /**
   * The plan's events and states when they were evaluated against the states stored now; else (another process
   * stored a snapshot of the ticker meanwhile) evaluated again here.
   */
  private applyEvents(ticker: string, plan: IngestPlan, previousLatest: string | null): { created: ExposureEvent[]; report: EventReportJson } {
    const previous = this.confirmedStates(ticker);
    const planned = plan.evaluation;
    const current = planned !== null && planned.previousLatest === previousLatest && planned.basis === statesJson(previous) ? planned : null;
    return this.eventStore.record(ticker, current ?? evaluateSnapshotEvents(ticker, plan.chain, previous), plan.head.quoteTime, this.today());
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
   * Deletes one snapshot and its history points. Events and the confirmed states stay: they record what was seen
   * when that snapshot arrived (docs/exposure.md, "Deleting a snapshot"). Runs inside the caller's write turn.
   */
  deleteSnapshot(id: number): Result<{ id: number; symbol: string; quoteTime: string }> {
    const stored = this.snapshots.byId(id);
    if (stored === null) return failure({ kind: 'unknown-snapshot', id });
    this.db.transaction(() => {
      if (this.generations.snapshots() !== this.snapshotGeneration) this.reset();
      this.snapshots.delete(id);
      this.snapshotGeneration = this.generations.snapshots();
    })();
    this.chains.delete(stored.symbol);
    this.forgetOlder(stored.symbol);
    this.emitter.emit('snapshots', stored.symbol);
    return ok({ id, symbol: stored.symbol, quoteTime: stored.quoteTime });
  }

  // ------------------------------------------------------------ reads

  private today(): string {
    return todayIn(NEW_YORK, nowDate(this.clock));
  }

  /**
   * The snapshot a request names (`snapshot=`, `at=`), or the symbol's newest; prepared. A chain not yet in memory is
   * prepared in the exposure worker (a 21k-contract SPX chain takes about 60 ms: never on the event loop).
   */
  private async loaded(symbolParam: string, selector: SnapshotSelector = {}, attempt = 0): Promise<Result<LoadedChain>> {
    const symbol = symbolParam.toUpperCase();
    this.refresh();
    let id: number | null;
    if (selector.snapshot !== undefined) {
      id = selector.snapshot;
    } else if (selector.at !== undefined) {
      id = this.snapshots.atOrBefore(symbol, instantBound(selector.at, 'end'));
      if (id === null && this.snapshots.latest(symbol) !== null) return failure({ kind: 'unknown-snapshot', symbol, at: selector.at });
    } else {
      id = this.chains.get(symbol)?.snapshotId ?? this.snapshots.latest(symbol)?.id ?? null;
    }
    // Unknown symbols are not remembered: a client cycling through names would grow the maps.
    if (id === null) return failure({ kind: 'unknown-symbol', symbol, known: this.snapshots.symbols() });
    const newest = this.chains.get(symbol);
    if (newest?.snapshotId === id) return ok(newest);
    const cached = this.older.get(id);
    if (cached !== undefined) return ok(cached);
    const stored = this.snapshots.byId(id);
    // A snapshot of another symbol is as unknown as one that does not exist: ids are not a way around `symbol`.
    if (stored === null || stored.symbol !== symbol) return failure({ kind: 'unknown-snapshot', symbol, id });
    const epoch = this.epoch;
    const loaded = await this.prepare(stored);
    if (epoch !== this.epoch) {
      // Prepared across a reset (another process's snapshots, a new rate r): prepared again, so that no answer of the
      // old chain is kept after the listeners dropped theirs; resets one after another are not waited out forever.
      return attempt < 2 ? this.loaded(symbol, selector, attempt + 1) : ok(loaded);
    }
    if (this.snapshots.latest(symbol)?.id === id) this.chains.set(symbol, loaded);
    else this.older.set(id, loaded);
    return ok(loaded);
  }

  /** One preparation in the worker per snapshot, however many requests wait for it. */
  private prepare(stored: PackedSnapshot): Promise<LoadedChain> {
    const waiting = this.preparing.get(stored.id);
    if (waiting !== undefined) return waiting;
    const pending: Promise<LoadedChain> = this.worker
      .call('prepare', stored, this.settings().rate)
      .then((chain) => loadedFrom(stored.id, chain))
      .finally(() => {
        // A reset may have let another preparation of the same snapshot start meanwhile: that one stays.
        if (this.preparing.get(stored.id) === pending) this.preparing.delete(stored.id);
      });
    this.preparing.set(stored.id, pending);
    return pending;
  }

  /** The expirations of a scope on a loaded chain, unknown explicit ones as the domain error. */
  private scope(loaded: LoadedChain, query: GexScopeQuery): Result<string[]> {
    return resolveExpirations(loaded, 'expirations', () => resolveScope(loaded.chain, query));
  }

  /**
   * A /gex-like answer on the snapshot and scope a query names; its key names the snapshot, the formula and the
   * resolved expirations.
   */
  async gexAnswer<T>(kind: string, query: GexQuery, compute: (loaded: LoadedChain, options: { expirations: string[]; formula: Formula; exact: true }) => T): Promise<Result<PlannedAnswer<T>>> {
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
   * scope) in gex_history; the missing ones are computed in the exposure worker (never on this thread) and stored in
   * the background (exposure-history.ts): a read never waits for, nor fails on, another process's write lock.
   */
  async gexHistory(query: { symbol: string; from?: string; to?: string } & GexScopeQuery, writes: WriteQueue): Promise<Result<HistoryValue>> {
    const listed = this.snapshotList(query.symbol);
    if (!listed.ok) return listed;
    const from = query.from === undefined ? null : instantBound(query.from, 'start');
    const to = query.to === undefined ? null : instantBound(query.to, 'end');
    const heads = listed.value.filter((h) => (from === null || h.quoteTime >= from) && (to === null || h.quoteTime <= to)).reverse();
    const key = scopeKey(query);
    const points = this.historyPoints.find(
      heads.map((h) => h.id),
      key,
    );
    const missing = heads.filter((h) => !points.has(h.id));
    if (missing.length > 0) {
      const stored = missing.map((h) => this.snapshots.byId(h.id)).filter((row) => row !== null);
      const computed = await this.worker.call('historyPoints', stored, query, this.settings().rate);
      for (const { id, point } of computed) points.set(id, point);
      this.historyPoints.keep(key, computed, writes);
    }
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
    return this.eventStore.read({ ...query, limit: Math.min(query.limit ?? EVENTS_LIMIT_DEFAULT, EVENTS_LIMIT_CAP) }, this.today());
  }

  /** Sends an event stored outside an ingest (a position alert) to the listeners. */
  publishEvent = (event: ExposureEvent): boolean => this.emitter.emit('event', event);

  chainsList(): ChainSummary[] {
    return this.snapshots.summaries().map((s) => ({ symbol: s.symbol, spot: s.spot, quoteTime: s.quote_time, source: s.source, contracts: s.contracts, expirations: s.expirations, snapshots: s.snapshots }));
  }
}
