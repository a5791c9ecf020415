/**
 * The prepared chains of the exposure service (docs/exposure.md, "Off the event loop"): each symbol's newest snapshot
 * prepared, and a few older ones that were asked for by `snapshot=`/`at=`; preparations run in the exposure worker,
 * one per snapshot however many requests wait for it. It also watches the snapshots for changes (its own writes' and,
 * through SQLite's data_version, other processes'), and says so to its listeners (the HTTP layer's answer cache).
 */
import type { Database } from 'better-sqlite3';
import type { Ticker } from '../../../src-shared/ids';
import { EventEmitter } from 'node:events';
import { LRUCache } from 'lru-cache';
import { Generations } from '../../db/generations';
import { dataVersionReader } from '../../db/open';
import type { SnapshotRepository } from '../../db/snapshots';
import { failure, ok, type Result } from '../result';
import type { PackedSnapshot } from './compute';
import { instantBound, loadedFrom, type LoadedSnapshot, type SnapshotSelector, type SnapshotsListener } from './values';
import type { ExposureWorkerClient } from './worker-client';

/** Older snapshots kept prepared beside each symbol's newest (a prepared SPX chain is a few MB). */
const OLDER_SNAPSHOTS = 6;

/** What hears of changed snapshots: `symbol` null for "any" (a reset). */
export interface SnapshotChanges {
  onSnapshotsChanged(listener: SnapshotsListener): () => void;
  /** Looks for snapshots stored or deleted by another process (listeners hear of them before this returns). */
  refresh(): void;
}

export class ChainCache implements SnapshotChanges {
  private readonly newestBySymbol = new Map<string, LoadedSnapshot>();
  private readonly older = new LRUCache<number, LoadedSnapshot>({ max: OLDER_SNAPSHOTS });
  /** Chains being prepared in the worker, by snapshot id. */
  private readonly preparing = new Map<number, Promise<LoadedSnapshot>>();
  /** Counts resets: a chain prepared across one is prepared again. */
  private epoch = 0;
  private readonly emitter = new EventEmitter();
  private readonly generations: Generations;
  private readonly readDataVersion: () => number;
  private dataVersion: number;
  private snapshotGeneration: number;

  constructor(
    db: Database,
    private readonly snapshots: SnapshotRepository,
    private readonly worker: ExposureWorkerClient,
    private readonly rate: () => number,
  ) {
    this.generations = new Generations(db);
    this.emitter.setMaxListeners(0);
    this.readDataVersion = dataVersionReader(db);
    this.dataVersion = this.readDataVersion();
    this.snapshotGeneration = this.generations.snapshots();
  }

  onSnapshotsChanged(listener: SnapshotsListener): () => void {
    this.emitter.on('snapshots', listener);
    return () => this.emitter.off('snapshots', listener);
  }

  /** Tells the listeners that a symbol's snapshots changed. */
  changed(symbol: string): void {
    this.emitter.emit('snapshots', symbol);
  }

  /**
   * Notices snapshots stored or deleted by another connection (the CLI): SQLite's data_version says that something
   * was committed, the snapshots' own counter whether it was a snapshot. A journal import or a key-usage flush
   * leaves the prepared chains (and the server's answers) as they are.
   */
  refresh(): void {
    const version = this.readDataVersion();
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    // reset() reads the counter again.
    if (this.generations.snapshots() !== this.snapshotGeneration) this.reset();
  }

  /**
   * Drops every prepared chain (another process's snapshots, a new rate r, a write of ours rolled back: the chain it
   * prepared may be of a snapshot never stored); listeners drop their answers.
   */
  reset(): void {
    this.snapshotGeneration = this.generations.snapshots();
    this.epoch += 1;
    this.preparing.clear();
    this.newestBySymbol.clear();
    this.older.clear();
    this.emitter.emit('snapshots', null);
  }

