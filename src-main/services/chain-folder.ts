/**
 * Chain files in folders of the user's (the watch folder, a backfill; docs/exposure.md §Chains that arrive by
 * themselves): listed, read and moved without ever following a symbolic link (a link is skipped and said, as the data
 * folder refuses one: db/data-folder.ts), within bounds (files listed, bytes read). Reading is asynchronous and the
 * file's SHA-256 is taken a chunk at a time as it is read, so the event loop never holds a whole file's work.
 */
import { createHash } from 'node:crypto';
import { constants, type Dirent } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, extname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';

/** The largest chain file read: the upload limit of POST /v1/chains (server/route-kit.ts, UPLOAD_LIMIT_BYTES). */
export const MAX_CHAIN_FILE_BYTES = 50 * 1024 * 1024;
/** Names a chain file may end with (any format POST /v1/chains reads is CSV or JSON). */
export const CHAIN_FILE_EXTENSIONS: readonly string[] = ['.csv', '.json'];
/** Files listed from one folder (with its subfolders, for a backfill); past it the listing says how many were left. */
export const MAX_LISTED_FILES = 50_000;
/** Subfolders a backfill descends into. */
const MAX_DEPTH = 8;
/** Read a chunk at a time: each chunk's hash is a moment of the event loop, not the whole file's. */
const CHUNK_BYTES = 1024 * 1024;
/** O_NOFOLLOW where the system has it (not on Windows, where a link is seen by lstat before the open). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** A lake's files (docs/research.md §Layout): a backfill reads them beside chain files. */
export const LAKE_FILE_EXTENSION = '.parquet';

export function isChainFileName(name: string, extensions: readonly string[] = CHAIN_FILE_EXTENSIONS): boolean {
  return !name.startsWith('.') && extensions.includes(extname(name).toLowerCase()) && !name.toLowerCase().endsWith('.reason.txt');
}

function errorCode(error: unknown): string {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
}

/** A system error in words, for a status line: the code's meaning and the path. */
export function fileErrorText(error: unknown): string {
  const code = errorCode(error);
  switch (code) {
    case 'ENOENT':
      return 'it no longer exists';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'it is a symbolic link: refused, links are never followed';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EISDIR':
      return 'it is a folder';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Why `path` cannot be a folder of chain files, or null: an absolute path to an existing folder that is itself no
 * symbolic link, neither the file system's root nor the home folder itself (the watch folder moves the files it reads),
 * and outside the data folder.
 */
export async function folderProblem(path: string, dataDir?: string): Promise<string | null> {
  if (path.trim() === '') return 'is empty';
  // eslint-disable-next-line no-control-regex -- a control character in a path is the point of the check
  if (/[\u0000-\u001f]/.test(path)) return 'contains a control character';
  if (!isAbsolute(path)) return 'is not an absolute path (write the whole path, e.g. /home/me/chains or C:\\Users\\me\\chains)';
  const full = resolve(path);
  if (parse(full).root === full) return 'is the root of the file system: name a folder of chain files';
  if (full === resolve(homedir())) return 'is the home folder itself: name a folder of chain files inside it';
  // The system's own trees (as the lake's export refuses them): no chain files there, and endless or devices to read.
  if (['/proc', '/sys', '/dev'].some((system) => full === system || full.startsWith(`${system}/`))) return 'is a folder of the system (/proc, /sys, /dev): name a folder of chain files';
  if (dataDir !== undefined) {
    const inside = relative(resolve(dataDir), full);
    if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) return 'is the data folder or inside it: name a folder of your own';
  }
  let stat;
  try {
    stat = await lstat(full);
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? 'does not exist' : `cannot be read (${fileErrorText(error)})`;
  }
  if (stat.isSymbolicLink()) return 'is a symbolic link: refused, links are never followed (name the folder it points to)';
  if (!stat.isDirectory()) return 'is not a folder';
  return null;
}

export interface ListedFile {
  /** The full path. */
  path: string;
  /** Relative to the listed folder (what messages show). */
  name: string;
  size: number;
  mtimeMs: number;
}

export interface Listing {
  files: ListedFile[];
  /** Symbolic links met (not followed), relative names, the first 20. */
  links: string[];
  linkCount: number;
  /** Chain files past MAX_LISTED_FILES, not listed. */
  omitted: number;
}

/**
 * The chain files of a folder, by name; with `recursive`, of its subfolders too (at most MAX_DEPTH deep, links never
 * entered), `skip` naming subfolders left out (the watch folder's imported/ and failed/).
 */
export async function listChainFiles(dir: string, options: { recursive?: boolean; skip?: readonly string[]; max?: number; extensions?: readonly string[] } = {}): Promise<Listing> {
  const max = options.max ?? MAX_LISTED_FILES;
  const listing: Listing = { files: [], links: [], linkCount: 0, omitted: 0 };
  const walk = async (folder: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (folder === dir) throw error;
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(folder, entry.name);
      const name = relative(dir, path);
      if (entry.isSymbolicLink()) {
        listing.linkCount += 1;
        if (listing.links.length < 20) listing.links.push(name);
        continue;
      }
      if (entry.isDirectory()) {
        if (options.recursive === true && depth < MAX_DEPTH && !entry.name.startsWith('.') && !(depth === 0 && options.skip?.includes(entry.name) === true)) await walk(path, depth + 1);
        continue;
      }
      if (!entry.isFile() || !isChainFileName(entry.name, options.extensions)) continue;
      if (listing.files.length >= max) {
        listing.omitted += 1;
        continue;
      }
      try {
        const stat = await lstat(path);
        if (stat.isFile()) listing.files.push({ path, name, size: stat.size, mtimeMs: stat.mtimeMs });
      } catch {
        // Gone between the listing and its stat: not a file of this listing.
      }
    }
  };
  await walk(dir, 0);
  return listing;
}

