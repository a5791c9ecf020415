/**
 * The api-key file of the data folder: one plaintext key for the user's scripts, mode 0600. It is read without
 * following a symbolic link, and replaced atomically (docs/decisions.md §API, "Key rotation"): the new key is written
 * to a temporary file beside it, synced, and renamed over it, while a hard link keeps the old file until the database
 * has committed, so a failure at any step leaves the old file (and the old key) in place.
 */
import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, linkSync, lstatSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataFolderError, FILE_MODE, symlinkProblem } from '../db/data-folder';

export const KEY_FILE = 'api-key';
/** Where the new key is written before it is renamed over the key file. */
export const keyFileTemp = (path: string) => `${path}.tmp`;
/** The old key file, kept (a hard link) until a rotation has committed. */
export const keyFileRestore = (path: string) => `${path}.restore`;
/** A key file is one line; anything longer is not one. */
const MAX_KEY_FILE_BYTES = 4096;

/** The key file could not be written: nothing was changed. `code` is the system's (ENOSPC, EACCES, EISDIR...). */
export class KeyFileError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'KeyFileError';
  }
}

/** The system's error code of a failed file operation ('' when it has none). */
export function errnoCode(error: unknown): string {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
}

/** A disk (or quota) that is full. */
export function isNoSpace(error: unknown): boolean {
  return ['ENOSPC', 'EDQUOT'].includes(errnoCode(error));
}

function keyFileError(path: string, step: string, error: unknown): KeyFileError {
  const code = errnoCode(error);
  const reason = isNoSpace(error) ? 'the disk is full' : error instanceof Error ? error.message : String(error);
  return new KeyFileError(`The key file ${path} could not be ${step}: ${reason}.`, path, code);
}

const bestEffort = (action: () => void) => {
  try {
    action();
  } catch {
    // Cleaning up after a failure: the failure itself is what the caller hears of.
  }
};

const ignoreMissing = (action: () => void) => {
  try {
    action();
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
};

/**
 * The key in the file (trimmed), or null when there is none. A symbolic link is refused (DataFolderError naming it):
 * the file is opened with O_NOFOLLOW and its mode narrowed to 0600 through the open descriptor.
 */
export function readKeyFile(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    if (errnoCode(error) === 'ELOOP') throw symlinkProblem(path);
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new DataFolderError(`${path} is not a file. Move it away so that Strikebook can write its key file there.`, path);
    if ((stat.mode & 0o077) !== 0) fchmodSync(fd, stat.mode & 0o700);
    const bytes = Buffer.alloc(Math.min(stat.size, MAX_KEY_FILE_BYTES));
    const length = readSync(fd, bytes, 0, bytes.length, 0);
    return bytes.subarray(0, length).toString('utf8').trim();
  } finally {
    closeSync(fd);
  }
}

/** A new key written beside the key file, not yet in its place. */
export interface StagedKeyFile {
  /** Renames the new file over the key file (the old one stays reachable until `finish` or `undo`). */
  install(): void;
  /** Puts everything back as it was before `stageKeyFile` (after `install` too). Never throws. */
  undo(): void;
  /** Drops the old file: the new key is the key file's for good. Never throws. */
  finish(): void;
}

/** Best effort: the rename is durable once the folder's entry is on disk. */
function syncFolder(path: string): void {
  try {
    const fd = openSync(dirname(path), constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some systems cannot sync a folder; the rename itself was atomic.
  }
}

/**
 * Writes `key` to `<path>.tmp` (created new with O_EXCL and O_NOFOLLOW, 0600, synced) and keeps the current key file
 * reachable as `<path>.restore`. Throws KeyFileError (leaving nothing behind) when the file cannot be written: the
 * disk is full, the folder is read-only, something that is not a file is in the way.
 */
export function stageKeyFile(path: string, key: string): StagedKeyFile {
  const temp = keyFileTemp(path);
  const restore = keyFileRestore(path);
  let hadFile = false;
  try {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) throw new KeyFileError(`The key file ${path} is a symbolic link, which Strikebook does not follow: put the file itself in its place.`, path, 'ELOOP');
    if (stat !== undefined && !stat.isFile()) throw new KeyFileError(`The key file ${path} is not a file (something else is in its place): move it away.`, path, 'EISDIR');
    hadFile = stat !== undefined;
    // A temporary file left by a crash is ours to replace; anything else in the way (a folder) stops the rotation.
    ignoreMissing(() => unlinkSync(temp));
    writeNewFile(temp, `${key}\n`);
    if (hadFile) {
      ignoreMissing(() => unlinkSync(restore));
      keepCopy(path, restore);
    }
  } catch (error) {
    bestEffort(() => unlinkSync(temp));
    if (hadFile) bestEffort(() => unlinkSync(restore));
    if (error instanceof KeyFileError) throw error;
    throw keyFileError(path, 'written', error);
  }
  let installed = false;
  return {
    install() {
      try {
        renameSync(temp, path);
      } catch (error) {
        throw keyFileError(path, 'replaced', error);
      }
      installed = true;
    },
    undo() {
      try {
        if (!installed) ignoreMissing(() => unlinkSync(temp));
        else if (!hadFile) unlinkSync(path);
        if (hadFile && installed) renameSync(restore, path);
        else if (hadFile) ignoreMissing(() => unlinkSync(restore));
      } catch {
        // Nothing more can be done here; the next start writes a valid key into the file again.
      }
    },
    finish() {
      if (hadFile) {
        try {
          unlinkSync(restore);
        } catch {
          // A stale copy of a revoked key; the next rotation replaces it.
        }
      }
      syncFolder(path);
    },
  };
}

/** The old key file, kept as `restore`: a hard link (no data written), or a copy where links are not allowed. */
function keepCopy(path: string, restore: string): void {
  try {
    linkSync(path, restore);
  } catch (error) {
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK'].includes(errnoCode(error))) throw error;
    writeNewFile(restore, `${readKeyFile(path) ?? ''}\n`);
  }
}

/** Creates `path` (never through a link, never over an existing file) with `text`, 0600, synced. */
function writeNewFile(path: string, text: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, FILE_MODE);
  try {
    fchmodSync(fd, FILE_MODE);
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes a new key file at once (the first start, or a key file whose key is no longer valid). */
export function writeKeyFile(path: string, key: string): void {
  const staged = stageKeyFile(path, key);
  try {
    staged.install();
  } catch (error) {
    staged.undo();
    throw error;
  }
  staged.finish();
}
