/**
 * `strikebook check` (docs/architecture.md §Reliability and security): the database's own integrity check and every
 * stored snapshot's payload decoded, on a read-only connection that changes nothing (the server may be running).
 * What is damaged is listed by name: SQLite's messages, and each snapshot whose contracts cannot be read, with how to
 * delete it. Backups and restores use the same integrity check (backups.ts).
 */
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';
import { PackedSnapshotError, unpackContracts } from './snapshot-payload';

/** SQLite's problems listed at most (integrity_check stops after this many). */
const MAX_INTEGRITY_PROBLEMS = 100;
const SQLITE_HEADER = 'SQLite format 3\u0000';

export interface DamagedSnapshot {
  id: number;
  symbol: string;
  quoteTime: string;
  reason: string;
}

export interface CheckReport {
  path: string;
  /** PRAGMA user_version: the schema version the file was written at. */
  schemaVersion: number;
  /** SQLite's integrity_check messages; empty when it said ok. */
  integrity: string[];
  /** Stored snapshots decoded. */
  snapshots: number;
  damaged: DamagedSnapshot[];
}

/** True when the file begins with SQLite's header (a file shorter than it is not a database). */
export function hasSqliteHeader(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, header, 0, header.length, 0);
    return read === header.length && header.toString('latin1') === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
}

/** PRAGMA integrity_check on a connection: its problems, [] when the file is sound. */
export function integrityProblems(db: Db, max = MAX_INTEGRITY_PROBLEMS): string[] {
  const rows = db.pragma(`integrity_check(${Math.max(1, Math.floor(max))})`, { simple: false }) as Array<{ integrity_check: string }>;
  return rows.map((row) => row.integrity_check).filter((text) => text !== 'ok');
}

export function schemaVersion(db: Db): number {
  const value = db.pragma('user_version', { simple: true });
  return typeof value === 'number' ? value : 0;
}

function hasTable(db: Db, name: string): boolean {
  return db.prepare<[string], number>("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(name) === 1;
}

/**
 * Every stored snapshot's payload decoded, one row at a time (a chain's blob is a few hundred KB; the iterator holds
 * one); those that cannot be read, by id.
 */
export function damagedSnapshots(db: Db, onProgress: (done: number) => void = () => undefined): { checked: number; damaged: DamagedSnapshot[] } {
  if (!hasTable(db, 'snapshots')) return { checked: 0, damaged: [] };
  const damaged: DamagedSnapshot[] = [];
  let checked = 0;
  const rows = db.prepare<[], { id: number; symbol: string; quote_time: string; payload: unknown }>('SELECT id, symbol, quote_time, payload FROM snapshots ORDER BY id').iterate();
  for (const row of rows) {
    checked += 1;
    try {
      if (!(row.payload instanceof Uint8Array)) throw new PackedSnapshotError('its payload is not a blob');
      unpackContracts(row.payload);
    } catch (error) {
      damaged.push({ id: row.id, symbol: String(row.symbol), quoteTime: String(row.quote_time), reason: error instanceof Error ? error.message : String(error) });
    }
    if (checked % 50 === 0) onProgress(checked);
  }
  return { checked, damaged };
}

/** The check of a database file, read-only: integrity, then the snapshots (skipped when the file is not sound). */
export function checkDatabase(path: string, nativeBinding?: string, onProgress?: (done: number) => void): CheckReport {
  const db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.pragma('busy_timeout = 5000');
    const integrity = integrityProblems(db);
    const report: CheckReport = { path, schemaVersion: schemaVersion(db), integrity, snapshots: 0, damaged: [] };
    try {
      const snapshots = damagedSnapshots(db, onProgress);
      report.snapshots = snapshots.checked;
      report.damaged = snapshots.damaged;
    } catch (error) {
      // A table too damaged to read row by row: integrity_check has said why.
      report.integrity.push(`the snapshots could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    return report;
  } finally {
    db.close();
  }
}