export interface ReadChainFile {
  bytes: Uint8Array;
  /** SHA-256 of the bytes, hex. */
  digest: string;
  size: number;
  mtimeMs: number;
}

/** A file refused before it is parsed: a link, too large, not a regular file. */
export class ChainFileReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainFileReadError';
  }
}

/**
 * A chain file's bytes and SHA-256, read a chunk at a time, never through a link (O_NOFOLLOW, and the opened file must
 * be a regular file), refused past MAX_CHAIN_FILE_BYTES before anything is read.
 */
export async function readChainFile(path: string, maxBytes = MAX_CHAIN_FILE_BYTES): Promise<ReadChainFile> {
  const before = await lstat(path);
  if (before.isSymbolicLink()) throw new ChainFileReadError('it is a symbolic link: refused, links are never followed');
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    throw new ChainFileReadError(`it cannot be opened: ${fileErrorText(error)}`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ChainFileReadError('it is not a regular file');
    if (stat.size > maxBytes) throw new ChainFileReadError(`it is ${(stat.size / 1024 / 1024).toFixed(1)} MB, more than the ${maxBytes / 1024 / 1024} MB a chain file may have`);
    const bytes = new Uint8Array(stat.size);
    const hash = createHash('sha256');
    let at = 0;
    while (at < bytes.byteLength) {
      const { bytesRead } = await handle.read(bytes, at, Math.min(CHUNK_BYTES, bytes.byteLength - at), at);
      if (bytesRead === 0) break;
      hash.update(bytes.subarray(at, at + bytesRead));
      at += bytesRead;
    }
    if (at !== bytes.byteLength) throw new ChainFileReadError('it changed while it was read (shorter than its size)');
    return { bytes, digest: hash.digest('hex'), size: stat.size, mtimeMs: stat.mtimeMs };
  } finally {
    await handle.close();
  }
}

/** A subfolder of the watch folder (imported/, failed/): created when missing; a link or a file there is refused. */
export async function ensureSubfolder(dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  const stat = await lstat(path).catch(() => null);
  if (stat === null) {
    await mkdir(path, { mode: 0o700 }).catch((error: unknown) => {
      if (errorCode(error) !== 'EEXIST') throw error;
    });
    const made = await lstat(path);
    if (!made.isDirectory() || made.isSymbolicLink()) throw new ChainFileReadError(`${name}${sep} is not a folder`);
    return path;
  }
  if (stat.isSymbolicLink()) throw new ChainFileReadError(`${name}${sep} is a symbolic link: refused, links are never followed`);
  if (!stat.isDirectory()) throw new ChainFileReadError(`${name} is a file, not a folder`);
  return path;
}

/** A name in `folder` not taken yet: `name`, else `stem (2).ext`, `stem (3).ext`... */
async function freeName(folder: string, name: string): Promise<string> {
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  for (let n = 1; n < 1000; n += 1) {
    const candidate = n === 1 ? name : `${stem} (${n})${extension}`;
    const taken = await lstat(join(folder, candidate)).then(
      () => true,
      () => false,
    );
    const reasonTaken = await lstat(join(folder, `${candidate}.reason.txt`)).then(
      () => true,
      () => false,
    );
    if (!taken && !reasonTaken) return candidate;
  }
  return `${stem} (${Date.now()})${extension}`;
}

/** Moves a file into `folder` under a free name (never over another file); the name it took. */
export async function moveInto(path: string, folder: string): Promise<string> {
  const name = await freeName(folder, basename(path));
  await rename(path, join(folder, name));
  return name;
}

/** Writes `<name>.reason.txt` beside a failed file: created new (never through a link, never over a file). */
export async function writeReason(folder: string, name: string, text: string): Promise<void> {
  await writeFile(join(folder, `${name}.reason.txt`), text.endsWith('\n') ? text : `${text}\n`, { flag: 'wx', mode: 0o600 });
}
