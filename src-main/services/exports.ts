/**
 * Research exports started from the server (`POST /v1/exports`, Settings → Export for research): each runs in a lake
 * worker thread of its own (lake-worker.ts, on the workers' WorkerThread), one at a time, and reports its progress here for `GET /v1/exports/{id}`.
 * Where it writes: `<data folder>/exports`, or a folder the desktop app's dialog granted (grantFolder), never a path
 * an HTTP request names, so a key holder cannot make the server write elsewhere. Bounded: one running export, the
 * last MAX_JOBS kept, MAX_GRANTS folders.
 */
import type { Database } from 'better-sqlite3';
import { asTicker } from '../../src-shared/ids';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { nowIso, type Clock } from '../clock';
import { LakeRepository } from '../db/lake';
import { SnapshotRepository } from '../db/snapshots';
import type { ExportProgress, ExportRequest, ExportSummary } from './lake/export';
import { exportFolderProblem } from '../lake/folder';
import type { LakeProgressMessage, LakeWorkerData, LakeWorkerMethods } from './lake-worker';
import { describeError, failure, ok, type Result } from './result';
import { WorkerThread } from './worker-calls';
import { JobStoppedError, onProtocol, type CallMessage } from './worker-thread';

export const EXPORTS_DIR = 'exports';
/** Finished exports remembered for GET /v1/exports. */
export const MAX_JOBS = 20;
/** Folders granted by the desktop dialog (the newest kept). */
export const MAX_GRANTS = 16;

export interface ExportStart {
  symbol?: string;
  from?: string;
  to?: string;
  /** A granted folder's id (grantFolder); default the data folder's exports/. */
  folder?: string;
}

export interface ExportJob {
  id: string;
  state: 'running' | 'done' | 'failed';
  out: string;
  symbol: string | null;
  from: string | null;
  to: string | null;
  startedAt: string;
  finishedAt: string | null;
  progress: { snapshotsDone: number; snapshotsTotal: number | null; rowsWritten: number };
  summary: Omit<ExportSummary, 'out'> | null;
  error: string | null;
}

export interface ExportJobsOptions {
  db: Database;
  dbPath: string;
  dataDir: string;
  rate: () => number;
  clock: Clock;
  nativeBinding?: string;
  log?: (line: string) => void;
  /** The module the worker is found beside (default: this one); tests point it at a bundle's entry. */
  moduleUrl?: string;
}

function isLakeProgress(message: unknown): message is LakeProgressMessage {
  return typeof message === 'object' && message !== null && 'type' in message && message.type === 'progress' && 'progress' in message;
}

export class ExportJobs {
  private readonly jobs = new Map<string, ExportJob>();
  private readonly grants = new Map<string, string>();
  /** The export under way (another is refused until it is done or failed). */
  private running: ExportJob | null = null;
  /** Lake worker threads not yet ended (one finishing its exit while the next export starts). */
  private readonly threads = new Set<{ thread: WorkerThread; ended: Promise<void> }>();

  constructor(private readonly options: ExportJobsOptions) {}

  /** The desktop app's dialog chose a folder: an id the renderer may name in POST /v1/exports. */
  grantFolder(path: string): { folder: string; path: string } {
    for (const [id, granted] of this.grants) if (granted === path) return { folder: id, path };
    const folder = randomBytes(12).toString('hex');
    this.grants.set(folder, path);
    while (this.grants.size > MAX_GRANTS) {
      const oldest = this.grants.keys().next();
      if (oldest.done === true) break;
      this.grants.delete(oldest.value);
    }
    return { folder, path };
  }

