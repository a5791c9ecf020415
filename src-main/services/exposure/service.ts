import type { Database } from 'better-sqlite3';
import type { Formula } from '../../../src-shared/api/constants';
import type { ChainSnapshot } from '../../../src-shared/exposure/model';
import type { SnapshotId } from '../../../src-shared/ids';
import type { Clock } from '../../clock';
import { ExposureStateRepository } from '../../db/exposure-state';
import { GexHistoryRepository } from '../../db/gex-history';
import { SnapshotRepository } from '../../db/snapshots';
import type { WriteQueue, WriteTx } from '../../db/writes';
import type { Settings } from '../../settings';
import type { ExposureEvent, GexQuery, IngestResult, LoadedSnapshot, NewestSnapshot, PlannedAnswer, SnapshotsListener } from './values';
import { ExposureWorkerClient } from './worker-client';
import { HistoryPoints } from './history';
import { HistoryPool } from './history-pool';
import { ChainCache } from './chain-cache';
import { ChainIngest, type IngestInput } from './ingest';
import { EventStore } from './events';
import { exposureReads, gexAnswer, type BoundRead, type ExposureReadHost, type ExposureReads } from './reads';
import { failure, ok, type Result } from '../result';
import { movable, newJob } from '../worker-thread';
import type { ChainFormat } from '../../chains/index';
import type { ChainFileDate } from './peek';
import type { LakeFileDate } from './lake-plan';

export type { ChainFileOptions, GexScopeQuery } from './compute';
export type { IngestInput } from './ingest';
export type { GexGridQuery, GexGridValue } from './reads';
export * from './values';

/**
 * Chains, exposure answers and events: this class composes the chain cache (chain-cache.ts), the ingest (ingest.ts)
 * and the reads (reads.ts, each bound here to the stores it runs on). The answers computed are the HTTP layer's to cache (it hears of every
 * change from `changes`). The heavy work of a chain file and of history points runs in the exposure worker. Its
 * writes take their own turns of the process's write queue.
 */
export class ExposureService {
  readonly snapshots: SnapshotRepository;
  /** The events, states and comparisons (events.ts); position alerts store theirs through it too. */
  readonly eventStore: EventStore;
  private readonly worker: ExposureWorkerClient;
  /** What the reads run on (reads.ts). */
  private readonly reader: ExposureReadHost;
  /** The workers of cold history points (read by tests). */
  readonly historyPool: HistoryPool;
  /** The prepared chains, and the snapshots' changes for those who keep answers computed on them. */
  readonly changes: ChainCache;
  private readonly ingester: ChainIngest;

  constructor(
    private readonly db: Database,
    private readonly settings: () => Pick<Settings, 'rate' | 'snapshotRetention' | 'snapshotRetentionBySymbol' | 'importTimeoutSeconds'>,
    clock: Clock,
    private readonly writes: WriteQueue,
    log?: (line: string) => void,
  ) {
    this.snapshots = new SnapshotRepository(db);
    this.eventStore = new EventStore(db);
    const history = new GexHistoryRepository(db);
    const historyPoints = new HistoryPoints(history, log);
    this.worker = new ExposureWorkerClient(log);
    this.historyPool = new HistoryPool(this.worker, () => new ExposureWorkerClient(log), (id) => this.snapshots.byId(id));
    this.changes = new ChainCache(db, this.snapshots, this.worker, () => this.settings().rate);
    const stores = { db, snapshots: this.snapshots, states: new ExposureStateRepository(db), events: this.eventStore, history };
    this.ingester = new ChainIngest(stores, this.changes, this.worker, writes, settings, clock);
    this.reader = { snapshots: this.snapshots, chains: this.changes, events: this.eventStore, historyPoints, historyPool: this.historyPool, writes, rate: () => this.settings().rate, clock };
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

  /**
   * Deletes one snapshot and its history points, in a write turn of its own. Events and the confirmed states stay:
   * they record what was seen when that snapshot arrived (docs/exposure.md, "Deleting a snapshot").
   */
  deleteSnapshot(id: SnapshotId): Promise<Result<{ id: number; symbol: string; quoteTime: string }>> {
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

  // ------------------------------------------------------------ reads (reads.ts)

  readonly snapshotList: BoundRead<ExposureReads['snapshotList']> = (...args) => exposureReads.snapshotList(this.reader, ...args);
  readonly snapshotById: BoundRead<ExposureReads['snapshotById']> = (...args) => exposureReads.snapshotById(this.reader, ...args);
  readonly snapshotSummaries: BoundRead<ExposureReads['snapshotSummaries']> = () => exposureReads.snapshotSummaries(this.reader);
  readonly gex: BoundRead<ExposureReads['gex']> = (...args) => exposureReads.gex(this.reader, ...args);
  readonly gexProfile: BoundRead<ExposureReads['gexProfile']> = (...args) => exposureReads.gexProfile(this.reader, ...args);
  readonly gexGrid: BoundRead<ExposureReads['gexGrid']> = (...args) => exposureReads.gexGrid(this.reader, ...args);
  readonly gexHistory: BoundRead<ExposureReads['gexHistory']> = (...args) => exposureReads.gexHistory(this.reader, ...args);
  readonly scopePoints: BoundRead<ExposureReads['scopePoints']> = (...args) => exposureReads.scopePoints(this.reader, ...args);
  readonly gexDiff: BoundRead<ExposureReads['gexDiff']> = (...args) => exposureReads.gexDiff(this.reader, ...args);
  readonly vanna: BoundRead<ExposureReads['vanna']> = (...args) => exposureReads.vanna(this.reader, ...args);
  readonly expirations: BoundRead<ExposureReads['expirations']> = (...args) => exposureReads.expirations(this.reader, ...args);
  readonly events: BoundRead<ExposureReads['events']> = (...args) => exposureReads.events(this.reader, ...args);
  readonly explanations: BoundRead<ExposureReads['explanations']> = (...args) => exposureReads.explanations(this.reader, ...args);
  readonly recentPositionAlerts: BoundRead<ExposureReads['recentPositionAlerts']> = () => exposureReads.recentPositionAlerts(this.reader);
  readonly manageAlerts: BoundRead<ExposureReads['manageAlerts']> = (...args) => exposureReads.manageAlerts(this.reader, ...args);

  /** A /gex-like answer of the caller's own (reads.ts, gexAnswer): cached by snapshot, formula and scope like /gex. */
  gexAnswer<T>(kind: string, query: GexQuery, compute: (loaded: LoadedSnapshot, options: { expirations: string[]; formula: Formula; exact: true }) => T): Promise<Result<PlannedAnswer<T>>> {
    return gexAnswer(this.reader, kind, query, compute);
  }
}
