import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { systemClock } from '../clock';
import { writeBackup } from './backups';
import { checkDatabaseFile, databaseFiles, DataFolderError, isPermissionError, lockedAtStart, prepareDataFolder, refuseSymlinks, secureFile, writeProblem } from './data-folder';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations/index';

export { DataFolderError } from './data-folder';

export class DatabaseVersionError extends DataFolderError {
  constructor(
    readonly fileVersion: number,
    readonly appVersion: number,
    path: string,
  ) {
    super(
      `The database ${path} was written by a newer Strikebook (schema version ${fileVersion}; this version knows ` +
        `up to ${appVersion}). Update Strikebook, or point --data-dir at another folder. The file was not changed.`,
      path,
    );
    this.name = 'DatabaseVersionError';
  }
}

/**
 * Page cache of a connection at rest (negative = KiB); imports raise it for their transaction. Small: reads are
 * served from memory (the journal index and ledger), and the few pages read by id come from the OS's cache as fast
 * (docs/decisions.md §Benchmarks, server.rss_mb).
 */
export const DEFAULT_CACHE_KIB = -2048;
/**
 * Page cache of the server's own connection: keys, settings, chain snapshots (one blob each) and events. The
 * journal's pages are read by the worker's connection, which keeps DEFAULT_CACHE_KIB.
 */
export const SERVER_CACHE_KIB = -2048;
export const IMPORT_CACHE_KIB = -65536;
/** How long opening (and migrating) waits for another process's write lock: start-up serves no request yet. */
const OPEN_BUSY_TIMEOUT_MS = 5000;

export interface OpenOptions {
  /** Path of a better-sqlite3 native addon built for another ABI (Electron). */
  nativeBinding?: string;
  /** Apply migrations up to this version only (tests of a single migration). */
  targetVersion?: number;
  /**
   * SQLite's busy_timeout once open. better-sqlite3 waits for a lock synchronously, blocking its thread, so the
   * server's connection uses 0 (a busy lock is retried asynchronously or answered 503, see db/writes.ts); the CLI,
   * which has no event loop to protect, may wait.
   */
  busyTimeoutMs?: number;
}

export interface OpenResult {
  db: Db;
  /** Path of the backup written before migrating, if any. */
  backupPath: string | null;
  migratedFrom: number;
}

/** The settings every connection to the journal uses (the server's, the journal worker's, the CLI's). */
export function configureConnection(db: Db, busyTimeoutMs: number, cacheKib = DEFAULT_CACHE_KIB): void {
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  setBusyTimeout(db, busyTimeoutMs);
  setCacheSize(db, cacheKib);
}

/** Sets the connection's page cache (negative = KiB). */
export function setCacheSize(db: Db, cacheKib: number): void {
  db.pragma(`cache_size = ${cacheKib}`);
}

/** How long the connection waits for another's lock (0: never; see OpenOptions.busyTimeoutMs). */
export function setBusyTimeout(db: Db, busyTimeoutMs: number): void {
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
}

/** Gives the pages of the connection's cache back to the system (after an import). */
export function shrinkMemory(db: Db): void {
  db.pragma('shrink_memory');
}

/**
 * Another connection to a database that this process opened, checked and migrated already (the journal worker's):
 * it only joins the file, and never waits on a lock synchronously (busy writes are retried asynchronously).
 */
export function joinDatabase(path: string, nativeBinding?: string, maxPages?: number): Db {
  const db = new Database(path, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  configureConnection(db, 0);
  if (maxPages !== undefined) setMaxPages(db, maxPages);
  return db;
}

/**
 * The most pages this connection lets the database grow to; past it a write fails with SQLITE_FULL, the error a full
 * disk gives. Tests simulate a full disk with it (docs/decisions.md, "A full disk"); the app never sets it.
 */
export function setMaxPages(db: Db, maxPages: number): void {
  db.pragma(`max_page_count = ${Math.max(1, Math.floor(maxPages))}`);
}

/**
 * Opens the database: an existing file is checked first (header, quick_check, read-only), so that a damaged file
 * stops the start with a clear message and is never written to; a new file is created 0600 before SQLite opens it
 * (its -wal and -shm inherit that mode). Then WAL mode, the backup and the migrations.
 */
export function openDatabase(path: string, options: OpenOptions = {}): OpenResult {
  const memory = path === ':memory:';
  // Before anything reads or writes them: a link would make SQLite (and the chmods below) work on its target.
  if (!memory) refuseSymlinks(databaseFiles(path));
  if (!memory && !existsSync(dirname(path))) prepareDataFolder(dirname(path));
  const existed = !memory && existsSync(path);
  if (existed) checkDatabaseFile(path, options.nativeBinding);
  if (!memory) secureFile(path, [`${path}-wal`, `${path}-shm`]);
  let db: Db;
  try {
    db = new Database(path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  } catch (error) {
    throw isPermissionError(error) ? writeProblem(path, error) : error;
  }
  try {
    configureConnection(db, OPEN_BUSY_TIMEOUT_MS);
    db.pragma('journal_mode = WAL');
    const target = options.targetVersion ?? LATEST_VERSION;
    const current = userVersion(db);
    if (current > LATEST_VERSION) throw new DatabaseVersionError(current, LATEST_VERSION, path);
    let backupPath: string | null = null;
    if (current < target) {
      if (existed && current > 0) backupPath = backup(db, path);
      migrate(db, MIGRATIONS.filter((m) => m.version > current && m.version <= target));
    }
    setBusyTimeout(db, options.busyTimeoutMs ?? 0);
    return { db, backupPath, migratedFrom: current };
  } catch (error) {
    db.close();
    if (error instanceof DataFolderError) throw error;
    if (isPermissionError(error)) throw writeProblem(path, error);
    if (error instanceof Error && 'code' in error && /^SQLITE_(?:BUSY|LOCKED)/.test(String(error.code))) throw lockedAtStart(path);
    throw error;
  }
}

/** The database's size in pages. */
export function pageCount(db: Db): number {
  const value = db.pragma('page_count', { simple: true });
  return typeof value === 'number' ? value : 0;
}

export function userVersion(db: Db): number {
  const value = db.pragma('user_version', { simple: true });
  return typeof value === 'number' ? value : 0;
}

/**
 * A consistent copy of the file before any schema change, in the backups folder beside it (backups.ts, reason
 * `migration`; pruned with the others at the next backup). Its schema version is the old one: it opens, and restores,
 * as the file was.
 */
function backup(db: Db, path: string): string {
  return writeBackup(db, dirname(path), 'migration', systemClock.nowMs(), Number.POSITIVE_INFINITY).path;
}

/** All pending migrations in one transaction: either the schema is fully upgraded or untouched. */
function migrate(db: Db, pending: readonly Migration[]): void {
  const run = db.transaction(() => {
    for (const migration of pending) {
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }
  });
  run();
}

/**
 * SQLite's data_version changes when another connection commits: the caches of the server compare it to
 * notice writes by the CLI. The value is read at most every `maxAgeMs` (a write by another process is seen
 * within that time), so that requests do not pay a SQLite call each.
 */
export function dataVersionReader(db: Db, maxAgeMs = 25): () => number {
  const statement = db.prepare<[], number>('PRAGMA data_version').pluck();
  let value = statement.get() ?? 0;
  let readAtMs = performance.now();
  return () => {
    const now = performance.now();
    if (now - readAtMs >= maxAgeMs) {
      value = statement.get() ?? value;
      readAtMs = now;
    }
    return value;
  };
}
