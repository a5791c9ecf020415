import type { Database } from 'better-sqlite3';

/** Seconds a client is told to wait (Retry-After) when another process holds the database's write lock. */
export const BUSY_RETRY_AFTER_SECONDS = 2;
/** How long a write waits for the lock (queued behind our own writes, then retrying SQLite) before it gives up. */
export const DEFAULT_WRITE_WAIT_MS = 2000;
/** A background write (WriteQueue.background) looks for the lock this often while another process holds it... */
export const BACKGROUND_RETRY_MS = 1000;
/** ...for this long, then drops what it had to write (it is only a cache: it is computed again when asked for). */
export const BACKGROUND_GIVE_UP_MS = 5 * 60_000;

/** better-sqlite3's error for a lock held elsewhere: SQLITE_BUSY (and its extended codes) or SQLITE_LOCKED. */
export function isBusyError(error: unknown): boolean {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && /^SQLITE_(?:BUSY|LOCKED)/.test(error.code);
}

/**
 * A write gave up waiting for another process's lock; nothing of it was written. The server answers 503
 * DATABASE_BUSY with Retry-After (server/problems.ts), the CLI says so and exits 1.
 */
export class DatabaseBusyError extends Error {
  constructor() {
    super('Another program holds the write lock of the database (the strikebook command importing, a backup tool); nothing was changed. Try again shortly.');
    this.name = 'DatabaseBusyError';
  }
}

/** A write that met another process's lock: our own give-up, or SQLite's answer where nothing retried it. */
export function isDatabaseBusy(error: unknown): boolean {
  return error instanceof DatabaseBusyError || isBusyError(error);
}

/**
 * The disk is full (or the database may not grow): SQLite's SQLITE_FULL, the system's ENOSPC or EDQUOT, or the
 * journal worker's report of one. The write was rolled back: the server answers 507 STORAGE_FULL, the CLI says so.
 */
export class StorageFullError extends Error {
  constructor(detail = '') {
    super(`The disk is full: nothing was stored${detail === '' ? '' : ` (${detail})`}. Free some space on the disk of the data folder and try again.`);
    this.name = 'StorageFullError';
  }
}

export function isStorageFull(error: unknown): boolean {
  if (error instanceof StorageFullError) return true;
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
  return /^SQLITE_FULL/.test(code) || code === 'ENOSPC' || code === 'EDQUOT';
}

declare const writeTurn: unique symbol;

/**
 * Proof that the code holding it runs inside a write transaction on this thread's connection, with the process's
 * write turn (the habit of Signal-Desktop's WritableDB): a function that writes in its caller's transaction takes it
 * as its first parameter (`turn: WriteTx`), so a caller without a turn cannot call it, and the types say which
 * functions write. Only this file makes one: writeTransaction, writeNow and WriteQueue's run/transaction/background
 * hand it to their callback, and it proves something only during that call (never keep one). It carries nothing;
 * reads take none (docs/architecture.md, "How to take a write turn").
 */
export interface WriteTx {
  readonly [writeTurn]: true;
}

/** The parameters of a writing function after its token: what a caller that takes the turn for it passes on. */
export type AfterTurn<F> = F extends (turn: WriteTx, ...rest: infer Rest) => unknown ? Rest : never;

/** The one token: its type, not its value, is the proof (the brand's symbol is declared, never exported). */
const WRITE_TX = Object.freeze({}) as WriteTx;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `attempt` until SQLite stops answering busy, pausing asynchronously between tries (growing pauses, up to
 * `deadlineMs` on the Date.now() clock): the thread never spins on the lock (busy_timeout stays 0) and serves
 * other work in between. After the deadline: DatabaseBusyError. Other errors pass through at once.
 */
export async function retryWhileBusy<T>(attempt: () => T, deadlineMs: number): Promise<T> {
  let pauseMs = 10;
  for (;;) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusyError(error)) throw error;
      const leftMs = deadlineMs - Date.now();
      if (leftMs <= 0) throw new DatabaseBusyError();
      await sleep(Math.min(pauseMs, leftMs));
      pauseMs = Math.min(pauseMs * 2, 200);
    }
  }
}

/**
 * Runs `fn` in the transaction just begun (`BEGIN IMMEDIATE` succeeded): commit, or roll back on any error. A COMMIT
 * can fail too (a full disk: the WAL is written at the commit); SQLite may leave the transaction open then, and an
 * open transaction would hold the lock and refuse every later BEGIN, so it is rolled back here.
 */
