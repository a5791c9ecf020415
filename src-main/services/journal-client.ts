import type { PerformanceResult, YearResult } from '../../src-shared/journal/index';
import type { Account } from '../../src-shared/journal/model';
import type { Clock } from '../clock';
import type { WriteQueue } from '../db/writes';
import { DEFAULT_SETTINGS } from '../settings';
import type { BookRequest, CampaignsRequest, ChainDetail, ChainsResult, ImportRecord, ImportRequest, JournalService, JournalSettings, Pagination, PerformanceRequest, PositionsResult, TransactionFilter, TransactionsPage, WithJournal } from './journal';
import { fromWire, JournalWorkerError, type CallMessage, type ReplyMessage, type WorkerInit } from './journal-protocol';
import type { JournalReads, JournalWrites } from './journal-worker';
import type { Result } from './result';
import type { FormatPreview } from './import-formats';
import type { ManualAdded } from './manual-entries';
import type { ManualTransactionT } from '../../src-shared/api/manual-schemas';
import type { AnnotationInput, AnnotationResult, StatsRequest, StatsResult, TradesRequest, TradesResult } from './journal-trades';
import type { AnnotationKind } from '../db/annotations';
import { movable, newJob, WorkerThread, workerScript, type JobOptions } from './worker-thread';

/** The journal as the server uses it: every call is answered by the journal worker thread. */
export interface JournalApi {
  importFile(request: ImportRequest, signal?: AbortSignal): Promise<Result<ImportRecord>>;
  store(...args: Parameters<JournalService['store']>): Promise<ImportRecord>;
  undoImport(id: number): Promise<Result<{ id: number; removed: number }>>;
  redate(timeZone: string): Promise<number>;
  /** Manual entries (services/manual-entries.ts): one import of kind manual; edits and deletes of manual rows only. */
  addTransactions(rows: ManualTransactionT[]): Promise<Result<ManualAdded>>;
  replaceTransaction(id: string, row: ManualTransactionT): Promise<Result<{ id: string; importId: number }>>;
  deleteTransaction(id: string): Promise<Result<{ id: string; importId: number; importRemoved: boolean }>>;
  listImports(query?: { page?: number; limit?: number }): Promise<{ imports: ImportRecord[]; pagination: Pagination }>;
  transactions(query: TransactionFilter): Promise<TransactionsPage>;
  performance(query: PerformanceRequest): Promise<Result<WithJournal<PerformanceResult>>>;
  summary(year: number | undefined, accountId?: string): Promise<Result<WithJournal<YearResult>>>;
  positions(query: BookRequest): Promise<Result<WithJournal<PositionsResult>>>;
  chains(query: CampaignsRequest): Promise<Result<WithJournal<ChainsResult>>>;
  chain(id: string, asOf: string | undefined): Promise<Result<ChainDetail>>;
  accounts(): Promise<Account[]>;
  /** Trades and their stats (journal-trades.ts); notes and tags on a trade or a campaign, through the write lane. */
  trades(query: TradesRequest): Promise<Result<WithJournal<TradesResult>>>;
  tradeStats(query: StatsRequest): Promise<Result<WithJournal<StatsResult>>>;
  annotate(kind: AnnotationKind, id: string, input: AnnotationInput): Promise<Result<AnnotationResult>>;
  /** The Import page's mapping step (parsed in the worker: a preview can be half a megabyte of text). */
  previewFormat(request: Parameters<JournalService['previewFormat']>[0]): Promise<Result<FormatPreview>>;
  /** Drops the worker's caches (after a settings change the ledger depends on). */
  invalidate(): Promise<void>;
  /** Builds the worker's index and ledger now, so that the first journal read is fast. */
  warm(): Promise<void>;
  /** Resolves once the worker has started and opened the database (start-up fails early if it cannot). */
  ready(): Promise<void>;
}

export interface JournalClientOptions {
  dbPath: string;
  nativeBinding?: string;
  /** The process's write turns: a worker write holds one from when it is ready to write until it is done. */
  writes: WriteQueue;
  /** The time limit of an import's parse (the setting importTimeoutSeconds; default its default). */
  timeoutSeconds?: () => number;
  settings: () => JournalSettings;
  /** "Now" of every call (the worker has no clock of its own). */
  clock: Clock;
  log?: (line: string) => void;
  /** The module the worker is found beside (default: this one); tests point it at a bundle's entry. */
  moduleUrl?: string;
  /** A ceiling on the database's pages for the worker's connection (tests simulate a full disk with it). */
  maxPages?: number;
}

/** Where the journal worker's code is (see workerScript). */
export function journalWorkerScript(moduleUrl: string = import.meta.url): { script: URL; entry?: string } {
  return workerScript('journal-worker', moduleUrl, (message) => new JournalWorkerError(message));
}

type Tail<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

/**
 * The server's side of the journal worker. A worker that dies (a crash, an out-of-memory) fails the calls it had
 * (JournalWorkerError: a 500 for the server) and is started again by the next call; SQLite rolled back whatever write it had begun, so an import
 * stays all or nothing.
 */
export class JournalWorkerClient implements JournalApi {
  private readonly worker: WorkerThread<ReplyMessage>;
  /** Times the worker stopped without being closed (a crash); the next call starts a new one. */
  unexpectedExits = 0;

