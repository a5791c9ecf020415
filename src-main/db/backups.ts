/**
 * Backups of the journal (docs/architecture.md §Reliability and security): `<data folder>/backups/`, one SQLite file
 * each, written with SQLite's `VACUUM INTO` (a consistent copy of the database as one read transaction sees it, while
 * the app keeps reading and writing) into a hidden temporary name, synced, then renamed. A process killed during a
 * backup leaves the journal, and every backup before it, as they were, and at most a temporary file, which the next
 * backup removes. The newest `keep` are kept. A restore checks the file first (SQLite's integrity check, a schema
 * version this Strikebook knows), backs up the journal it replaces, and puts the copy in place with a rename.
 *
 * Who calls what: the server's backups (services/backups.ts: daily, before an undo or a delete) run these in a
 * worker thread; a schema upgrade (open.ts) and the CLI (`strikebook backup`, `strikebook restore`) on their own thread.
 */
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { chmodSync, closeSync, constants, copyFileSync, existsSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { hasSqliteHeader, integrityProblems, schemaVersion } from './check';
import { DataFolderError, FILE_MODE, FOLDER_MODE } from './data-folder';
import { LATEST_VERSION } from './migrations/index';

export const BACKUPS_DIR = 'backups';
/** Why a backup was written: the daily one, one asked for (Settings, the CLI), before an undo, a delete, a schema upgrade or a restore. */
export const BACKUP_REASONS = ['daily', 'manual', 'undo', 'delete', 'migration', 'restore'] as const;
export type BackupReason = (typeof BACKUP_REASONS)[number];
/** Backups kept when the setting says nothing (backupsKept). */
export const DEFAULT_BACKUPS_KEPT = 7;
/** A restore asked for in the app, applied at the next start (the running server holds the journal open). */
const PENDING_FILE = 'restore-pending.json';

export interface BackupFile {
  name: string;
  path: string;
  /** ISO instant of the backup (from its name). */
  createdAt: string;
  reason: BackupReason;
  bytes: number;
}

const NAME = /^strikebook-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-([a-z]+)\.db$/;

function isReason(text: string): text is BackupReason {
  return (BACKUP_REASONS as readonly string[]).includes(text);
}

/** `strikebook-2026-11-29T08-15-30-123Z-daily.db`: the instant sorts as text, and the reason says why. */
export function backupName(atMs: number, reason: BackupReason): string {
  return `strikebook-${new Date(atMs).toISOString().replace(/[:.]/g, '-')}-${reason}.db`;
}

function parseName(name: string): { createdAt: string; reason: BackupReason } | null {
  const match = NAME.exec(name);
  if (match === null) return null;
  const [, day, hh, mm, ss, ms, reason = ''] = match;
  if (!isReason(reason)) return null;
  return { createdAt: `${day}T${hh}:${mm}:${ss}.${ms}Z`, reason };
}

export function backupsFolder(dataDir: string): string {
  return join(dataDir, BACKUPS_DIR);
}

/**
 * The backups folder, created 0700 when missing. A link there (or anything but a folder) stops the backup naming it:
 * Strikebook follows no link in its data folder (docs/decisions.md §Data).
 */
function ensureFolder(dataDir: string): string {
  const folder = backupsFolder(dataDir);
  let stat = lstatSync(folder, { throwIfNoEntry: false });
  if (stat === undefined) {
    mkdirSync(folder, { mode: FOLDER_MODE });
    chmodSync(folder, FOLDER_MODE);
    stat = lstatSync(folder);
  }
  if (stat.isSymbolicLink()) throw new DataFolderError(`${folder} is a symbolic link: Strikebook follows no link in its data folder. Put a real folder there (or move the link away).`, folder);
  if (!stat.isDirectory()) throw new DataFolderError(`${folder} is not a folder: move it away so that Strikebook can keep its backups there.`, folder);
  return folder;
}

/** Why no backup can be written into the backups folder (a link, a file in its place), or null; creates it when missing. */
export function backupsFolderProblem(dataDir: string): string | null {
  try {
    ensureFolder(dataDir);
    return null;
  } catch (error) {
    if (error instanceof DataFolderError) return error.message;
    throw error;
  }
}

/** The backups, newest first (files named as backupName writes them; anything else in the folder is left alone). */
export function listBackups(dataDir: string): BackupFile[] {
  const folder = backupsFolder(dataDir);
  const stat = lstatSync(folder, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isDirectory()) return [];
  const found: BackupFile[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const parsed = parseName(entry.name);
    if (parsed === null) continue;
    const path = join(folder, entry.name);
    found.push({ name: entry.name, path, ...parsed, bytes: statSync(path).size });
  }
  return found.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

/** A process id that still runs (a temporary file of a backup under way in another process is not removed). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/** Temporary files of backups whose process is gone (killed mid-way): removed. */
function removeStaleTemps(folder: string): void {
  for (const name of readdirSync(folder)) {
    const match = /^\.strikebook-.*\.(\d+)\.tmp$/.exec(name);
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && alive(pid)) continue;
    rmSync(join(folder, name), { force: true });
  }
}

function fsyncPath(path: string, flags = constants.O_RDONLY): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Keeps the newest `keep` backups (at least one), removing the older ones. */
export function pruneBackups(dataDir: string, keep: number): string[] {
  const removed: string[] = [];
  for (const backup of listBackups(dataDir).slice(Math.max(1, Math.floor(keep)))) {
    rmSync(backup.path, { force: true });
    removed.push(backup.name);
  }
  return removed;
}

/**
 * Writes a backup of the database (an open connection, or the file's path: a read-only connection is opened for the
 * copy) and keeps the newest `keep`. VACUUM INTO writes a hidden temporary file (created empty, 0600, first), which is
 * synced and then renamed: the backups folder never holds half a backup under a backup's name.
 */
export function writeBackup(source: Db | string, dataDir: string, reason: BackupReason, atMs: number, keep: number, nativeBinding?: string): BackupFile {
  const folder = ensureFolder(dataDir);
  removeStaleTemps(folder);
  let at = atMs;
  while (existsSync(join(folder, backupName(at, reason)))) at += 1;
  const name = backupName(at, reason);
  const temp = join(folder, `.${name}.${process.pid}.tmp`);
  closeSync(openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, FILE_MODE));
  try {
    const db = typeof source === 'string' ? new Database(source, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) }) : source;
    try {
      if (typeof source === 'string') db.pragma('busy_timeout = 5000');
      db.prepare('VACUUM INTO ?').run(temp);
    } finally {
      if (typeof source === 'string') db.close();
    }
    chmodSync(temp, FILE_MODE);
    fsyncPath(temp);
    renameSync(temp, join(folder, name));
    fsyncPath(folder);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  pruneBackups(dataDir, keep);
  const path = join(folder, name);
  return { name, path, createdAt: new Date(at).toISOString(), reason, bytes: statSync(path).size };
}

