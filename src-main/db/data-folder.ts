import Database from 'better-sqlite3';
import { accessSync, chmodSync, closeSync, constants, existsSync, fchmodSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * A data folder or database the app cannot use as it is. Its message is for a person (what is wrong, with which
 * file, and what to do); `strikebook` prints it without a stack trace and the desktop app shows it in a dialog.
 */
export class DataFolderError extends Error {
  /** Exit status of the CLI for problems with the data folder. */
  readonly exitCode = 3;

  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'DataFolderError';
  }
}

/** Owner-only modes: the journal and the key are nobody else's business on a shared machine. */
export const FILE_MODE = 0o600;
export const FOLDER_MODE = 0o700;

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  return code === '' || error.message.startsWith(code) ? error.message : `${code}: ${error.message}`;
}

function notWritable(dir: string, error: unknown): DataFolderError {
  return new DataFolderError(
    `Strikebook cannot write to its data folder ${dir} (${errorText(error)}). It keeps strikebook.db (with its -wal and -shm ` +
      'files) and api-key there and must be able to create and change them: make the folder and those files writable for ' +
      'this user, or choose another folder (--data-dir or STRIKEBOOK_DATA_DIR for the command line).',
    dir,
  );
}

/** A problem opening the database that says the folder or the file cannot be written (not that it is damaged). */
export function isPermissionError(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
  return /^(?:EACCES|EPERM|EROFS|SQLITE_READONLY|SQLITE_CANTOPEN|SQLITE_PERM|SQLITE_AUTH)/.test(code);
}

export function writeProblem(path: string, error: unknown): DataFolderError {
  return notWritable(dirname(path), error);
}

export function lockedAtStart(path: string): DataFolderError {
  return new DataFolderError(`The database ${path} is locked by another program (another Strikebook, or a backup tool) and stayed locked for 5 s. Try again when it has finished.`, path);
}

/** A symbolic link where the data folder keeps a file of its own (docs/decisions.md, "The data folder"). */
export function symlinkProblem(path: string): DataFolderError {
  return new DataFolderError(
    `${path} is a symbolic link. Strikebook does not follow links in its data folder: it would change the mode of, or ` +
      'overwrite, the file the link points to. Put the file itself in place of the link (or move the link away) and start again.',
    path,
  );
}

/** The database's files that Strikebook opens or changes: the file, its -wal, -shm and -journal, its backups (`<db>.*.bak`). */
export function databaseFiles(dbPath: string): string[] {
  let backups: string[] = [];
  try {
    backups = readdirSync(dirname(dbPath))
      .filter((name) => name.startsWith(`${basename(dbPath)}.`) && name.endsWith('.bak'))
      .map((name) => join(dirname(dbPath), name));
  } catch {
    // No folder yet: nothing in it can be a link.
  }
  return [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, `${dbPath}-journal`, ...backups];
}

/** Stops the start (DataFolderError naming the file) when one of `paths` is a symbolic link; a missing file is fine. */
export function refuseSymlinks(paths: readonly string[]): void {
  for (const path of paths) {
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true) throw symlinkProblem(path);
  }
}

/**
 * Creates the data folder (0700, whatever the umask) or checks the existing one: a folder this user cannot write
 * stops the start with a message instead of a stack trace. An existing folder keeps its mode (it may be the user's
 * own choice, e.g. a folder shared with a backup tool).
 */
export function prepareDataFolder(dir: string): void {
  if (!existsSync(dir)) {
    try {
      mkdirSync(dir, { recursive: true, mode: FOLDER_MODE });
      chmodSync(dir, FOLDER_MODE);
    } catch (error) {
      throw notWritable(dir, error);
    }
    return;
  }
  if (!statSync(dir).isDirectory()) throw new DataFolderError(`The data folder ${dir} is not a folder (a file of that name exists). Move it away or choose another folder with --data-dir.`, dir);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw notWritable(dir, error);
  }
}

/**
 * Creates `path` empty with mode 0600 if it does not exist (set with fchmod, so the umask cannot widen it), and takes
 * the group and other bits off an existing one and off the database's -wal and -shm (SQLite creates those with the
 * database file's mode). An owner's own read-only mode is left as it is.
 */
export function secureFile(path: string, companions: readonly string[] = []): void {
  if (!existsSync(path)) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return secureFile(path, companions);
      throw writeProblem(path, error);
    }
    try {
      fchmodSync(fd, FILE_MODE);
    } finally {
      closeSync(fd);
    }
  }
  for (const file of [path, ...companions]) {
    try {
      if (!existsSync(file)) continue;
      const mode = statSync(file).mode & 0o777;
      if ((mode & 0o077) !== 0) chmodSync(file, mode & 0o700);
    } catch {
      // Not ours to change (another owner): opening it will say whether it can be used.
    }
  }
}

const SQLITE_HEADER = 'SQLite format 3\u0000';

/**
 * The newest backup of the database: in the backups folder beside it (`backups/strikebook-<time>-<reason>.db`,
 * db/backups.ts), or a `<db>.v<N>.<time>.bak` an older version wrote beside it before a schema upgrade.
 */
