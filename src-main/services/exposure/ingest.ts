/**
 * Storing a chain snapshot (docs/exposure.md): planned (parsed, prepared, packed, its events evaluated) in the
 * exposure worker for a chain file, or inline for a parsed snapshot (the demo, the lake import); then stored with its
 * events, confirmed states and default history point in one transaction, and the symbol's prepared chain replaced.
 */
import type { Database } from 'better-sqlite3';
import { asTicker } from '../../../src-shared/ids';
import { EventEmitter } from 'node:events';
import { BOOK_SCOPE, evaluateSnapshotEvents, type ConfirmedState } from '../../../src-shared/exposure/index';
import type { EventReportJson } from '../../../src-shared/api/event-schemas';
import type { ChainSnapshot } from '../../../src-shared/exposure/model';
import { NEW_YORK, todayIn } from '../../../src-shared/zone';
import { nowDate, nowIso, type Clock } from '../../clock';
import type { ExposureStateRepository } from '../../db/exposure-state';
import type { GexHistoryRepository } from '../../db/gex-history';
import type { SnapshotRepository } from '../../db/snapshots';
import type { WriteQueue, WriteTx } from '../../db/writes';
import type { Settings } from '../../settings';
import { failure, ok, type Result } from '../result';
import { snapshotProblems } from '../../chains/common';
import { movable, newJob } from '../worker-thread';
import type { ChainCache } from './chain-cache';
import { aheadPoints, DEFAULT_SCOPE, historyPoint, planIngest, statesJson, type ChainFileOptions, type IngestBasis, type IngestPlan } from './compute';
import type { EventStore } from './events';
import { loadedFrom, type ExposureEvent, type IngestResult, type NewestSnapshot } from './values';
import type { BasisData } from './worker';
import type { ExposureWorkerClient } from './worker-client';

/**
 * What `ingest` stores: a chain file (its text, or its UTF-8 bytes, and how to read it) or a parsed snapshot. `quiet`
 * (a backfill's snapshots older than its newest): stored with their events, but nothing is streamed and no position
 * alert is evaluated on them (docs/exposure.md §Chains that arrive by themselves). `prune: false` keeps the symbol's
 * older snapshots beyond the retention (the demo's snapshots at its trades' entries, older than its market day: the
 * next snapshot stored the usual way prunes as always).
 */
export type IngestInput = ({ file: string | Uint8Array; options: ChainFileOptions } | { snapshot: ChainSnapshot; prune?: false } | { lakeFile: Uint8Array }) & { quiet?: boolean };

/** What storing a snapshot touches. */
export interface IngestStores {
  db: Database;
  snapshots: SnapshotRepository;
  states: ExposureStateRepository;
  /** Events, confirmed states and comparisons (events.ts). */
  events: EventStore;
  history: GexHistoryRepository;
}

export class ChainIngest {
  private readonly emitter = new EventEmitter();

  constructor(
    private readonly stores: IngestStores,
    private readonly cache: ChainCache,
    private readonly worker: ExposureWorkerClient,
    private readonly writes: WriteQueue,
    private readonly settings: () => Pick<Settings, 'rate' | 'snapshotRetention' | 'snapshotRetentionBySymbol' | 'importTimeoutSeconds'>,
    private readonly clock: Clock,
  ) {
    this.emitter.setMaxListeners(0);
  }

