/**
 * Backfill (issue 30; docs/exposure.md §Chains that arrive by themselves): a folder of historical chain files (any
 * format POST /v1/chains reads, subfolders included) stored oldest first by quote time, so that events come out as
 * they did and the journal's marks, levels at entry and expiry evidence find the snapshots of its history. From the
 * CLI (`strikebook chain backfill DIR`) and the server (`POST /v1/chains/backfill`, Settings), one at a time.
 *
 * - Dated first: each file read (its SHA-256 taken as it is read) and, unless a file of those bytes is stored already
 *   (chain_files: skipped unparsed, which makes a backfill run again continue where it stopped), dated in the exposure
 *   worker (peek.ts). Then stored in that order, each planned in the worker and committed in a write turn of its own:
 *   other requests wait at most one file's turn.
 * - Snapshots older than the symbol's retention keeps (with what is stored) are not read: they would be pruned at once
 *   (counted, and said).
 * - Quiet but the newest: a backfilled snapshot older than the backfill's newest of its symbol is stored with its
 *   events but streams nothing and raises no position alert (those are about your positions now).
 * - A Parquet lake (docs/research.md: `strikebook export`'s folder, or any folder holding its files) is backfilled the
 *   same way: each `.parquet` file is a lake file, dated by its footer and read back into its snapshot in the exposure
 *   worker (lake-plan.ts), so that it is stored exactly as the chain file it came from (same contracts, digest, /gex);
 *   the lake's levels, transactions and trades files hold no chain (counted as `lakeOther`); a foreign or damaged
 *   Parquet file fails alone with its reason. Chain files and lake files may sit in one folder.
 * - Progress is kept in memory for GET and, every PERSIST_MS, in chain_backfills, so that one interrupted by a stop or
 *   a crash is shown as interrupted after the restart and continued by starting it again.
 */
import type { Database } from 'better-sqlite3';
import type { Clock } from '../clock';
import { ChainFilesRepository, type ChainBackfillRow } from '../db/chain-files';
import { SnapshotRepository } from '../db/snapshots';
import { isDatabaseBusy, isStorageFull, type WriteQueue } from '../db/writes';
import type { Settings } from '../settings';
import type { ExposureService } from './exposure/service';
import { CHAIN_FILE_EXTENSIONS, folderProblem, LAKE_FILE_EXTENSION, listChainFiles, readChainFile } from './chain-folder';
import { failure, ok, type Result } from './result';
import { reasonText } from './watch-folder';

/** Failures kept with a backfill (the first ones; the count has them all). */
export const MAX_FAILURES_KEPT = 50;
/** Progress written to the database at most this often (and at the end). */
const PERSIST_MS = 2000;
/** A file met a database busy elsewhere: it is tried again after this, up to BUSY_TRIES times. */
const BUSY_PAUSE_MS = 2000;
const BUSY_TRIES = 30;

export type BackfillState = 'running' | 'done' | 'failed' | 'interrupted';
export type BackfillPhase = 'listing' | 'dating' | 'importing' | 'finished';

export interface BackfillCounts {
  /** Chain files found (CSV and JSON, subfolders included). */
  files: number;
  /** Files read and dated (or found stored already) in the first pass. */
  dated: number;
  /** Files to store, after those stored already and those beyond retention. */
  toImport: number;
  /** Of toImport, handled so far. */
  imported: number;
  /** New snapshots stored. */
  stored: number;
  /** Files stored before (by their bytes, or the same chain by content). */
  alreadyStored: number;
  failed: number;
  /** Older than the retention of their symbol keeps: not read. */
  beyondRetention: number;
  events: number;
  /** Symbolic links met, not followed. */
  links: number;
  /** Files past the listing's bound. */
  omitted: number;
  /** Of files, the lake's Parquet files (snapshots' contracts, and the others below). */
  lakeFiles: number;
  /** Lake files that hold no chain (levels, transactions, trades): read, not stored. */
  lakeOther: number;
}

export interface BackfillJob {
  id: number;
  path: string;
  state: BackfillState;
  phase: BackfillPhase;
  startedAt: string;
  finishedAt: string | null;
  /** The file being read or stored. */
  current: string | null;
  counts: BackfillCounts;
  /** The first MAX_FAILURES_KEPT files that failed, with why. */
  failures: Array<{ file: string; reason: string }>;
  /** Symbols whose retention left snapshots out: raise snapshotRetentionBySymbol to keep them. */
  retention: Array<{ symbol: string; keep: number; left: number }>;
  /** Quote times of the files to store. */
  oldest: string | null;
  newest: string | null;
  /** Why the backfill stopped before its end (failed), or null. */
  error: string | null;
}

