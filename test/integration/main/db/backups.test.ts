/**
 * Backups of the journal (issue 29, finding 9: "a journal of years lives in one SQLite file with no backup but the one
 * a migration takes"): VACUUM INTO copies into the data folder's backups/, the newest N kept, files 0600 in a 0700
 * folder, never through a link; a backup is checked before it replaces anything (SQLite's integrity check, a schema
 * version this Strikebook knows, its tables); a restore puts it in place with the journal it replaces backed up first
 * (or moved aside whole when it cannot be read), and leaves everything as it was when it refuses.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupName, checkBackup, listBackups, restoreBackup, writeBackup } from '../../../../src-main/db/backups';
import { DataFolderError } from '../../../../src-main/db/data-folder';
import { LATEST_VERSION } from '../../../../src-main/db/migrations/index';
import { openDatabase } from '../../../../src-main/db/open';
import { tempDir } from '../../../helper';

const T0 = Date.parse('2026-11-20T15:00:00Z');
const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

/** A data folder whose journal holds `rows` settings k0, k1, … (data to tell one state from another). */
function journal(rows = 3): { dataDir: string; dbPath: string; db: Database.Database } {
  const dataDir = tempDir();
  const dbPath = join(dataDir, 'strikebook.db');
  const { db } = openDatabase(dbPath);
  opened.push(db);
  addKeys(db, 0, rows);
  return { dataDir, dbPath, db };
}

function addKeys(db: Database.Database, from: number, count: number): void {
  const insert = db.prepare("INSERT INTO settings (key, value) VALUES (?, '1')");
  for (let i = from; i < from + count; i += 1) insert.run(`k${i}`);
}

