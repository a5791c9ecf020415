/**
 * The server's backups of the journal (docs/architecture.md §Reliability and security; the files: db/backups.ts): a
 * daily one (at the start when the newest is older than a day, then checked every hour), one before every undo of an
 * import and every delete, and one when asked (Settings, `POST /v1/backups`), the newest `backupsKept` kept. Each runs
 * in a backup worker thread of its own (backup-worker.ts), one at a time: SQLite's VACUUM INTO of a large journal takes
 * a second or more, and the event loop is the desktop window's. A restore asked for in the app is checked here and
 * staged: the running server holds the journal open, so the backup is put in place at the next start.
 */
import { Worker } from 'node:worker_threads';
import type { Clock } from '../clock';
import { statSync } from 'node:fs';
import { backupsFolder, backupsFolderProblem, listBackups, pendingRestore, stageRestore, writeBackup, type BackupFile, type BackupReason } from '../db/backups';
import type { Settings } from '../settings';
import type { BackupWorkerData } from './backup-worker';
import { describeError, failure, ok, type Result } from './result';
import { fromWire, WorkerError, workerScript, type ReplyMessage } from './worker-thread';

/** The daily backup is due when the newest is older than this. */
export const DAILY_MS = 24 * 60 * 60 * 1000;
/** How often a running server looks whether the daily backup is due. */
const CHECK_EVERY_MS = 60 * 60 * 1000;

export interface BackupsOptions {
  dbPath: string;
  dataDir: string;
  settings: () => Pick<Settings, 'backupsKept'>;
  clock: Clock;
  nativeBinding?: string;
  log?: (line: string) => void;
  /** The module the worker is found beside (default: this one); tests point it at a bundle's entry. */
  moduleUrl?: string;
  /**
   * A journal smaller than this (the file and its -wal) is copied on this thread: a few milliseconds, less than a
   * worker thread takes to start. Default INLINE_BELOW_BYTES; tests set 0 to take the worker's path.
   */
  inlineBelowBytes?: number;
}

/** Below this, VACUUM INTO takes a few milliseconds (about 5 ms for 2 MB): no thread is started for it. */
export const INLINE_BELOW_BYTES = 2 * 1024 * 1024;

export interface BackupsListing {
  folder: string;
  keep: number;
  backups: BackupFile[];
  /** The backup a restore staged for the next start, or null. */
  pendingRestore: string | null;
}

export class Backups {
  /** The backups run one after another: each waits for the one before it. */
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private readonly workers = new Set<Worker>();
  private closed = false;

  constructor(private readonly options: BackupsOptions) {}

  /** Takes the daily backup if it is due, and looks again every hour. */
  start(): void {
    if (this.timer !== null || this.closed) return;
    const check = () => {
      void this.dailyIfDue().catch((error: unknown) => this.options.log?.(`[backups] the daily backup failed: ${error instanceof Error ? error.message : String(error)}`));
    };
    this.timer = setInterval(check, CHECK_EVERY_MS);
    this.timer.unref();
    check();
  }

  /** The daily backup, when the newest backup (of any reason) is older than a day; null when none was due. */
  async dailyIfDue(): Promise<BackupFile | null> {
    const newest = listBackups(this.options.dataDir)[0];
    if (newest !== undefined && this.options.clock.nowMs() - Date.parse(newest.createdAt) < DAILY_MS) return null;
    const taken = await this.backup('daily');
    if (!taken.ok) throw new Error(describeError(taken.error));
    return taken.value;
  }

  /**
   * A backup now (after the one under way, if any): in a worker thread, or here for a small journal. A backups folder
   * that cannot take it (a link, a file in its place) is a conflict naming it; a full disk is thrown (507).
   */
  backup(reason: BackupReason): Promise<Result<BackupFile>> {
    const run = this.queue.then(async (): Promise<Result<BackupFile>> => {
      const problem = backupsFolderProblem(this.options.dataDir);
      if (problem !== null) return failure({ kind: 'conflict', param: 'backups', detail: `No backup was taken: ${problem}` });
      const atMs = this.options.clock.nowMs();
      const keep = this.options.settings().backupsKept;
      if (this.bytes() < (this.options.inlineBelowBytes ?? INLINE_BELOW_BYTES)) return ok(writeBackup(this.options.dbPath, this.options.dataDir, reason, atMs, keep, this.options.nativeBinding));
      return ok(await this.inWorker<BackupFile>({ op: 'backup', dbPath: this.options.dbPath, dataDir: this.options.dataDir, reason, atMs, keep }));
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The backup before a change that deletes (an undo of an import, a deleted transaction): the change waits for it, and
   * does not happen when it fails.
   */
  before(reason: Extract<BackupReason, 'undo' | 'delete'>): Promise<Result<BackupFile>> {
    return this.backup(reason);
  }

  /** The journal's size on disk: the file and its -wal. */
  private bytes(): number {
    let total = 0;
    for (const file of [this.options.dbPath, `${this.options.dbPath}-wal`]) total += statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    return total;
  }

  list(): BackupsListing {
    return { folder: backupsFolder(this.options.dataDir), keep: this.options.settings().backupsKept, backups: listBackups(this.options.dataDir), pendingRestore: pendingRestore(this.options.dataDir) };
  }

  /**
   * A restore of one of the listed backups (named: a request never names a path), checked now in a worker (SQLite's
   * integrity check, a schema version this Strikebook knows) and put in place at the next start.
   */
  async stageRestore(name: string): Promise<Result<{ name: string; pendingRestore: string }>> {
    const backup = listBackups(this.options.dataDir).find((file) => file.name === name);
    if (backup === undefined) return failure({ kind: 'not-found', what: 'backup', id: name });
    const checked = await this.inWorker<{ ok: true; schemaVersion: number } | { ok: false; problem: string }>({ op: 'check', path: backup.path });
    if (!checked.ok) return failure({ kind: 'conflict', param: 'name', detail: `${checked.problem}; nothing was changed.` });
    stageRestore(this.options.dataDir, name);
    return ok({ name, pendingRestore: name });
  }

  private inWorker<T>(data: BackupWorkerData): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the server is stopping: no backup was taken'));
    const { script, entry } = workerScript('backup-worker', this.options.moduleUrl ?? import.meta.url, (message) => new WorkerError('backup', message));
    const worker = new Worker(script, {
      workerData: { ...data, ...(this.options.nativeBinding === undefined ? {} : { nativeBinding: this.options.nativeBinding }), ...(entry === undefined ? {} : { entry }) },
      name: 'strikebook-backup',
    });
    this.workers.add(worker);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      worker.on('message', (message: ReplyMessage) => {
        settled = true;
        if (message.ok) resolve(message.value as T);
        else reject(fromWire(message.error, 'backup'));
      });
      worker.on('error', (error: Error) => {
        settled = true;
        reject(error);
      });
      worker.on('exit', (code) => {
        this.workers.delete(worker);
        // Ended without its answer (terminated as the server stops): the backups before it are whole.
        if (!settled) reject(new WorkerError('backup', `the backup stopped (exit code ${code}); the backups before it are whole`));
      });
    });
  }

  /** Stops the timer and the backup under way (the backups before it are whole; its temporary file goes at the next). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await Promise.all([...this.workers].map((worker) => worker.terminate()));
    await this.queue;
  }
}