  constructor(private readonly options: JournalClientOptions) {
    const init: WorkerInit = { dbPath: options.dbPath, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}), ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }) };
    this.worker = new WorkerThread<ReplyMessage>({
      baseName: 'journal-worker',
      moduleUrl: options.moduleUrl ?? import.meta.url,
      workerData: { ...init },
      fail: (message) => new JournalWorkerError(message),
      settle: (reply) => (reply.ok ? { ok: true, value: reply.value } : { ok: false, error: fromWire(reply.error) }),
      stopped: (cause) => `The journal worker stopped (${cause}); a write it had begun was rolled back. It starts again with the next request.`,
      onCrash: (cause, failedCalls) => {
        this.unexpectedExits += 1;
        options.log?.(`[journal worker] stopped (${cause}); ${failedCalls} call(s) failed; it restarts on the next call`);
      },
      onTurn: (id) => this.grantTurn(id),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
  }

  /** The running worker thread, if any (tests use it to simulate a crash). */
  get thread() {
    return this.worker.thread;
  }

  private call(method: string, args: unknown[], options: { write?: boolean; transfer?: ArrayBuffer[]; job?: JobOptions } = {}): Promise<unknown> {
    const { timeZone, reportingCurrency, rate, markMaxAgeDays } = this.options.settings();
    const settings = { timeZone, reportingCurrency, rate, markMaxAgeDays };
    const { write, transfer = [], job } = options;
    return this.worker.send(
      (id) =>
        ({
          type: 'call',
          id,
          method,
          args,
          settings,
          nowMs: this.options.clock.nowMs(),
          ...(write === true ? { write } : {}),
          ...(job === undefined ? {} : { flag: job.flag }),
        }) satisfies CallMessage,
      transfer,
      // Reads are asked again of a new thread when theirs was ended to stop a stuck job; writes are not.
      { retry: write !== true, ...(job === undefined ? {} : { job }) },
    );
  }

  /**
   * The worker asks for a write turn when a write is ready (an import after its parse): the turn is held from the
   * grant until the write leaves the worker (its reply, or the thread's end), never while a file is parsed. A job
   * stopped meanwhile is refused its turn.
   */
  private grantTurn(id: number): void {
    this.options.writes
      .exclusive(async (deadlineMs) => {
        if (!this.worker.inFlight(id) || this.worker.stopped(id)) {
          this.worker.deny(id);
          return;
        }
        this.worker.grant(id, deadlineMs);
        await this.worker.left(id);
      })
      .catch((error: unknown) => this.options.log?.(`[journal worker] write turn failed: ${String(error)}`));
  }

  private read<K extends keyof JournalReads>(method: K, ...args: Parameters<JournalReads[K]>): Promise<Awaited<ReturnType<JournalReads[K]>>> {
    return this.call(method, args) as Promise<Awaited<ReturnType<JournalReads[K]>>>;
  }

  /** A write: queued in the worker's write lane; it takes one of the process's write turns when it is ready to write. */
  private write<K extends keyof JournalWrites>(method: K, args: Tail<Parameters<JournalWrites[K]>>, options: { transfer?: ArrayBuffer[]; job?: JobOptions } = {}): Promise<Awaited<ReturnType<JournalWrites[K]>>> {
    return this.call(method, args, { write: true, ...options }) as Promise<Awaited<ReturnType<JournalWrites[K]>>>;
  }

  /**
   * An import: parsed in the worker outside any write turn (a job: stopped when `signal` aborts, the server closes, or
   * `importTimeoutSeconds` pass from its start), then stored in one write turn. Bytes are moved to the worker when
   * they can be (see movable).
   */
  importFile(request: ImportRequest, signal?: AbortSignal) {
    const job = newJob(this.options.timeoutSeconds?.() ?? DEFAULT_SETTINGS.importTimeoutSeconds, signal);
    return this.write('importFile', [request], { transfer: movable(request.text), job });
  }
  store(...args: Parameters<JournalService['store']>) {
    return this.write('store', args);
  }
  undoImport(id: number) {
    return this.write('undoImport', [id]);
  }
  redate(timeZone: string) {
    return this.write('redate', [timeZone]);
  }
  addTransactions(rows: ManualTransactionT[]) {
    return this.write('addTransactions', [rows]);
  }
  replaceTransaction(id: string, row: ManualTransactionT) {
    return this.write('replaceTransaction', [id, row]);
  }
  deleteTransaction(id: string) {
    return this.write('deleteTransaction', [id]);
  }
  listImports(query: { page?: number; limit?: number } = {}) {
    return this.read('listImports', query);
  }
  transactions(query: TransactionFilter) {
    return this.read('transactions', query);
  }
  performance(query: PerformanceRequest) {
    return this.read('performance', query);
  }
  summary(year: number | undefined, accountId?: string) {
    return this.read('summary', year, accountId);
  }
  positions(query: BookRequest) {
    return this.read('positions', query);
  }
  chains(query: CampaignsRequest) {
    return this.read('chains', query);
  }
  chain(id: string, asOf: string | undefined) {
    return this.read('chain', id, asOf);
  }
  accounts() {
    return this.read('accounts');
  }
  trades(query: TradesRequest) {
    return this.read('trades', query);
  }
  tradeStats(query: StatsRequest) {
    return this.read('tradeStats', query);
  }
  annotate(kind: AnnotationKind, id: string, input: AnnotationInput) {
    return this.write('annotate', [kind, id, input]);
  }
  previewFormat(request: Parameters<JournalService['previewFormat']>[0]) {
    return this.read('previewFormat', request);
  }
  async invalidate() {
    await this.read('invalidate');
  }
  async warm() {
    await this.read('warm');
  }
  async ready() {
    await this.read('ping');
  }

  /** Stops the imports in flight (the server is closing): see WorkerThread.stopAll. */
  stopJobs(): void {
    this.worker.stopAll('closing');
  }

  /** Closes the worker's connection and ends the thread (after the calls in flight). */
  close(): Promise<void> {
    return this.worker.close(() => this.read('close'));
  }
}