/**
 * A backup written to a file of the user's choosing (`strikebook backup --out FILE`): a new file only (never over an
 * existing one, nor through a link), on a disk (not /proc, /sys or /dev), written as writeBackup writes (a temporary
 * file beside it, synced, renamed). A sentence when the place cannot take it.
 */
export function writeBackupTo(source: Db, out: string): { ok: true; path: string; bytes: number } | { ok: false; problem: string } {
  if (lstatSync(out, { throwIfNoEntry: false }) !== undefined) return { ok: false, problem: `${out} exists: name a new file (a backup never replaces one)` };
  const parent = dirname(out);
  const parentStat = statSync(parent, { throwIfNoEntry: false });
  if (parentStat === undefined || !parentStat.isDirectory()) return { ok: false, problem: `${parent} is not a folder: the backup's folder must exist` };
  const special = SPECIAL_ROOTS.find((root) => {
    const real = realpathSync(parent);
    return real === root || real.startsWith(`${root}/`);
  });
  if (special !== undefined) return { ok: false, problem: `${out} is on the system's ${special} file system, not a disk: choose a file of your own` };
  const temp = join(parent, `.${basename(out)}.${process.pid}.tmp`);
  closeSync(openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, FILE_MODE));
  try {
    source.prepare('VACUUM INTO ?').run(temp);
    fsyncPath(temp);
    // Linked, not renamed: a file that appeared under the name meanwhile is not replaced.
    linkSync(temp, out);
    rmSync(temp, { force: true });
    fsyncPath(parent);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return { ok: true, path: out, bytes: statSync(out).size };
}

/** Folders of the kernel's own: a backup is never written there. */
const SPECIAL_ROOTS = ['/proc', '/sys', '/dev'];

/** A backup file's check before it replaces anything: its schema version, or the sentence why it cannot be restored. */
export function checkBackup(path: string, nativeBinding?: string): { ok: true; schemaVersion: number } | { ok: false; problem: string } {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return { ok: false, problem: `${path} does not exist` };
  if (stat.isSymbolicLink()) return { ok: false, problem: `${path} is a symbolic link: name the file itself` };
  if (!stat.isFile()) return { ok: false, problem: `${path} is not a file` };
  if (stat.size === 0 || !hasSqliteHeader(path)) return { ok: false, problem: `${path} is not an SQLite database (not a Strikebook backup)` };
  let db: Db;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  } catch (error) {
    return { ok: false, problem: `${path} cannot be opened (${error instanceof Error ? error.message : String(error)})` };
  }
  try {
    const problems = integrityProblems(db, 20);
    if (problems.length > 0) return { ok: false, problem: `${path} is damaged (SQLite's integrity check: ${problems.slice(0, 3).join('; ').replace(/\s+/g, ' ')})` };
    const version = schemaVersion(db);
    if (version > LATEST_VERSION) return { ok: false, problem: `${path} was written by a newer Strikebook (schema version ${version}; this version knows up to ${LATEST_VERSION}): update Strikebook first` };
    const tables = new Set(db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all());
    if (version < 1 || !tables.has('settings') || !tables.has('api_keys')) return { ok: false, problem: `${path} is not a Strikebook database (no schema version, or not its tables)` };
    return { ok: true, schemaVersion: version };
  } catch (error) {
    return { ok: false, problem: `${path} cannot be read (${error instanceof Error ? error.message : String(error)})` };
  } finally {
    db.close();
  }
}

