import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PerformanceResult, YearResult } from '../../src-shared/journal/index';
import type { Account } from '../../src-shared/journal/model';
import type { Clock } from '../clock';
import type { WriteQueue } from '../db/writes';
import type { BookRequest, ChainDetail, ChainsResult, ImportRecord, ImportRequest, JournalService, JournalSettings, Pagination, PerformanceRequest, PositionsResult, TransactionFilter, TransactionsPage, WithJournal } from './journal';
import { fromWire, JournalWorkerError, type CallMessage, type ReplyMessage, type WorkerInit } from './journal-protocol';
import type { JournalReads, JournalWrites } from './journal-worker';
import type { Result } from './result';
import type { FormatPreview } from './import-formats';

/** The journal as the server uses it: every call is answered by the journal worker thread. */
export interface JournalApi {
  importFile(request: ImportRequest): Promise<Result<ImportRecord>>;
  store(...args: Parameters<JournalService['store']>): Promise<ImportRecord>;
  undoImport(id: number): Promise<Result<{ id: number; removed: number }>>;
  redate(timeZone: string): Promise<number>;
  listImports(query?: { page?: number; limit?: number }): Promise<{ imports: ImportRecord[]; pagination: Pagination }>;
  transactions(query: TransactionFilter): Promise<TransactionsPage>;
  performance(query: PerformanceRequest): Promise<Result<WithJournal<PerformanceResult>>>;
  summary(year: number | undefined, accountId?: string): Promise<Result<WithJournal<YearResult>>>;
  positions(query: BookRequest): Promise<Result<WithJournal<PositionsResult>>>;
  chains(query: BookRequest & { status?: 'open' | 'closed' }): Promise<Result<WithJournal<ChainsResult>>>;
  chain(id: string, asOf: string | undefined): Promise<Result<ChainDetail>>;
  accounts(): Promise<Account[]>;
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
  /** The process's write turns: a worker write holds one for its whole job. */
  writes: WriteQueue;
  settings: () => JournalSettings;
  /** "Now" of every call (the worker has no clock of its own). */
  clock: Clock;
  log?: (line: string) => void;
  /** The module the worker is found beside (default: this one); tests point it at a bundle's entry. */
  moduleUrl?: string;
}

/**
 * Where the worker's code is. From the TypeScript sources (vitest, tsx, the bench) this module is a `.ts` file and
 * the worker starts through ts-worker.mjs, which registers tsx in the new thread. From a bundle (out/node/cli.mjs
 * by scripts/build-node.mjs, out/main/*.js by electron-vite) the worker is an entry of its own beside it.
 */
export function journalWorkerScript(moduleUrl: string = import.meta.url): { script: URL; entry?: string } {
  // Names in variables: bundlers must not treat these URLs as assets to copy.
  const tsBootstrap = './ts-worker.mjs';
  const tsEntry = './journal-worker.ts';
  if (moduleUrl.endsWith('.ts')) return { script: new URL(tsBootstrap, moduleUrl), entry: new URL(tsEntry, moduleUrl).href };
  const bundled = ['./journal-worker.mjs', './journal-worker.js'].map((name) => new URL(name, moduleUrl));
  const found = bundled.find((url) => existsSync(fileURLToPath(url)));
  if (found === undefined) throw new JournalWorkerError(`The journal worker is missing: none of ${bundled.map((url) => fileURLToPath(url)).join(', ')} exists (rebuild the bundle).`);
  return { script: found };
}

/** Young-generation cap of a worker thread's heap (see start()); the exposure worker takes the same. */
export const WORKER_YOUNG_GENERATION_MB = 8;

type Pending = { worker: Worker; resolve: (value: unknown) => void; reject: (error: Error) => void };
type Tail<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

/**
 * The server's side of the journal worker. A worker that dies (a crash, an out-of-memory) fails the calls it had
 * (JournalWorkerError: a 500 for the server) and is started again by the next call; SQLite rolled back whatever write it had begun, so an import
 * stays all or nothing.
 */
export class JournalWorkerClient implements JournalApi {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private lastError: Error | null = null;
  /** Times the worker stopped without being closed (a crash); the next call starts a new one. */
  unexpectedExits = 0;

  constructor(private readonly options: JournalClientOptions) {}

  /** The running worker thread, if any (tests use it to simulate a crash). */
  get thread(): Worker | null {
    return this.worker;
  }

