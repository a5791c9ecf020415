/**
 * The watch folder (issue 30; docs/exposure.md §Chains that arrive by themselves): each chain file that appears in the
 * folder of the `watchFolder` setting (any format POST /v1/chains reads) is stored once it has stopped growing for
 * STABLE_MS (a file still being written is not read half-way), then moved to `imported/`, or to `failed/` beside a
 * `<name>.reason.txt` saying why. Symbolic links are skipped and said, never followed. What happened to the last
 * files, and why a file failed, is kept for GET /v1/chains/watch and the UI (bounded: MAX_OUTCOMES files, reasons cut
 * at MAX_REASON_CHARS), so a failure is not only a line in the server's console.
 *
 * The folder is looked at every SCAN_MS (a timer started with the server, stopped with it); `scan()` does one look
 * (tests call it with a clock of their own).
 */
import type { Clock } from '../clock';
import { ChainFilesRepository } from '../db/chain-files';
import type { WriteQueue } from '../db/writes';
import type { Settings } from '../settings';
import type { ExposureService, IngestResult } from './exposure/service';
import { describeError, type DomainError } from './result';
import { ensureSubfolder, fileErrorText, folderProblem, listChainFiles, moveInto, readChainFile, writeReason } from './chain-folder';

/** A file is read once its size and time have not changed for this long. */
export const STABLE_MS = 2000;
/** How often the folder is looked at. */
export const SCAN_MS = 1000;
/** Outcomes kept for the status (newest first). */
export const MAX_OUTCOMES = 50;
/** A reason as the status keeps it (the reason file has it whole, up to MAX_REASON_FILE_CHARS). */
export const MAX_REASON_CHARS = 2000;
const MAX_REASON_FILE_CHARS = 64 * 1024;
/** File problems written to a reason file. */
const MAX_REASON_LINES = 200;
/** Files watched at once while they grow; more wait for the next look. */
const MAX_WAITING = 10_000;
/** A file that could not be stored for a reason of the moment (a busy database, a full disk) is tried again after this. */
export const RETRY_MS = 30_000;

export const IMPORTED_DIR = 'imported';
export const FAILED_DIR = 'failed';

export type WatchOutcomeKind = 'imported' | 'already-stored' | 'failed' | 'retry';

export interface WatchOutcome {
  name: string;
  outcome: WatchOutcomeKind;
  at: string;
  /** Where the file went, relative to the watch folder (null: left in place). */
  movedTo: string | null;
  snapshotId?: number;
  symbol?: string;
  quoteTime?: string;
  contracts?: number;
  /** Why it failed (or waits to be tried again). */
  reason?: string;
}

export interface WatchStatus {
  watching: boolean;
  /** The folder of the setting; null when it is empty (off). */
  folder: string | null;
  /** Why the folder is not watched (it does not exist, is a link...), or null. */
  problem: string | null;
  /** Files seen that are still growing (or not yet still for STABLE_MS). */
  waiting: string[];
  /** Symbolic links in the folder, skipped (the first 20). */
  links: string[];
  /** The last files handled, newest first. */
  files: WatchOutcome[];
}

export interface WatchFolderContext {
  readonly settings: Pick<Settings, 'watchFolder'>;
  readonly dataDir: string;
  clock: Clock;
  exposure: Pick<ExposureService, 'ingest'>;
  writes: WriteQueue;
  db: ConstructorParameters<typeof ChainFilesRepository>[0];
}

interface Seen {
  size: number;
  mtimeMs: number;
  /** Monotonic ms since which size and time have stayed as they are. */
  sinceMs: number;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A refused file's reason: the sentence, then its problems line by line. */
export function reasonText(error: DomainError): string {
  const lines = [describeError(error)];
  if (error.kind === 'file-refused') {
    for (const problem of error.problems.slice(0, MAX_REASON_LINES)) lines.push(`  ${problem.line === null ? '' : `line ${problem.line}: `}${problem.param === undefined ? '' : `${problem.param}: `}${problem.message}`);
  }
  return cut(lines.join('\n'), MAX_REASON_FILE_CHARS);
}

export class WatchFolder {
  private timer: NodeJS.Timeout | null = null;
  private scanning: Promise<void> | null = null;
  private folder = '';
  private problem: string | null = null;
  private readonly seen = new Map<string, Seen>();
  /** Files handled but still there (a move that failed): not read again while unchanged. */
  private readonly handled = new Map<string, { size: number; mtimeMs: number }>();
  /** Files to try again later (monotonic ms). */
  private readonly deferred = new Map<string, number>();
  private outcomes: WatchOutcome[] = [];
  private links: string[] = [];
  private readonly stopper = new AbortController();
  private readonly files: ChainFilesRepository;