  /**
   * Runs a write of snapshots (inside its transaction): snapshots another process stored before it are not taken
   * for its own changes (reset first), and its own changes are taken as seen.
   */
  writing<T>(write: () => T): T {
    if (this.generations.snapshots() !== this.snapshotGeneration) this.reset();
    const value = write();
    this.snapshotGeneration = this.generations.snapshots();
    return value;
  }

  /** The newest snapshot of a symbol was stored: its prepared chain (or none, to be prepared on demand). */
  setNewest(symbol: string, loaded: LoadedSnapshot | null): void {
    if (loaded === null) this.newestBySymbol.delete(symbol);
    else this.newestBySymbol.set(symbol, loaded);
  }

  /**
   * Snapshots of a symbol were deleted (by request, or pruned by retention): none of them may answer again, neither
   * from the prepared older chains nor from a preparation under way (which the epoch sends back to the database).
   */
  forgetOlder(symbol: string): void {
    this.epoch += 1;
    for (const [id, loaded] of [...this.older.entries()]) if (loaded.symbol === symbol) this.older.delete(id);
  }

  /**
   * The snapshot a request names (`snapshot=`, `at=`), or the symbol's newest; prepared. A chain not yet in memory is
   * prepared in the exposure worker (a 21k-contract SPX chain takes about 60 ms: never on the event loop).
   */
  async loaded(symbol: Ticker, selector: SnapshotSelector = {}, attempt = 0): Promise<Result<LoadedSnapshot>> {
    this.refresh();
    let id: number | null;
    if (selector.snapshot !== undefined) {
      id = selector.snapshot;
    } else if (selector.at !== undefined) {
      id = this.snapshots.atOrBefore(symbol, instantBound(selector.at, 'end'));
      if (id === null && this.snapshots.latest(symbol) !== null) return failure({ kind: 'unknown-snapshot', symbol, at: selector.at });
    } else {
      id = this.newestBySymbol.get(symbol)?.snapshotId ?? this.snapshots.latest(symbol)?.id ?? null;
    }
    // Unknown symbols are not remembered: a client cycling through names would grow the maps.
    if (id === null) return failure({ kind: 'unknown-symbol', symbol, known: this.snapshots.symbols() });
    const newest = this.newestBySymbol.get(symbol);
    if (newest?.snapshotId === id) return ok(newest);
    const cached = this.older.get(id);
    if (cached !== undefined) return ok(cached);
    const stored = this.snapshots.byId(id);
    // A snapshot of another symbol is as unknown as one that does not exist: ids are not a way around `symbol`.
    if (stored === null || stored.symbol !== symbol) return failure({ kind: 'unknown-snapshot', symbol, id });
    const epoch = this.epoch;
    const loaded = await this.prepare(stored);
    if (epoch !== this.epoch) {
      // Prepared across a reset (another process's snapshots, a new rate r): prepared again, so that no answer of the
      // old chain is kept after the listeners dropped theirs; resets one after another are not waited out forever.
      return attempt < 2 ? this.loaded(symbol, selector, attempt + 1) : ok(loaded);
    }
    if (this.snapshots.latest(symbol)?.id === id) this.newestBySymbol.set(symbol, loaded);
    else this.older.set(id, loaded);
    return ok(loaded);
  }

  /** One preparation in the worker per snapshot, however many requests wait for it. */
  private prepare(stored: PackedSnapshot): Promise<LoadedSnapshot> {
    const waiting = this.preparing.get(stored.id);
    if (waiting !== undefined) return waiting;
    const pending: Promise<LoadedSnapshot> = this.worker
      .call('prepare', stored, this.rate())
      .then((chain) => loadedFrom(stored.id, chain))
      .finally(() => {
        // A reset may have let another preparation of the same snapshot start meanwhile: that one stays.
        if (this.preparing.get(stored.id) === pending) this.preparing.delete(stored.id);
      });
    this.preparing.set(stored.id, pending);
    return pending;
  }
}