export interface BackfillContext {
  db: Database;
  writes: WriteQueue;
  exposure: Pick<ExposureService, 'ingest' | 'peekFile' | 'peekLakeFile'>;
  readonly settings: Pick<Settings, 'snapshotRetention' | 'snapshotRetentionBySymbol'>;
  clock: Clock;
  /** The data folder: never a backfill's folder. */
  dataDir: string;
}

interface Candidate {
  path: string;
  name: string;
  digest: string;
  symbol: string;
  quoteTime: string;
  /** A lake's contracts file (stored through planLakeFile), not a chain file. */
  lake: boolean;
}

const emptyCounts = (): BackfillCounts => ({ files: 0, dated: 0, toImport: 0, imported: 0, stored: 0, alreadyStored: 0, failed: 0, beyondRetention: 0, events: 0, links: 0, omitted: 0, lakeFiles: 0, lakeOther: 0 });

function copyJob(job: BackfillJob): BackfillJob {
  return { ...job, counts: { ...job.counts }, failures: job.failures.map((f) => ({ ...f })), retention: job.retention.map((r) => ({ ...r })) };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The job as kept in chain_backfills (its progress as JSON). */
function jobFromRow(row: ChainBackfillRow): BackfillJob | null {
  try {
    const saved = JSON.parse(row.progress) as Partial<BackfillJob>;
    const state: BackfillState = row.state === 'done' || row.state === 'failed' || row.state === 'interrupted' ? row.state : 'interrupted';
    return {
      id: row.id,
      path: row.path,
      state,
      phase: saved.phase ?? 'finished',
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      current: null,
      counts: { ...emptyCounts(), ...saved.counts },
      failures: Array.isArray(saved.failures) ? saved.failures.slice(0, MAX_FAILURES_KEPT) : [],
      retention: Array.isArray(saved.retention) ? saved.retention : [],
      oldest: saved.oldest ?? null,
      newest: saved.newest ?? null,
      error: saved.error ?? null,
    };
  } catch {
    return null;
  }
}

export class ChainBackfill {
  private job: BackfillJob | null = null;
  private current: Promise<void> | null = null;
  private readonly stopper = new AbortController();
  private readonly files: ChainFilesRepository;
  private readonly snapshots: SnapshotRepository;
  private lastPersistMs = Number.NEGATIVE_INFINITY;
  private listeners = new Set<(job: BackfillJob) => void>();

  constructor(
    private readonly ctx: BackfillContext,
    private readonly log?: (line: string) => void,
  ) {
    this.files = new ChainFilesRepository(ctx.db);
    this.snapshots = new SnapshotRepository(ctx.db);
    const latest = this.files.latestBackfill();
    this.job = latest === null ? null : jobFromRow(latest);
  }

  /**
   * Backfills marked running in the database were interrupted (the process ended during them): said so. Called once
   * at the server's start (a write turn).
   */
  async markInterrupted(): Promise<void> {
    const at = new Date(this.ctx.clock.nowMs()).toISOString();
    const changed = await this.ctx.writes.run((turn) => this.files.markInterrupted(turn, at));
    if (changed > 0 && this.job !== null && this.job.state === 'running') this.job = { ...this.job, state: 'interrupted', finishedAt: at };
  }

  /** Told of each step of the running backfill (the CLI's progress bar). */
  onProgress(listener: (job: BackfillJob) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The running or latest backfill (a copy), or null before the first. */
  status(): BackfillJob | null {
    return this.job === null ? null : copyJob(this.job);
  }

  running(): boolean {
    return this.current !== null;
  }

  /** Resolves when the running backfill (if any) has ended. */
  async settled(): Promise<void> {
    await this.current;
  }

  /** The server is closing: the backfill stops after its file in flight, marked interrupted. */
  async stop(): Promise<void> {
    this.stopper.abort();
    await this.current;
  }

  /** Starts a backfill of `path`; answers once it is under way (its id and first state). */
  async start(path: string): Promise<Result<BackfillJob>> {
    if (this.stopper.signal.aborted) return failure({ kind: 'conflict', param: 'path', detail: 'The server is stopping.' });
    if (this.current !== null) {
      return failure({ kind: 'conflict', param: 'path', detail: `A backfill of ${this.job?.path ?? 'a folder'} is running (started ${this.job?.startedAt ?? 'a moment ago'}): GET /v1/chains/backfill follows it.` });
    }
    const problem = await folderProblem(path, this.ctx.dataDir);
    if (problem !== null) return failure({ kind: 'invalid-request', what: 'backfill', problems: [{ param: 'path', message: `${JSON.stringify(path.slice(0, 300))} ${problem}` }] });
    const startedAt = new Date(this.ctx.clock.nowMs()).toISOString();
    const job: BackfillJob = { id: 0, path, state: 'running', phase: 'listing', startedAt, finishedAt: null, current: null, counts: emptyCounts(), failures: [], retention: [], oldest: null, newest: null, error: null };
    // Claimed before the first await that follows: a second request meanwhile finds it running.
    let release = () => undefined as void;
    this.current = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.job = job;
    try {
      job.id = await this.ctx.writes.run((turn) => this.files.startBackfill(turn, { path, state: 'running', started_at: startedAt, finished_at: null, progress: this.progressJson(job) }));
    } catch (error) {
      this.current = null;
      release();
      throw error;
    }
    void this.run(job)
      .catch((error: unknown) => {
        job.state = 'failed';
        job.error = error instanceof Error ? error.message : String(error);
      })
      .finally(async () => {
        if (job.state === 'running') job.state = 'done';
        job.phase = 'finished';
        job.current = null;
        job.finishedAt = new Date(this.ctx.clock.nowMs()).toISOString();
        await this.persist(job, true).catch((error: unknown) => this.log?.(`[backfill] its progress was not kept: ${String(error)}`));
        this.notify(job);
        this.current = null;
        release();
      });
    return ok(copyJob(job));
  }

  private notify(job: BackfillJob): void {
    for (const listener of this.listeners) listener(copyJob(job));
  }

  private progressJson(job: BackfillJob): string {
    return JSON.stringify({ phase: job.phase, counts: job.counts, failures: job.failures, retention: job.retention, oldest: job.oldest, newest: job.newest, error: job.error });
  }

  /** Progress into chain_backfills, at most every PERSIST_MS (always with `force`); a busy database waits for the next. */
  private async persist(job: BackfillJob, force = false): Promise<void> {
    const now = this.ctx.clock.monotonicMs();
    if (!force && now - this.lastPersistMs < PERSIST_MS) return;
    this.lastPersistMs = now;
    const row = { id: job.id, state: job.state, finished_at: job.finishedAt, progress: this.progressJson(job) };
    try {
      await this.ctx.writes.run((turn) => this.files.updateBackfill(turn, row), force ? undefined : 0);
    } catch (error) {
      if (!force && isDatabaseBusy(error)) return;
      throw error;
    }
  }

  private failed(job: BackfillJob, file: string, reason: string): void {
    job.counts.failed += 1;
    if (job.failures.length < MAX_FAILURES_KEPT) job.failures.push({ file, reason: reason.length > 2000 ? `${reason.slice(0, 1999)}…` : reason });
  }

  private retentionOf(symbol: string): number {
    const settings = this.ctx.settings;
    return Math.max(1, settings.snapshotRetentionBySymbol[symbol] ?? settings.snapshotRetention);
  }

  private async run(job: BackfillJob): Promise<void> {
    const signal = this.stopper.signal;
    const listing = await listChainFiles(job.path, { recursive: true, extensions: [...CHAIN_FILE_EXTENSIONS, LAKE_FILE_EXTENSION] });
    const isLake = (name: string) => name.toLowerCase().endsWith(LAKE_FILE_EXTENSION);
    job.counts.files = listing.files.length;
    job.counts.lakeFiles = listing.files.filter((file) => isLake(file.name)).length;
    job.counts.links = listing.linkCount;
    job.counts.omitted = listing.omitted;
    job.phase = 'dating';
    this.notify(job);

    // 1. Each file read and dated (or known by its bytes).
    const candidates: Candidate[] = [];
    for (const file of listing.files) {
      if (signal.aborted) return this.interrupt(job);
      job.current = file.name;
      try {
        const read = await readChainFile(file.path);
        if (this.files.known(read.digest) !== null) job.counts.alreadyStored += 1;
        else if (isLake(file.name)) {
          const dated = await this.ctx.exposure.peekLakeFile(read.bytes, signal);
          if (!dated.ok) this.failed(job, file.name, reasonText(dated.error));
          else if (dated.value.table === 'other') job.counts.lakeOther += 1;
          else candidates.push({ path: file.path, name: file.name, digest: read.digest, symbol: dated.value.symbol, quoteTime: dated.value.quoteTime, lake: true });
        } else {
          const dated = await this.ctx.exposure.peekFile(read.bytes, {}, signal);
          if (dated.ok) candidates.push({ path: file.path, name: file.name, digest: read.digest, ...dated.value, lake: false });
          else this.failed(job, file.name, reasonText(dated.error));
        }
      } catch (error) {
        if (signal.aborted) return this.interrupt(job);
        this.failed(job, file.name, error instanceof Error ? error.message : String(error));
      }
      job.counts.dated += 1;
      this.notify(job);
      await this.persist(job);
    }

    // 2. Oldest first; per symbol only what its retention keeps beside the snapshots stored.
    const bySymbol = new Map<string, Candidate[]>();
    for (const candidate of candidates) {
      const list = bySymbol.get(candidate.symbol) ?? [];
      list.push(candidate);
      bySymbol.set(candidate.symbol, list);
    }
    const queue: Candidate[] = [];
    const newestOf = new Map<string, Candidate>();
    for (const [symbol, list] of bySymbol) {
      const keep = this.retentionOf(symbol);
      const stored = this.snapshots.stamps(symbol).map((s) => new Date(s.quote_time).toISOString());
      const cutoff = [...stored, ...list.map((c) => c.quoteTime)].sort().reverse()[keep - 1] ?? '';
      const kept = list.filter((c) => c.quoteTime >= cutoff);
      const left = list.length - kept.length;
      if (left > 0) {
        job.counts.beyondRetention += left;
        job.retention.push({ symbol, keep, left });
      }
      queue.push(...kept);
      const newest = kept.reduce<Candidate | null>((a, c) => (a === null || c.quoteTime > a.quoteTime ? c : a), null);
      if (newest !== null) newestOf.set(symbol, newest);
    }
    queue.sort((a, b) => (a.quoteTime < b.quoteTime ? -1 : a.quoteTime > b.quoteTime ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    job.counts.toImport = queue.length;
    job.oldest = queue[0]?.quoteTime ?? null;
    job.newest = queue[queue.length - 1]?.quoteTime ?? null;
    job.phase = 'importing';
    this.notify(job);
    await this.persist(job, true);

    // 3. Stored one by one, each in a write turn of its own.
    for (const candidate of queue) {
      if (signal.aborted) return this.interrupt(job);
      job.current = candidate.name;
      const quiet = newestOf.get(candidate.symbol) !== candidate;
      const outcome = await this.store(candidate, quiet, signal);
      if (outcome === 'stopped') return this.interrupt(job);
      if (typeof outcome === 'string') this.failed(job, candidate.name, outcome);
      else {
        if (outcome.stored) job.counts.stored += 1;
        else job.counts.alreadyStored += 1;
        job.counts.events += outcome.events;
      }
      job.counts.imported += 1;
      this.notify(job);
      await this.persist(job);
    }
    job.current = null;
    this.log?.(`[backfill] ${job.path}: ${job.counts.stored} stored, ${job.counts.alreadyStored} already stored, ${job.counts.failed} failed, ${job.counts.beyondRetention} beyond retention`);
  }

  private interrupt(job: BackfillJob): void {
    job.state = 'interrupted';
  }

  /** One file stored and its digest kept; its failure's reason; 'stopped' when the server stops. */
  private async store(candidate: Candidate, quiet: boolean, signal: AbortSignal): Promise<{ stored: boolean; events: number } | string | 'stopped'> {
    for (let attempt = 1; ; attempt += 1) {
      // Read for each attempt: the bytes of the last one were moved to the exposure worker.
      let read;
      try {
        read = await readChainFile(candidate.path);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      try {
        const stored = await this.ctx.exposure.ingest(candidate.lake ? { lakeFile: read.bytes, quiet } : { file: read.bytes, options: {}, quiet }, signal);
        if (!stored.ok) return reasonText(stored.error);
        const at = new Date(this.ctx.clock.nowMs()).toISOString();
        await this.ctx.writes.run((turn) => this.files.record(turn, { digest: read.digest, snapshot_id: stored.value.id, name: candidate.name.slice(0, 500), stored_at: at }));
        return { stored: stored.value.stored, events: stored.value.events };
      } catch (error) {
        if (signal.aborted) return 'stopped';
        if (isStorageFull(error)) throw error;
        // Another program holds the database (the CLI, a backup): the file waits, the backfill with it.
        if (isDatabaseBusy(error) && attempt < BUSY_TRIES) {
          await sleep(BUSY_PAUSE_MS);
          continue;
        }
        return error instanceof Error ? error.message : String(error);
      }
    }
  }
}