  constructor(
    private readonly ctx: WatchFolderContext,
    private readonly log?: (line: string) => void,
  ) {
    this.files = new ChainFilesRepository(ctx.db);
  }

  start(everyMs = SCAN_MS): void {
    if (this.timer !== null || this.stopper.signal.aborted) return;
    const tick = () => {
      void this.scan().finally(() => {
        if (this.timer === null) return;
        this.timer = setTimeout(tick, everyMs);
        this.timer.unref();
      });
    };
    this.timer = setTimeout(tick, everyMs);
    this.timer.unref();
  }

  /** The server is closing: no new look; a file being stored is given up (it stays in the folder). */
  async stop(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.stopper.abort();
    await this.scanning;
  }

  status(): WatchStatus {
    const folder = this.ctx.settings.watchFolder.trim();
    return {
      watching: folder !== '' && this.folder === folder && this.problem === null,
      folder: folder === '' ? null : folder,
      problem: folder === '' ? null : this.folder === folder ? this.problem : null,
      waiting: [...this.seen.keys()].filter((name) => !this.handled.has(name)).slice(0, 20),
      links: [...this.links],
      files: this.outcomes.map((o) => ({ ...o })),
    };
  }

  /** One look at the folder; resolves when the files found still are stored and moved. */
  scan(): Promise<void> {
    if (this.scanning !== null) return this.scanning;
    this.scanning = this.look().finally(() => {
      this.scanning = null;
    });
    return this.scanning;
  }

  private async look(): Promise<void> {
    const folder = this.ctx.settings.watchFolder.trim();
    if (folder !== this.folder) {
      // Another folder (or none): what was seen of the old one means nothing here.
      this.folder = folder;
      this.seen.clear();
      this.handled.clear();
      this.deferred.clear();
      this.links = [];
      this.problem = null;
    }
    if (folder === '') return;
    const found = await folderProblem(folder, this.ctx.dataDir);
    const problem = found === null ? null : `${folder} ${found}`;
    // Said once when it changes, not at every look.
    if (problem !== null && problem !== this.problem) this.log?.(`[watch] ${problem}: not watched`);
    this.problem = problem;
    if (problem !== null) return;
    let listing;
    try {
      listing = await listChainFiles(folder, { max: MAX_WAITING });
    } catch (error) {
      this.problem = `${folder} cannot be read: ${fileErrorText(error)}`;
      return;
    }
    this.links = listing.links;
    const now = this.ctx.clock.monotonicMs();
    const present = new Set<string>();
    const ready: Array<{ name: string; path: string; size: number; mtimeMs: number }> = [];
    for (const file of listing.files) {
      present.add(file.name);
      const done = this.handled.get(file.name);
      if (done !== undefined && done.size === file.size && done.mtimeMs === file.mtimeMs) continue;
      this.handled.delete(file.name);
      const last = this.seen.get(file.name);
      if (last === undefined || last.size !== file.size || last.mtimeMs !== file.mtimeMs) {
        // New, or still growing: watched from now on.
        this.seen.set(file.name, { size: file.size, mtimeMs: file.mtimeMs, sinceMs: now });
        continue;
      }
      if (now - last.sinceMs < STABLE_MS) continue;
      if ((this.deferred.get(file.name) ?? 0) > now) continue;
      ready.push(file);
    }
    for (const name of [...this.seen.keys()]) if (!present.has(name)) this.seen.delete(name);
    for (const name of [...this.handled.keys()]) if (!present.has(name)) this.handled.delete(name);
    for (const name of [...this.deferred.keys()]) if (!present.has(name)) this.deferred.delete(name);
    for (const file of ready) {
      if (this.stopper.signal.aborted || this.ctx.settings.watchFolder.trim() !== folder) return;
      await this.importFile(folder, file);
    }
  }

  private remember(outcome: WatchOutcome): void {
    this.outcomes = [{ ...outcome, ...(outcome.reason === undefined ? {} : { reason: cut(outcome.reason, MAX_REASON_CHARS) }) }, ...this.outcomes].slice(0, MAX_OUTCOMES);
  }

