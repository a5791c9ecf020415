import type { Clock } from '../../clock';
import type { WriteQueue } from '../../db/writes';
import { DEFAULT_SETTINGS } from '../../settings';
import type { ImportRecord, ImportRequest, JournalSettings } from './service';
import { journalReads, journalWrites, type JournalHost, type JournalReads, type JournalWrites, type WriteCall } from './handlers';
import type { JournalCallMessage, WorkerInit } from './protocol';
import type { Result } from '../result';
import { movable, newJob, onProtocol, WorkerError, workerScript, type JobOptions } from '../worker-thread';
import { WorkerThread } from '../worker-calls';

/** A read of the handler map as the server calls it: the same arguments, less the worker's host; answered later. */
type ReadCall<F> = F extends (host: JournalHost, ...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
/** A write likewise, less the host and the write's own call record. */
type WriteCallOf<F> = F extends (host: JournalHost, call: WriteCall, ...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;

/**
 * The journal as the server uses it, derived from the handler map (handlers.ts): every call is answered by the
 * journal worker thread. An import is the one call with more: its client may go away (`signal`).
 */
export type JournalApi = { [K in keyof JournalReads]: ReadCall<JournalReads[K]> } & { [K in Exclude<keyof JournalWrites, 'importFile'>]: WriteCallOf<JournalWrites[K]> } & {
  importFile(request: ImportRequest, signal?: AbortSignal): Promise<Result<ImportRecord>>;
};

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

/** The bundle entry of the journal worker, and its source beside this module (see workerScript). */
const BASE_NAME = 'journal-worker';
const SOURCE = './worker.ts';

/** Where the journal worker's code is (see workerScript). */
export function journalWorkerScript(moduleUrl: string = import.meta.url): { script: URL; entry?: string } {
  return workerScript(BASE_NAME, moduleUrl, (message) => new WorkerError('journal', message), SOURCE);
}

/**
 * The server's side of the journal worker. A worker that dies (a crash, an out-of-memory) fails the calls it had
 * (JournalWorkerError: a 500 for the server) and is started again by the next call; SQLite rolled back whatever write it had begun, so an import
 * stays all or nothing.
 */
export class JournalWorkerClient {
  private readonly worker: WorkerThread;
  /** Times the worker stopped without being closed (a crash); the next call starts a new one. */
  unexpectedExits = 0;

  constructor(private readonly options: JournalClientOptions) {
    const init: WorkerInit = { dbPath: options.dbPath, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}), ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }) };
    this.worker = new WorkerThread({
      baseName: BASE_NAME,
      source: SOURCE,
      moduleUrl: options.moduleUrl ?? import.meta.url,
      workerData: { ...init },
      ...onProtocol('journal'),
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

  /**
   * Sends a call of the handler map. Reads are asked again of a new thread when theirs was ended to stop a stuck job;
   * writes are not.
   */
  call(method: string, args: unknown[], options: { write?: boolean; transfer?: ArrayBuffer[]; job?: JobOptions } = {}): Promise<unknown> {
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
        }) satisfies JournalCallMessage,
      transfer,
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

  /**
   * An import: parsed in the worker outside any write turn (a job: stopped when `signal` aborts, the server closes, or
   * `importTimeoutSeconds` pass from its start), then stored in one write turn. Bytes are moved to the worker when
   * they can be (see movable).
   */
  importFile(request: ImportRequest, signal?: AbortSignal): Promise<Result<ImportRecord>> {
    const job = newJob(this.options.timeoutSeconds?.() ?? DEFAULT_SETTINGS.importTimeoutSeconds, signal);
    return this.call('importFile', [request], { write: true, transfer: movable(request.text), job }) as Promise<Result<ImportRecord>>;
  }

  /** Stops the imports in flight (the server is closing): see WorkerThread.stopAll. */
  stopJobs(): void {
    this.worker.stopAll('closing');
  }

  /** Closes the worker's connection and ends the thread (after the calls in flight). */
  close(): Promise<void> {
    return this.worker.close(() => this.call('closeDatabase', []));
  }
}

/** The calls of a handler map as methods that send them (the one place their types meet the untyped wire). */
function derive<T>(names: string[], send: (method: string, args: unknown[]) => Promise<unknown>): T {
  return Object.fromEntries(names.map((name) => [name, (...args: unknown[]) => send(name, args)])) as T;
}

export type JournalClient = JournalWorkerClient & JournalApi;

/** The journal worker's client with a method for each call of the handler map (handlers.ts). */
export function createJournalClient(options: JournalClientOptions): JournalClient {
  const client = new JournalWorkerClient(options);
  const reads = derive<Omit<JournalApi, keyof JournalWrites>>(Object.keys(journalReads), (method, args) => client.call(method, args));
  const writes = derive<Omit<JournalApi, keyof JournalReads | 'importFile'>>(
    Object.keys(journalWrites).filter((name) => name !== 'importFile'),
    (method, args) => client.call(method, args, { write: true }),
  );
  return Object.assign(client, reads, writes);
}
