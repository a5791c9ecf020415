import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations/index';

export class DatabaseVersionError extends Error {
  constructor(
    readonly fileVersion: number,
    readonly appVersion: number,
    readonly path: string,
  ) {
    super(
      `The database ${path} was written by a newer Strikebook (schema version ${fileVersion}; this version knows ` +
        `up to ${appVersion}). Update Strikebook, or point --data-dir at another folder. The file was not changed.`,
    );
    this.name = 'DatabaseVersionError';
  }
}

/** Page cache of a connection at rest (negative = KiB); imports raise it for their transaction. */
export const DEFAULT_CACHE_KIB = -8192;
export const IMPORT_CACHE_KIB = -65536;

export interface OpenOptions {
  /** Path of a better-sqlite3 native addon built for another ABI (Electron). */
  nativeBinding?: string;
  /** Apply migrations up to this version only (tests of a single migration). */
  targetVersion?: number;
  readonly?: boolean;
}

export interface OpenResult {
  db: Db;
  /** Path of the backup written before migrating, if any. */
  backupPath: string | null;
  migratedFrom: number;
}

export function openDatabase(path: string, options: OpenOptions = {}): OpenResult {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const existed = path !== ':memory:' && existsSync(path);
  const db = new Database(path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = ${DEFAULT_CACHE_KIB}`);
    const target = options.targetVersion ?? LATEST_VERSION;
    const current = userVersion(db);
    if (current > LATEST_VERSION) throw new DatabaseVersionError(current, LATEST_VERSION, path);
    let backupPath: string | null = null;
    if (current < target) {
      if (existed && current > 0) backupPath = backup(db, path, current);
      migrate(db, MIGRATIONS.filter((m) => m.version > current && m.version <= target));
    }
    return { db, backupPath, migratedFrom: current };
  } catch (error) {
    db.close();
    throw error;
  }
}

export function userVersion(db: Db): number {
  const value = db.pragma('user_version', { simple: true });
  return typeof value === 'number' ? value : 0;
}

/** A consistent copy of the file before any schema change: `<db>.v<version>.<timestamp>.bak`. */
function backup(db: Db, path: string, version: number): string {
  db.pragma('wal_checkpoint(TRUNCATE)');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${path}.v${version}.${stamp}.bak`;
  copyFileSync(path, target);
  return target;
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
  const statement = db.prepare('PRAGMA data_version').pluck();
  let value = statement.get() as number;
  let readAtMs = performance.now();
  return () => {
    const now = performance.now();
    if (now - readAtMs >= maxAgeMs) {
      value = statement.get() as number;
      readAtMs = now;
    }
    return value;
  };
}
