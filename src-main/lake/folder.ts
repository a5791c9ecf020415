/**
 * The folder an export writes into (`--out`, the data folder's `exports/`, a folder the desktop dialog granted) and
 * everything under it, reached without following a symbolic link (docs/architecture.md §Reliability and security):
 * each component from the folder down is checked with lstat as it is met, folders are created one at a time and
 * checked again, files are opened with O_NOFOLLOW. A link there (`exports/` pointing at another folder, a
 * `symbol=SPX` folder pointing into /etc) stops the export naming it, with nothing written through it. What lies above
 * the folder is the user's (a home folder on another disk, macOS's /tmp): it is not judged.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, realpathSync, statfsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

/** Folders of the kernel's own: writing there changes the running system, or never ends (`--out /proc/self`). */
const SPECIAL_ROOTS = ['/proc', '/sys', '/dev'];
/** statfs magic numbers of the same file systems mounted elsewhere: proc, sysfs, debugfs, tracefs, securityfs, devpts, cgroup2. */
const SPECIAL_FS_TYPES = new Set([0x9fa0, 0x62656572, 0x64626720, 0x74726163, 0x73636673, 0x1cd1, 0x63677270]);

/** A symbolic link met under an export folder: the export stops, naming it. */
export class LinkRefused extends Error {
  constructor(readonly path: string) {
    super(`${path} is a symbolic link: Strikebook does not follow links in an export folder (it would write wherever the link points). Put a real folder there, or export into another folder.`);
    this.name = 'LinkRefused';
  }
}

function errorCode(error: unknown): string {
  return error instanceof Error && 'code' in error ? String(error.code) : '';
}

/** The nearest existing folder at or above `path`, resolved (links above the folder are the user's and are followed). */
function existingAncestor(path: string): string {
  let at = path;
  for (;;) {
    try {
      return realpathSync(at);
    } catch {
      const up = dirname(at);
      if (up === at) return at;
      at = up;
    }
  }
}

/**
 * Why `out` cannot take an export, as one sentence, or null: a folder on a special file system (/proc, /sys, /dev),
 * something that is not a folder, or a symbolic link. A folder that does not exist yet is fine (it is created).
 */
export function exportFolderProblem(out: string): string | null {
  const real = existingAncestor(out);
  const special = SPECIAL_ROOTS.find((root) => real === root || real.startsWith(`${root}/`));
  if (special !== undefined) return `${out} is on the system's ${special} file system, not a disk: choose a folder of your own`;
  try {
    if (SPECIAL_FS_TYPES.has(statfsSync(real).type)) return `${out} is on a special file system (kernel or device files), not a disk: choose a folder of your own`;
  } catch {
    // statfs unavailable: the paths above are the check.
  }
  const stat = lstatSync(out, { throwIfNoEntry: false });
  if (stat === undefined) return null;
  if (stat.isSymbolicLink()) return new LinkRefused(out).message.replace(/\.$/, '');
  if (!stat.isDirectory()) return `${out} is ${stat.isFile() ? 'a file' : 'not a folder'}: name a folder (it is created when missing)`;
  return null;
}

/** The components of `path` below `root` (root itself first), each an absolute path. */
function componentsUnder(root: string, path: string): string[] {
  const rest = relative(root, path);
  if (rest.startsWith('..') || isAbsolute(rest)) throw new Error(`${path} is not under the export folder ${root}`);
  const parts = rest === '' ? [] : rest.split(sep);
  const out = [root];
  for (const part of parts) out.push(join(out[out.length - 1] ?? root, part));
  return out;
}

/**
 * Creates the folder `dir` under `root` (root included) one component at a time; each existing or new component must be
 * a folder and no link. Throws LinkRefused for a link, and the file system's error for anything else.
 */
export function makeFolders(root: string, dir: string): void {
  for (const path of componentsUnder(root, dir)) {
    let stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat === undefined) {
      try {
        mkdirSync(path);
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
      // Checked again: another program could have put a link there between the look and the mkdir.
      stat = lstatSync(path);
    }
    if (stat.isSymbolicLink()) throw new LinkRefused(path);
    if (!stat.isDirectory()) throw Object.assign(new Error(`${path} is not a folder`), { code: 'ENOTDIR', path });
  }
}

/** Throws LinkRefused when a component from `root` down to `path` (included) is a link; a missing one ends the walk. */
export function refuseLinksUnder(root: string, path: string): void {
  for (const component of componentsUnder(root, path)) {
    const stat = lstatSync(component, { throwIfNoEntry: false });
    if (stat === undefined) return;
    if (stat.isSymbolicLink()) throw new LinkRefused(component);
  }
}

/** Opens `path` without following a link at its last component (O_NOFOLLOW: a link there is ELOOP, reported as LinkRefused). */
export function openNoFollow(path: string, flags: number, mode?: number): number {
  try {
    return openSync(path, flags | constants.O_NOFOLLOW, mode);
  } catch (error) {
    if (errorCode(error) === 'ELOOP') throw new LinkRefused(path);
    throw error;
  }
}

/** The bytes of a regular file under `root` (no link on the way), or null when there is none. */
export function readFileUnder(root: string, path: string): Buffer | null {
  refuseLinksUnder(root, dirname(path));
  let fd: number;
  try {
    fd = openNoFollow(path, constants.O_RDONLY);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.alloc(size);
    let offset = 0;
    while (offset < size) {
      const read = readSync(fd, bytes, offset, size - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    return bytes.subarray(0, offset);
  } finally {
    closeSync(fd);
  }
}