export interface RestoreReport {
  restored: string;
  schemaVersion: number;
  /** The backup of the journal it replaced (null: there was none), or where a journal too damaged to copy was moved. */
  replaced: { kind: 'backup'; backup: BackupFile } | { kind: 'moved'; path: string } | null;
}

/**
 * Puts a backup in place of the journal; nothing else may have the database open (the CLI checks that no server runs;
 * the app stages the restore for its next start, stageRestore). The backup is checked first (checkBackup: nothing is
 * replaced when it fails); the journal it replaces is backed up (reason `restore`), or, when it cannot be read, moved
 * aside whole into the backups folder. Then a copy of the backup, synced, is renamed over the database file. An older
 * schema is upgraded at the next open, as any older database is. A process killed on the way leaves the journal as it
 * was, or the backup's copy in its place: never half of either.
 */
export function restoreBackup(dataDir: string, dbPath: string, backupPath: string, atMs: number, nativeBinding?: string): { ok: true; report: RestoreReport } | { ok: false; problem: string } {
  const checked = checkBackup(backupPath, nativeBinding);
  if (!checked.ok) return checked;
  const folder = ensureFolder(dataDir);
  const companions = [`${dbPath}-wal`, `${dbPath}-shm`];
  let replaced: RestoreReport['replaced'] = null;
  if (existsSync(dbPath)) {
    try {
      // The journal's last writes folded into the file first: nothing is left in a -wal that the new file would meet.
      const current = new Database(dbPath, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
      try {
        current.pragma('busy_timeout = 5000');
        current.pragma('wal_checkpoint(TRUNCATE)');
        replaced = { kind: 'backup', backup: writeBackup(current, dataDir, 'restore', atMs, Number.POSITIVE_INFINITY) };
      } finally {
        current.close();
      }
    } catch {
      // Too damaged to copy: kept whole (with its -wal and -shm) beside the backups, under a name of its own.
      const moved = join(folder, `strikebook-${new Date(atMs).toISOString().replace(/[:.]/g, '-')}-unreadable.db`);
      renameSync(dbPath, moved);
      for (const file of companions) if (existsSync(file)) renameSync(file, `${moved}${file.slice(dbPath.length)}`);
      replaced = { kind: 'moved', path: moved };
    }
  }
  const temp = join(dirname(dbPath), `.${basename(dbPath)}.restore.${process.pid}.tmp`);
  rmSync(temp, { force: true });
  copyFileSync(backupPath, temp, constants.COPYFILE_EXCL);
  chmodSync(temp, FILE_MODE);
  fsyncPath(temp);
  for (const file of companions) rmSync(file, { force: true });
  renameSync(temp, dbPath);
  fsyncPath(dirname(dbPath));
  // Not pruned here: the setting of how many to keep is in the journal, read at the next backup.
  return { ok: true, report: { restored: backupPath, schemaVersion: checked.schemaVersion, replaced } };
}

/** The backup a restore staged in the app names (applied at the next start), or null. */
export function pendingRestore(dataDir: string): string | null {
  const path = join(backupsFolder(dataDir), PENDING_FILE);
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isFile()) return null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && 'name' in parsed && typeof parsed.name === 'string' && parseName(parsed.name) !== null ? parsed.name : null;
  } catch {
    return null;
  }
}

/** Stages a restore of the named backup for the next start (written whole: a temporary file renamed). */
export function stageRestore(dataDir: string, name: string): void {
  const folder = ensureFolder(dataDir);
  const temp = join(folder, `.${PENDING_FILE}.${process.pid}.tmp`);
  writeFileSync(temp, JSON.stringify({ name }), { mode: FILE_MODE, flag: 'w' });
  fsyncPath(temp);
  renameSync(temp, join(folder, PENDING_FILE));
}

/** Forgets a staged restore (applied, or given up). */
export function clearPendingRestore(dataDir: string): void {
  rmSync(join(backupsFolder(dataDir), PENDING_FILE), { force: true });
}

/**
 * At a start, before the database is opened: the restore staged in the app, applied (restoreBackup), then forgotten.
 * Null when none was staged; otherwise what was done, or why it was not (the journal then opens as it was).
 */
export function applyPendingRestore(dataDir: string, dbPath: string, atMs: number, nativeBinding?: string): { name: string; result: ReturnType<typeof restoreBackup> } | null {
  const name = pendingRestore(dataDir);
  if (name === null) {
    clearPendingRestore(dataDir);
    return null;
  }
  const result = restoreBackup(dataDir, dbPath, join(backupsFolder(dataDir), name), atMs, nativeBinding);
  clearPendingRestore(dataDir);
  return { name, result };
}