function inTransaction<T>(db: Database, fn: (turn: WriteTx) => T): T {
  let value: T;
  try {
    value = fn(WRITE_TX);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  return value;
}

/**
 * One write transaction: the write lock is taken first (BEGIN IMMEDIATE, retried while another process holds it,
 * see retryWhileBusy), so `fn` runs once, holding the lock, and nothing is done before the lock is ours; then
 * COMMIT, or ROLLBACK if `fn` throws. Transactions inside `fn` (better-sqlite3's db.transaction) become savepoints.
 */
export async function writeTransaction<T>(db: Database, fn: (turn: WriteTx) => T, deadlineMs: number): Promise<T> {
  await retryWhileBusy(() => db.exec('BEGIN IMMEDIATE'), deadlineMs);
  return inTransaction(db, fn);
}

/**
 * A write transaction begun now, on this thread, outside the write queue (BEGIN IMMEDIATE; the connection's
 * busy_timeout is its only wait; inside a transaction already, a savepoint): for writes where no queue takes turns —
 * the start-up before the server's queue exists (the key file's first key), the CLI's key commands, tests setting rows
 * up. A server's writes go through its WriteQueue, a worker's through writeTransaction.
 */
export function writeNow<T>(db: Database, fn: (turn: WriteTx) => T): T {
  return db.transaction(() => fn(WRITE_TX)).immediate();
}

/**
 * Serialises the writes of this process: the server's own connection (settings, keys, chain snapshots, the
 * key-usage flush) and the journal worker's jobs (imports, undo, re-dating) take turns, so they never meet each
 * other's lock, and SQLITE_BUSY can only mean that another process is writing. Waiting is asynchronous.
 */
export class WriteQueue {
  private locked = false;
  private readonly waiting: Array<() => void> = [];
  private readonly rollbackListeners = new Set<() => void>();

  /**
   * `db`: this thread's connection, for run() and transaction(). `waitMs`: run()'s wait for another process's lock
   * when its caller names none; 0 where the connection's own busy_timeout does the waiting (the CLI's 30 s), so a
   * write is not retried after it.
   */
  constructor(
    private readonly db: Database,
    private readonly waitMs = DEFAULT_WRITE_WAIT_MS,
  ) {}

  /**
   * Called after a transaction on this thread's connection was rolled back (its function threw, or its COMMIT failed):
   * what a service changed in memory inside it may describe rows that were never stored.
   */
  onRollback(listener: () => void): () => void {
    this.rollbackListeners.add(listener);
    return () => this.rollbackListeners.delete(listener);
  }

  /** A transaction on this thread's connection inside a turn held with exclusive() (see writeTransaction). */
  async transaction<T>(fn: (turn: WriteTx) => T, deadlineMs: number, onCommit?: (value: T) => void): Promise<T> {
    await retryWhileBusy(() => this.db.exec('BEGIN IMMEDIATE'), deadlineMs);
    return this.committed(fn, onCommit);
  }

  /** `fn` in the transaction begun; `onCommit` right after its COMMIT succeeded (in memory what is now stored). */
  private committed<T>(fn: (turn: WriteTx) => T, onCommit?: (value: T) => void): T {
    let value: T;
    try {
      value = inTransaction(this.db, fn);
    } catch (error) {
      for (const listener of this.rollbackListeners) listener();
      throw error;
    }
    onCommit?.(value);
    return value;
  }

  private acquire(): Promise<void> {
    if (!this.locked) {
      this.locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    // The turn passes straight to the next in line; it is free only when nobody waits.
    if (next) next();
    else this.locked = false;
  }

  /**
   * Holds the turn for an asynchronous job (the worker's write) and passes it the deadline (Date.now() clock) by
   * which its busy retries must end. The wait counts from the call: time queued behind our own writes is part of
   * it, but a job that reaches its turn late still gets one attempt.
   */
  async exclusive<T>(job: (deadlineMs: number) => Promise<T>, waitMs = DEFAULT_WRITE_WAIT_MS): Promise<T> {
    const deadlineMs = Date.now() + waitMs;
    await this.acquire();
    try {
      return await job(deadlineMs);
    } finally {
      this.release();
    }
  }

  /**
   * A write nobody waits for (docs/decisions.md, "A database locked by another process"): tried at once without
   * waiting for another process's lock; while that lock is held, tried again every `retryMs` until `giveUpMs` after
   * the call, then dropped. Resolves true once stored, false when dropped (busy all along, or `fn` threw: `onError`
   * hears of anything but a busy database). Never rejects.
   */
  background(fn: (turn: WriteTx) => void, options: { retryMs?: number; giveUpMs?: number; onError?: (error: unknown) => void } = {}): Promise<boolean> {
    const retryMs = options.retryMs ?? BACKGROUND_RETRY_MS;
    const giveUpAtMs = Date.now() + (options.giveUpMs ?? BACKGROUND_GIVE_UP_MS);
    return new Promise((resolve) => {
      const attempt = () => {
        this.run(fn, 0).then(
          () => resolve(true),
          (error: unknown) => {
            if (!isDatabaseBusy(error)) options.onError?.(error);
            if (isDatabaseBusy(error) && Date.now() + retryMs <= giveUpAtMs) setTimeout(attempt, retryMs).unref();
            else resolve(false);
          },
        );
      };
      attempt();
    });
  }

  /**
   * A write on this thread's connection, as one transaction (see writeTransaction). When nothing else writes and
   * the lock is free it runs at once, before `run` returns (a caller that reads its own write right away sees it);
   * otherwise it waits its turn, asynchronously. `onCommit` runs right after the COMMIT, never after a rollback:
   * the place to change what is kept in memory.
   */
  run<T>(fn: (turn: WriteTx) => T, waitMs = this.waitMs, onCommit?: (value: T) => void): Promise<T> {
    if (!this.locked) {
      try {
        this.db.exec('BEGIN IMMEDIATE');
      } catch (error) {
        if (!isBusyError(error)) return Promise.reject(error);
        if (waitMs <= 0) return Promise.reject(new DatabaseBusyError());
        return this.exclusive((deadlineMs) => this.transaction(fn, deadlineMs, onCommit), waitMs);
      }
      try {
        return Promise.resolve(this.committed(fn, onCommit));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.exclusive((deadlineMs) => this.transaction(fn, deadlineMs, onCommit), waitMs);
  }
}