  private start(): Worker {
    const { script, entry } = journalWorkerScript(this.options.moduleUrl);
    const init: WorkerInit = { dbPath: this.options.dbPath, ...(this.options.nativeBinding ? { nativeBinding: this.options.nativeBinding } : {}) };
    const worker = new Worker(script, {
      workerData: entry === undefined ? init : { ...init, entry },
      name: 'strikebook-journal',
      // The journal allocates in bursts (an import, a ledger rebuild); V8's default young generation (up to 3 × 16 MB
      // per isolate) stays committed after them and cost the server 14 MB of RSS, with no gain in speed.
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    // Only calls in flight keep the process alive (see call()); an idle worker never does.
    worker.unref();
    this.lastError = null;
    worker.on('message', (message: ReplyMessage) => this.settle(message));
    worker.on('error', (error: Error) => {
      this.lastError = error;
      this.options.log?.(`[journal worker] ${error.stack ?? error.message}`);
    });
    worker.on('exit', (code) => this.exited(worker, code));
    return worker;
  }

  private settle(message: ReplyMessage): void {
    const call = this.pending.get(message.id);
    if (call === undefined) return;
    this.pending.delete(message.id);
    this.unrefWhenIdle(call.worker);
    if (message.ok) call.resolve(message.value);
    else call.reject(fromWire(message.error));
  }

  private unrefWhenIdle(worker: Worker): void {
    for (const call of this.pending.values()) if (call.worker === worker) return;
    worker.unref();
  }

  private exited(worker: Worker, code: number): void {
    if (this.worker === worker) this.worker = null;
    const cause = this.lastError?.message ?? `exit code ${code}`;
    const failed = [...this.pending].filter(([, call]) => call.worker === worker);
    for (const [id, call] of failed) {
      this.pending.delete(id);
      call.reject(new JournalWorkerError(`The journal worker stopped (${cause}); a write it had begun was rolled back. It starts again with the next request.`));
    }
    if (!this.closed) {
      this.unexpectedExits += 1;
      this.options.log?.(`[journal worker] stopped (${cause}); ${failed.length} call(s) failed; it restarts on the next call`);
    }
  }

  private call(method: string, args: unknown[], deadlineMs?: number, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.closed) return Promise.reject(new JournalWorkerError('The journal is closed.'));
    let worker: Worker;
    try {
      worker = this.worker ?? (this.worker = this.start());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new JournalWorkerError(String(error)));
    }
    const id = this.nextId;
    this.nextId += 1;
    const { timeZone, reportingCurrency, rate } = this.options.settings();
    const message: CallMessage = { type: 'call', id, method, args, settings: { timeZone, reportingCurrency, rate }, nowMs: this.options.clock.nowMs(), ...(deadlineMs === undefined ? {} : { deadlineMs }) };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { worker, resolve, reject });
      worker.ref();
      worker.postMessage(message, transfer);
    });
  }

  private read<K extends keyof JournalReads>(method: K, ...args: Parameters<JournalReads[K]>): Promise<Awaited<ReturnType<JournalReads[K]>>> {
    return this.call(method, args) as Promise<Awaited<ReturnType<JournalReads[K]>>>;
  }

  /** A write holds one of the process's write turns from sending until the worker's answer (or its death). */
  private write<K extends keyof JournalWrites>(method: K, args: Tail<Parameters<JournalWrites[K]>>, transfer: ArrayBuffer[] = []): Promise<Awaited<ReturnType<JournalWrites[K]>>> {
    return this.options.writes.exclusive((deadlineMs) => this.call(method, args, deadlineMs, transfer)) as Promise<Awaited<ReturnType<JournalWrites[K]>>>;
  }

  /**
   * An upload given as bytes is moved to the worker, not copied, when it owns its whole memory (a large Buffer
   * does; a small one may share Node's pool, which must not be taken from this thread: those are copied).
   */
  importFile(request: ImportRequest) {
    const file = request.text;
    const movable = typeof file !== 'string' && file.buffer instanceof ArrayBuffer && file.byteOffset === 0 && file.byteLength === file.buffer.byteLength;
    return this.write('importFile', [request], movable ? [file.buffer] : []);
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
  chains(query: BookRequest & { status?: 'open' | 'closed' }) {
    return this.read('chains', query);
  }
  chain(id: string, asOf: string | undefined) {
    return this.read('chain', id, asOf);
  }
  accounts() {
    return this.read('accounts');
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

  /** Closes the worker's connection and ends the thread (after the calls in flight). */
  async close(): Promise<void> {
    const worker = this.worker;
    if (worker === null || this.closed) {
      this.closed = true;
      return;
    }
    try {
      await this.read('close');
    } catch {
      // A worker that cannot close cleanly is ended all the same; SQLite rolls back what it had open.
    }
    this.closed = true;
    await worker.terminate();
  }
}