function keysIn(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare<[], string>("SELECT key FROM settings WHERE key LIKE 'k%' ORDER BY key").pluck().all();
  } finally {
    db.close();
  }
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('writeBackup', () => {
  it('copies the journal as it is, open and in WAL mode, into backups/ (0600 files in a 0700 folder)', () => {
    const { dataDir, db } = journal(3);
    const backup = writeBackup(db, dataDir, 'manual', T0, 7);
    expect(backup).toMatchObject({ name: 'strikebook-2026-11-20T15-00-00-000Z-manual.db', createdAt: '2026-11-20T15:00:00.000Z', reason: 'manual' });
    expect(keysIn(backup.path)).toEqual(['k0', 'k1', 'k2']);
    expect([mode(backup.path), mode(join(dataDir, 'backups'))]).toEqual(['600', '700']);
    expect(checkBackup(backup.path)).toEqual({ ok: true, schemaVersion: LATEST_VERSION });
    expect(readdirSync(join(dataDir, 'backups')), 'nothing but the backup: its temporary file was renamed').toEqual([backup.name]);
  });

  it('keeps the newest N, and leaves other files of the folder alone', () => {
    const { dataDir, db } = journal();
    mkdirSync(join(dataDir, 'backups'), { recursive: true });
    writeFileSync(join(dataDir, 'backups', 'notes.txt'), 'mine');
    for (let day = 0; day < 5; day += 1) writeBackup(db, dataDir, 'daily', T0 + day * 86_400_000, 3);
    expect(listBackups(dataDir).map((b) => b.createdAt.slice(0, 10))).toEqual(['2026-11-24', '2026-11-23', '2026-11-22']);
    expect(existsSync(join(dataDir, 'backups', 'notes.txt'))).toBe(true);
    // Two in the same millisecond get two names.
    const a = writeBackup(db, dataDir, 'undo', T0 + 9 * 86_400_000, 10);
    const b = writeBackup(db, dataDir, 'undo', T0 + 9 * 86_400_000, 10);
    expect(a.name).not.toBe(b.name);
  });

  it('writes through no link: a backups/ that is a link stops it, naming it', () => {
    const { dataDir, db } = journal();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(dataDir, 'backups'));
    expect(() => writeBackup(db, dataDir, 'manual', T0, 7)).toThrow(DataFolderError);
    expect(() => writeBackup(db, dataDir, 'manual', T0, 7)).toThrow(`${join(dataDir, 'backups')} is a symbolic link`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('checkBackup', () => {
  it('refuses what it cannot restore, each with the reason', () => {
    const dir = tempDir();
    const text = join(dir, 'notes.db');
    writeFileSync(text, 'not a database');
    expect(checkBackup(text)).toEqual({ ok: false, problem: `${text} is not an SQLite database (not a Strikebook backup)` });

    const foreign = join(dir, 'foreign.db');
    const other = new Database(foreign);
    other.exec('CREATE TABLE t (x)');
    other.close();
    expect(checkBackup(foreign)).toEqual({ ok: false, problem: `${foreign} is not a Strikebook database (no schema version, or not its tables)` });

    const { dataDir, db } = journal();
    const newer = writeBackup(db, dataDir, 'manual', T0, 7).path;
    const bumped = new Database(newer);
    bumped.pragma(`user_version = ${LATEST_VERSION + 1}`);
    bumped.close();
    expect(checkBackup(newer)).toEqual({ ok: false, problem: `${newer} was written by a newer Strikebook (schema version ${LATEST_VERSION + 1}; this version knows up to ${LATEST_VERSION}): update Strikebook first` });

    // A page of the b-tree overwritten: SQLite's integrity check finds it.
    addKeys(db, 100, 2000);
    const damaged = writeBackup(db, dataDir, 'manual', T0 + 1, 7).path;
    const bytes = readFileSync(damaged);
    bytes.fill(0x55, 4096 * 3, 4096 * 3 + 2000);
    writeFileSync(damaged, bytes);
    const result = checkBackup(damaged);
    expect(result.ok ? null : result.problem).toMatch(new RegExp(`^${damaged.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} (is damaged \\(SQLite's integrity check: .+\\)|cannot be read \\(.+\\))$`));
  });
});

describe('restoreBackup', () => {
  it('puts the backup in place, the journal it replaced backed up first', () => {
    const { dataDir, dbPath, db } = journal(2);
    const backup = writeBackup(db, dataDir, 'daily', T0, 7);
    addKeys(db, 2, 3);
    db.close();
    const restored = restoreBackup(dataDir, dbPath, backup.path, T0 + 60_000);
    if (!restored.ok) throw new Error(restored.problem);
    expect(keysIn(dbPath), 'the journal as it was at the backup').toEqual(['k0', 'k1']);
    const replaced = restored.report.replaced;
    expect(replaced?.kind).toBe('backup');
    expect(replaced?.kind === 'backup' ? keysIn(replaced.backup.path) : [], 'the journal it replaced, kept').toEqual(['k0', 'k1', 'k2', 'k3', 'k4']);
    expect(replaced?.kind === 'backup' && replaced.backup.reason).toBe('restore');
    expect(existsSync(`${dbPath}-wal`), 'no -wal of the old journal beside the new one').toBe(false);
    const reopened = openDatabase(dbPath).db;
    opened.push(reopened);
    expect(reopened.prepare("SELECT count(*) FROM settings WHERE key LIKE 'k%'").pluck().get()).toBe(2);
  });

  it('refuses a backup that fails its check, changing nothing', () => {
    const { dataDir, dbPath, db } = journal(2);
    db.close();
    const before = sha256(dbPath);
    const junk = join(dataDir, 'junk.db');
    writeFileSync(junk, 'x'.repeat(5000));
    expect(restoreBackup(dataDir, dbPath, junk, T0)).toEqual({ ok: false, problem: `${junk} is not an SQLite database (not a Strikebook backup)` });
    expect(sha256(dbPath)).toBe(before);
    expect(existsSync(join(dataDir, 'backups')), 'no backup was even begun').toBe(false);
  });

  it('moves a journal too damaged to copy aside whole, and restores over it', () => {
    const { dataDir, dbPath, db } = journal(2);
    const backup = writeBackup(db, dataDir, 'daily', T0, 7);
    db.close();
    writeFileSync(dbPath, Buffer.alloc(8192, 0x41));
    const damaged = sha256(dbPath);
    const restored = restoreBackup(dataDir, dbPath, backup.path, T0 + 1);
    if (!restored.ok) throw new Error(restored.problem);
    expect(restored.report.replaced).toEqual({ kind: 'moved', path: join(dataDir, 'backups', 'strikebook-2026-11-20T15-00-00-001Z-unreadable.db') });
    expect(restored.report.replaced?.kind === 'moved' ? sha256(restored.report.replaced.path) : '', 'kept byte for byte').toBe(damaged);
    expect(keysIn(dbPath)).toEqual(['k0', 'k1']);
  });

  it('names a backup by its instant and reason', () => {
    expect(backupName(T0 + 123, 'undo')).toBe('strikebook-2026-11-20T15-00-00-123Z-undo.db');
  });
});