  onEvent(listener: (event: ExposureEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /** A snapshot became its symbol's newest (after its transaction): position alerts are evaluated on it. */
  onNewestSnapshot(listener: (snapshot: NewestSnapshot) => void): () => void {
    this.emitter.on('newest', listener);
    return () => this.emitter.off('newest', listener);
  }

  /** Sends an event stored outside an ingest (a position alert) to the listeners. */
  publishEvent(event: ExposureEvent): void {
    this.emitter.emit('event', event);
  }

  /** Snapshots kept for a symbol: its own setting, else the default (docs/exposure.md, "Retention"). */
  private retention(symbol: string): number {
    const settings = this.settings();
    return settings.snapshotRetentionBySymbol[symbol] ?? settings.snapshotRetention;
  }

  private basis(): IngestBasis {
    return {
      rate: this.settings().rate,
      states: (ticker) => this.confirmedStates(ticker),
      latestQuoteTime: (ticker) => this.stores.snapshots.latest(ticker)?.quoteTime ?? null,
    };
  }

  private confirmedStates(ticker: string): Map<string, ConfirmedState> {
    return new Map<string, ConfirmedState>(
      this.stores.states.forTicker(ticker).map((row) => [row.expiration, { zone: row.zone === 'negative' ? 'negative' : 'positive', callWallStrike: row.call_wall, putWallStrike: row.put_wall }]),
    );
  }

  /**
   * The one entry (docs/architecture.md, "How to take a write turn"): a chain file (POST /v1/chains, the online source,
   * the CLI) is planned in the exposure worker outside any write turn, as a job (docs/decisions.md §Jobs: stopped when
   * `signal` aborts, the server closes or importTimeoutSeconds pass); a parsed snapshot is planned inline (the demo's
   * chains have a few hundred contracts; the lake import runs in the CLI, no event loop to protect). Then committed in
   * a write turn of its own. The commit evaluates the events again if a snapshot of the ticker came in meanwhile
   * (applyEvents), so the plan needs no turn.
   */
  async ingest(input: IngestInput, signal?: AbortSignal): Promise<Result<IngestResult>> {
    const plan = 'snapshot' in input ? this.planSnapshot(input.snapshot) : 'lakeFile' in input ? await this.planLake(input.lakeFile, signal) : await this.planFile(input.file, input.options, signal);
    if (!plan.ok) return plan;
    // A rate changed while it was planned: the stored snapshot is right, its prepared chain is not kept.
    const prune = !('snapshot' in input) || input.prune !== false;
    return this.writes.run((turn) => this.commitPlan(turn, plan.value, plan.value.chain.rate !== this.settings().rate, input.quiet === true, prune));
  }

  /**
   * A snapshot planned inline and stored in the caller's transaction: for a batch that already holds a turn (many
   * snapshots in one transaction). When it is the symbol's newest, its events are evaluated and its prepared chain kept.
   */
  ingestInTurn(turn: WriteTx, snapshot: ChainSnapshot): Result<IngestResult> {
    const plan = this.planSnapshot(snapshot);
    return plan.ok ? this.commitPlan(turn, plan.value) : plan;
  }

  /**
   * A parsed snapshot planned inline, after the checks a chain file's contracts get (chains/common.ts,
   * snapshotProblems): the lake and the demo hand over snapshots no chain parser has seen.
   */
  private planSnapshot(snapshot: ChainSnapshot): Result<IngestPlan> {
    const problems = snapshotProblems(snapshot);
    if (problems.length > 0) return failure({ kind: 'file-refused', unsupported: false, detail: `The snapshot was not stored: ${problems[0] ?? ''}.`, problems: problems.map((message) => ({ line: null, message })) });
    return planIngest(snapshot, this.basis());
  }

  /** A chain file (text, or bytes moved there) planned in the exposure worker, as a job. */
  private planFile(file: string | Uint8Array, options: ChainFileOptions, signal: AbortSignal | undefined): Promise<Result<IngestPlan>> {
    const job = newJob(this.settings().importTimeoutSeconds, signal);
    return this.worker.job('planChainFile', job, movable(file), file, options, this.basisData(options.symbol));
  }

  /** A lake file (a backfill's, its bytes moved there) read back and planned in the exposure worker, as a job (lake-plan.ts). */
  private planLake(file: Uint8Array, signal: AbortSignal | undefined): Promise<Result<IngestPlan>> {
    const job = newJob(this.settings().importTimeoutSeconds, signal);
    return this.worker.job('planLakeFile', job, movable(file), file, this.basisData(undefined));
  }

  /** The basis as data for the worker: the states of the file's ticker (every ticker when the file names it). */
  private basisData(symbol: string | undefined): BasisData {
    const rows = symbol === undefined ? this.stores.states.all() : this.stores.states.forTicker(asTicker(symbol));
    const latest: Record<string, string> = {};
    for (const summary of this.stores.snapshots.summaries()) latest[summary.symbol] = summary.quote_time;
    return {
      rate: this.settings().rate,
      states: rows.map((row) => ({ ticker: row.ticker, expiration: row.expiration, state: { zone: row.zone === 'negative' ? 'negative' : 'positive', callWallStrike: row.call_wall, putWallStrike: row.put_wall } })),
      latest,
    };
  }

  /** Stores a planned snapshot with its events, states and default history point, in the caller's transaction. */
  private commitPlan(turn: WriteTx, plan: IngestPlan, rateChanged = false, quiet = false, prune = true): Result<IngestResult> {
    const { head } = plan;
    const symbol = head.symbol;
    const { snapshots, history } = this.stores;
    const created: ExposureEvent[] = [];
    let eventReport: EventReportJson | null = null;
    let newest = false;
    let pruned = false;
    const stored = this.stores.db.transaction(() =>
      // Snapshots another process stored before this write are not taken for ours (ChainCache.writing).
      this.cache.writing(() => {
        const row = snapshots.insert(turn, head, Buffer.from(plan.payload.buffer, plan.payload.byteOffset, plan.payload.byteLength), nowIso(this.clock), plan.digest);
        if (row.inserted) {
          const previousLatest = snapshots.latestQuoteTime(symbol, row.id);
          newest = previousLatest === null || head.quoteTime > previousLatest;
          if (newest) {
            const applied = this.applyEvents(turn, symbol, plan, previousLatest);
            created.push(...applied.created);
            eventReport = applied.report;
            this.cache.setNewest(symbol, rateChanged ? null : loadedFrom(row.id, plan.chain));
          }
          for (const { scope, point } of aheadPoints(plan.defaultPoint ?? historyPoint(plan.chain, DEFAULT_SCOPE))) history.insert(turn, row.id, scope, point);
          if (prune && snapshots.prune(turn, symbol, this.retention(symbol)) > 0) pruned = true;
        }
        return row;
      }),
    )();
    if (pruned) this.cache.forgetOlder(symbol);
    if (stored.inserted) this.cache.changed(symbol);
    if (!quiet) for (const event of created) this.emitter.emit('event', event);
    if (newest && !quiet) this.emitter.emit('newest', { symbol, snapshotId: stored.id, quoteTime: head.quoteTime, spot: head.spot } satisfies NewestSnapshot);
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
      events: created.length,
      eventsByScope: { expiration: created.filter((event) => event.expiration !== BOOK_SCOPE).length, book: created.filter((event) => event.expiration === BOOK_SCOPE).length },
      eventReport,
    });
  }

  /**
   * The plan's events and states when they were evaluated against the states stored now; else (another process
   * stored a snapshot of the ticker meanwhile) evaluated again here.
   */
  private applyEvents(turn: WriteTx, ticker: string, plan: IngestPlan, previousLatest: string | null): { created: ExposureEvent[]; report: EventReportJson } {
    const previous = this.confirmedStates(ticker);
    const planned = plan.evaluation;
    const current = planned !== null && planned.previousLatest === previousLatest && planned.basis === statesJson(previous) ? planned : null;
    const today = todayIn(NEW_YORK, nowDate(this.clock));
    return this.stores.events.record(turn, ticker, current ?? evaluateSnapshotEvents(ticker, plan.chain, previous), plan.head.quoteTime, today);
  }
}