  private async importFile(folder: string, file: { name: string; path: string; size: number; mtimeMs: number }): Promise<void> {
    const at = () => new Date(this.ctx.clock.nowMs()).toISOString();
    let read;
    try {
      read = await readChainFile(file.path);
    } catch (error) {
      // Gone meanwhile: nothing to say. A link put in its place, or a file too large: failed, with the reason.
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return;
      await this.fail(folder, file, error instanceof Error ? error.message : String(error), at());
      return;
    }
    if (read.size !== file.size || read.mtimeMs !== file.mtimeMs) {
      // It grew again between the look and the read: watched again from now.
      this.seen.set(file.name, { size: read.size, mtimeMs: read.mtimeMs, sinceMs: this.ctx.clock.monotonicMs() });
      return;
    }
    let stored;
    try {
      stored = await this.ctx.exposure.ingest({ file: read.bytes, options: {} }, this.stopper.signal);
    } catch (error) {
      if (this.stopper.signal.aborted) return;
      // A condition of the moment (another program holds the database, the disk is full, the worker stopped): the
      // file stays where it is and is tried again later.
      const reason = error instanceof Error ? error.message : String(error);
      this.deferred.set(file.name, this.ctx.clock.monotonicMs() + RETRY_MS);
      this.remember({ name: file.name, outcome: 'retry', at: at(), movedTo: null, reason: `not stored yet (${reason}); tried again in ${RETRY_MS / 1000} s` });
      this.log?.(`[watch] ${file.name}: ${reason}; tried again in ${RETRY_MS / 1000} s`);
      return;
    }
    if (!stored.ok) {
      await this.fail(folder, file, reasonText(stored.error), at());
      return;
    }
    await this.recordFile(read.digest, file.name, stored.value);
    let movedTo: string | null = null;
    try {
      const into = await ensureSubfolder(folder, IMPORTED_DIR);
      movedTo = `${IMPORTED_DIR}/${await moveInto(file.path, into)}`;
    } catch (error) {
      this.handled.set(file.name, { size: file.size, mtimeMs: file.mtimeMs });
      this.log?.(`[watch] ${file.name} was stored but could not be moved to ${IMPORTED_DIR}/: ${fileErrorText(error)}`);
    }
    this.seen.delete(file.name);
    const value = stored.value;
    this.remember({
      name: file.name,
      outcome: value.stored ? 'imported' : 'already-stored',
      at: at(),
      movedTo,
      snapshotId: value.id,
      symbol: value.symbol,
      quoteTime: value.quoteTime,
      contracts: value.contracts,
      ...(movedTo === null ? { reason: `stored, but it could not be moved to ${IMPORTED_DIR}/` } : {}),
    });
  }

  /** The file's digest kept with its snapshot: a backfill of a folder holding it skips it unread. */
  private async recordFile(digest: string, name: string, stored: IngestResult): Promise<void> {
    try {
      await this.ctx.writes.run((turn) => this.files.record(turn, { digest, snapshot_id: stored.id, name: name.slice(0, 500), stored_at: new Date(this.ctx.clock.nowMs()).toISOString() }));
    } catch (error) {
      // Only a shortcut for a later backfill: the snapshot is stored.
      this.log?.(`[watch] ${name}: its digest was not kept (${error instanceof Error ? error.message : String(error)})`);
    }
  }

  private async fail(folder: string, file: { name: string; path: string; size: number; mtimeMs: number }, reason: string, at: string): Promise<void> {
    let movedTo: string | null = null;
    let text = reason;
    try {
      const into = await ensureSubfolder(folder, FAILED_DIR);
      const name = await moveInto(file.path, into);
      movedTo = `${FAILED_DIR}/${name}`;
      await writeReason(into, name, `${file.name} was not stored:\n${reason}`).catch((error: unknown) => {
        text = `${reason}\n(the reason file could not be written: ${fileErrorText(error)})`;
      });
    } catch (error) {
      this.handled.set(file.name, { size: file.size, mtimeMs: file.mtimeMs });
      text = `${reason}\n(it could not be moved to ${FAILED_DIR}/: ${fileErrorText(error)})`;
    }
    this.seen.delete(file.name);
    this.log?.(`[watch] ${file.name} failed: ${reason.split('\n')[0] ?? ''}`);
    this.remember({ name: file.name, outcome: 'failed', at, movedTo, reason: text });
  }
}