  /** Starts an export in a lake worker; refused while another runs, for an unknown symbol or folder. */
  start(request: ExportStart): Result<ExportJob> {
    if (this.running !== null) {
      return failure({ kind: 'conflict', param: 'exports', detail: `An export is running (${this.running.id}, ${this.running.progress.snapshotsDone} snapshots done); wait for it to finish.` });
    }
    const symbol = request.symbol === undefined ? undefined : asTicker(request.symbol);
    if (symbol !== undefined && !new LakeRepository(this.options.db).hasSymbol(symbol)) {
      return failure({ kind: 'unknown-symbol', symbol, known: new SnapshotRepository(this.options.db).symbols() });
    }
    const out = request.folder === undefined ? join(this.options.dataDir, EXPORTS_DIR) : this.grants.get(request.folder);
    if (out === undefined) return failure({ kind: 'not-found', what: 'export folder', id: request.folder ?? '' });
    // A link as the folder (exports/ pointing elsewhere), a file, /proc: refused before a worker starts; a link deeper
    // down stops the worker's export naming it (lake/folder.ts).
    const problem = exportFolderProblem(out);
    if (problem !== null) return failure({ kind: 'conflict', param: 'folder', detail: `The export folder cannot be written: ${problem}.` });
    const job: ExportJob = {
      id: randomBytes(8).toString('hex'),
      state: 'running',
      out,
      symbol: symbol ?? null,
      from: request.from ?? null,
      to: request.to ?? null,
      startedAt: nowIso(this.options.clock),
      finishedAt: null,
      progress: { snapshotsDone: 0, snapshotsTotal: null, rowsWritten: 0 },
      summary: null,
      error: null,
    };
    const exportRequest: ExportRequest = { out, ...(symbol === undefined ? {} : { symbol }), ...(request.from === undefined ? {} : { from: request.from }), ...(request.to === undefined ? {} : { to: request.to }) };
    const data: LakeWorkerData = { dbPath: this.options.dbPath, ...(this.options.nativeBinding === undefined ? {} : { nativeBinding: this.options.nativeBinding }) };
    const log = this.options.log;
    // A thread per export (the workers' protocol: worker-thread.ts), ended after it: its memory given back with it.
    const thread = new WorkerThread({
      baseName: 'lake-worker',
      moduleUrl: this.options.moduleUrl ?? import.meta.url,
      workerData: { ...data },
      ...onProtocol('lake'),
      // A worker that ends without its result (a crash, close()) fails the job; the files it wrote are whole.
      stopped: (cause) => `the export stopped (${cause}); the files it wrote are whole, export again to finish`,
      onOther: (message) => {
        if (isLakeProgress(message)) this.progress(job, message.progress);
      },
      ...(log === undefined ? {} : { log }),
    });
    const call: Parameters<LakeWorkerMethods['exportLake']> = [exportRequest, this.options.rate()];
    const ended = thread
      .send((id) => ({ type: 'call', id, method: 'exportLake', args: call }) satisfies CallMessage)
      .then(
        (result) => this.finish(job, result as Result<ExportSummary>),
        (error: unknown) => {
          // An error thrown in the worker (a bug, a full disk) or its thread's end fails the job, naming it.
          if (error instanceof JobStoppedError) {
            this.fail(job, 'the export stopped (the server is closing); the files it wrote are whole, export again to finish');
            return;
          }
          const failed = error instanceof Error ? error : new Error(String(error));
          log?.(`[lake worker] ${failed.stack ?? failed.message}`);
          this.fail(job, failed.message.startsWith('the export stopped') ? failed.message : `the export stopped: ${failed.message}`);
        },
      )
      .then(() => thread.close())
      .finally(() => this.threads.delete(entry));
    const entry = { thread, ended };
    this.threads.add(entry);
    this.running = job;
    this.remember(job);
    return ok(job);
  }

  private progress(job: ExportJob, progress: ExportProgress): void {
    job.progress = { snapshotsDone: progress.snapshotsDone, snapshotsTotal: progress.snapshotsTotal, rowsWritten: progress.rowsWritten };
  }

  private finish(job: ExportJob, result: Result<ExportSummary>): void {
    if (job.state !== 'running') return;
    if (this.running === job) this.running = null;
    job.finishedAt = nowIso(this.options.clock);
    if (result.ok) {
      const { out: _out, ...summary } = result.value;
      job.state = 'done';
      job.summary = summary;
    } else {
      job.state = 'failed';
      job.error = describeError(result.error);
    }
  }

  private fail(job: ExportJob, error: string): void {
    if (job.state !== 'running') return;
    if (this.running === job) this.running = null;
    job.state = 'failed';
    job.finishedAt = nowIso(this.options.clock);
    job.error = error;
  }

  private remember(job: ExportJob): void {
    this.jobs.set(job.id, job);
    for (const [id, kept] of this.jobs) {
      if (this.jobs.size <= MAX_JOBS) break;
      if (kept.state !== 'running') this.jobs.delete(id);
    }
  }

  get(id: string): Result<ExportJob> {
    const job = this.jobs.get(id);
    return job === undefined ? failure({ kind: 'not-found', what: 'export', id }) : ok(job);
  }

  /** The kept exports, newest first. */
  list(): ExportJob[] {
    return [...this.jobs.values()].reverse();
  }

  /** Stops a running export (its files written so far are whole) and waits for the threads to end. */
  async close(): Promise<void> {
    const threads = [...this.threads];
    await Promise.all(
      threads.map(async ({ thread, ended }) => {
        await thread.close();
        await ended;
      }),
    );
  }
}