export function newestBackup(path: string): string | null {
  const prefix = `${basename(path)}.`;
  const candidates: string[] = [];
  try {
    for (const name of readdirSync(dirname(path))) if (name.startsWith(prefix) && name.endsWith('.bak')) candidates.push(join(dirname(path), name));
  } catch {
    return null;
  }
  try {
    const folder = join(dirname(path), 'backups');
    for (const name of readdirSync(folder)) if (/^strikebook-.+\.db$/.test(name) && !name.endsWith('-unreadable.db')) candidates.push(join(folder, name));
  } catch {
    // No backups folder: the legacy backups alone.
  }
  const newest = candidates
    .flatMap((file) => {
      const stat = lstatSync(file, { throwIfNoEntry: false });
      return stat?.isFile() === true ? [{ file, mtimeMs: stat.mtimeMs }] : [];
    })
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.file.localeCompare(a.file))[0];
  return newest === undefined ? null : newest.file;
}

function damaged(path: string, reason: string): DataFolderError {
  const name = basename(path);
  const backup = newestBackup(path);
  const remedy =
    backup === null
      ? `There is no backup (backups/ or ${name}.*.bak) beside it: move ${name} away (with ${name}-wal and ${name}-shm, if present) to start with an ` +
        'empty journal, and keep the damaged file: a recovery tool (sqlite3 <file> ".recover") may still save its data.'
      : `Restore the newest backup, ${backup}: \`strikebook restore ${backup}\` checks it and puts it in place (or stop Strikebook and copy it over ${name}, ` +
        `removing ${name}-wal and ${name}-shm). Or move ${name} away to start with an empty journal.`;
  return new DataFolderError(`The database ${path} is damaged (${reason}). Strikebook stopped and did not change it. ${remedy}`, path);
}

/**
 * Checks an existing database before anything writes to it (opening in WAL mode and migrating both write): the
 * header, then `PRAGMA quick_check` through a read-only connection. A damaged file raises a DataFolderError and is
 * left byte for byte as it was; -wal/-shm files the check itself created are removed again.
 */
export function checkDatabaseFile(path: string, nativeBinding?: string): void {
  const stat = statSync(path);
  if (!stat.isFile()) throw new DataFolderError(`${path} is not a file. Move it away so that Strikebook can create its database there.`, path);
  // An empty file is what SQLite itself treats as a new database.
  if (stat.size === 0) return;
  let header: Buffer;
  try {
    const fd = openSync(path, 'r');
    try {
      // A file shorter than the header leaves the rest zero, which then fails the comparison.
      header = Buffer.alloc(SQLITE_HEADER.length);
      readSync(fd, header);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new DataFolderError(`Strikebook cannot read its database ${path} (${errorText(error)}). Make it readable and writable for this user.`, path);
  }
  if (header.toString('latin1') !== SQLITE_HEADER) throw damaged(path, 'it is not an SQLite database: its header is wrong');

  const companions = [`${path}-wal`, `${path}-shm`];
  const preexisting = companions.filter((file) => existsSync(file));
  let problems: string[];
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    try {
      db.pragma('busy_timeout = 5000');
      problems = (db.pragma('quick_check(20)', { simple: false }) as Array<{ quick_check: string }>).map((row) => row.quick_check).filter((text) => text !== 'ok');
    } finally {
      db.close();
    }
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    if (/^SQLITE_(?:CORRUPT|NOTADB)/.test(code)) problems = [error instanceof Error ? error.message : String(error)];
    else if (isPermissionError(error)) throw writeProblem(path, error);
    else if (/^SQLITE_(?:BUSY|LOCKED)/.test(code)) throw lockedAtStart(path);
    else throw error;
  }
  if (problems.length === 0) return;
  for (const file of companions) if (!preexisting.includes(file)) rmSync(file, { force: true });
  const summary = problems.join('; ').replace(/\s+/g, ' ').trim();
  throw damaged(path, summary.length > 300 ? `${summary.slice(0, 300)}…` : summary);
}

/**
 * The running server's process id, in the data folder while it runs (`strikebook.pid`): what `strikebook restore`
 * reads to refuse replacing a journal a server holds open. A file left by a process that was killed names a process
 * that no longer runs, and is ignored.
 */
export const SERVER_PID_FILE = 'strikebook.pid';

/** Writes this process's id as the data folder's server (a temporary file renamed: never through a link). */
export function claimServerPid(dataDir: string): void {
  const path = join(dataDir, SERVER_PID_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, FILE_MODE);
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** Removes the server's process id file if it is this process's. */
export function releaseServerPid(dataDir: string): void {
  if (runningServerPid(dataDir) === process.pid) rmSync(join(dataDir, SERVER_PID_FILE), { force: true });
}

/** The process id of a server that runs on the data folder, or null (no file, a process that is gone). */
export function runningServerPid(dataDir: string): number | null {
  const path = join(dataDir, SERVER_PID_FILE);
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isFile()) return null;
  let pid: number;
  try {
    pid = Number(readFileSync(path, 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM' ? pid : null;
  }
}
