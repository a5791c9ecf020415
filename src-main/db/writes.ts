import type { Database } from 'better-sqlite3';

/** Seconds a client is told to wait (Retry-After) when another process holds the database's write lock. */
export const BUSY_RETRY_AFTER_SECONDS = 2;
/** How long a write waits for the lock (queued behind our own writes, then retrying SQLite) before it gives up. */
export const DEFAULT_WRITE_WAIT_MS = 2000;

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

/** Runs `fn` in the transaction just begun (`BEGIN IMMEDIATE` succeeded): commit, or roll back on any error. */
function inTransaction<T>(db: Database, fn: () => T): T {
  let value: T;
  try {
    value = fn();
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  db.exec('COMMIT');
  return value;
}

/**
 * One write transaction: the write lock is taken first (BEGIN IMMEDIATE, retried while another process holds it,
 * see retryWhileBusy), so `fn` runs once, holding the lock, and nothing is done before the lock is ours; then
 * COMMIT, or ROLLBACK if `fn` throws. Transactions inside `fn` (better-sqlite3's db.transaction) become savepoints.
 */
export async function writeTransaction<T>(db: Database, fn: () => T, deadlineMs: number): Promise<T> {
  await retryWhileBusy(() => db.exec('BEGIN IMMEDIATE'), deadlineMs);
  return inTransaction(db, fn);
}

/**
 * Serialises the writes of this process: the server's own connection (settings, keys, chain snapshots, the
 * key-usage flush) and the journal worker's jobs (imports, undo, re-dating) take turns, so they never meet each
 * other's lock, and SQLITE_BUSY can only mean that another process is writing. Waiting is asynchronous.
 */
export class WriteQueue {
  private locked = false;
  private readonly waiting: Array<() => void> = [];

  /** `db`: this thread's connection, for run(). */
  constructor(private readonly db: Database) {}

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
   * A write on this thread's connection, as one transaction (see writeTransaction). When nothing else writes and
   * the lock is free it runs at once, before `run` returns (a caller that reads its own write right away sees it);
   * otherwise it waits its turn, asynchronously.
   */
  run<T>(fn: () => T, waitMs = DEFAULT_WRITE_WAIT_MS): Promise<T> {
    if (!this.locked) {
      try {
        this.db.exec('BEGIN IMMEDIATE');
      } catch (error) {
        if (!isBusyError(error)) return Promise.reject(error);
        return this.exclusive((deadlineMs) => writeTransaction(this.db, fn, deadlineMs), waitMs);
      }
      try {
        return Promise.resolve(inTransaction(this.db, fn));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.exclusive((deadlineMs) => writeTransaction(this.db, fn, deadlineMs), waitMs);
  }
}
