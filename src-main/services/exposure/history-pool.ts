import type { GexHistoryPoint } from '../../../src-shared/exposure/index';
import type { GexScopeQuery, PackedSnapshot } from './compute';
import type { ExposureWorkerClient } from './worker-client';

/**
 * Exposure workers computing cold history points at once (docs/decisions.md, "History workers"): the budget is 1,000
 * SPX points in 10 s on two cores, and one worker would take both the points and the uploads of a day.
 */
export const HISTORY_WORKERS = 2;
/**
 * Snapshots sent to a worker per call: the payloads in flight stay a few MB (8 × 183 KB per worker) however many
 * points a request misses, and a request given up stops within a batch.
 */
export const HISTORY_BATCH = 8;

/** What the points of one request are computed in, and where they go once computed. */
export interface HistoryScope {
  /** The scope's key (compute.ts, scopeKey). */
  scope: string;
  query: GexScopeQuery;
  rate: number;
  /** Hears of each batch computed, once (the service stores its points). */
  keep: (computed: Array<{ id: number; point: GexHistoryPoint }>) => void;
}

interface Task {
  key: string;
  id: number;
  /** The scope and rate the point is computed in (one batch shares them). */
  group: string;
  asked: HistoryScope;
  /** Requests still waiting for it: a task nobody waits for any more is not computed. */
  wanted: number;
  done: (point: GexHistoryPoint | null) => void;
  fail: (error: unknown) => void;
  promise: Promise<GexHistoryPoint | null>;
}

/**
 * The missing points of /gex/history, computed by a small pool of exposure workers. Each point is computed once
 * however many requests miss it together (they wait for the same task); the points a request needs are split in
 * batches that the workers take as they become free; a request whose client went away stops asking, and its points
 * that no other request waits for are dropped from the queue (a batch already sent finishes and is kept).
 */
export class HistoryPool {
  private readonly queue: Task[] = [];
  private readonly tasks = new Map<string, Task>();
  private readonly workers: Array<ExposureWorkerClient | null>;
  private readonly busy: boolean[];
  /** Points computed since the start (tests: each is computed once). */
  computed = 0;

  /**
   * `first` is the service's own worker (uploads share it); the others are started on their first batch.
   * `read` loads a stored snapshot when its batch is sent (null: deleted meanwhile).
   */
  constructor(
    first: ExposureWorkerClient,
    private readonly start: () => ExposureWorkerClient,
    private readonly read: (id: number) => PackedSnapshot | null,
    size = HISTORY_WORKERS,
  ) {
    this.workers = [first, ...Array.from({ length: Math.max(0, size - 1) }, () => null)];
    this.busy = this.workers.map(() => false);
  }

  /** Workers started (tests: a cold history of more than one batch uses them all). */
  get started(): number {
    return this.workers.filter((worker) => worker !== null).length;
  }

  /** Waiting tasks (tests: a request given up leaves none behind). */
  get queued(): number {
    return this.queue.length;
  }

  /** The points of these snapshots in one scope; a snapshot deleted meanwhile has none. */
  async points(ids: readonly number[], asked: HistoryScope, signal?: AbortSignal): Promise<Map<number, GexHistoryPoint>> {
    const group = `${asked.rate}|${asked.scope}`;
    const mine: Task[] = [];
    for (const id of ids) {
      const key = `${group}|${id}`;
      let task = this.tasks.get(key);
      if (task === undefined) {
        let done: (point: GexHistoryPoint | null) => void = () => undefined;
        let fail: (error: unknown) => void = () => undefined;
        const promise = new Promise<GexHistoryPoint | null>((resolve, reject) => {
          done = resolve;
          fail = reject;
        });
        // Handled here too: a batch that fails after its requests gave up must not be an unhandled rejection.
        promise.catch(() => undefined);
        task = { key, id, group, asked, wanted: 0, done, fail, promise };
        this.tasks.set(key, task);
        this.queue.push(task);
      }
      task.wanted += 1;
      mine.push(task);
    }
    const giveUp = () => {
      for (const task of mine) {
        task.wanted -= 1;
        if (task.wanted > 0) continue;
        const at = this.queue.indexOf(task);
        if (at < 0) continue;
        this.queue.splice(at, 1);
        this.tasks.delete(task.key);
        task.done(null);
      }
    };
    if (signal?.aborted === true) giveUp();
    else signal?.addEventListener('abort', giveUp, { once: true });
    this.pump();
    try {
      const found = new Map<number, GexHistoryPoint>();
      const points = await Promise.all(mine.map((task) => task.promise));
      points.forEach((point, index) => {
        const task = mine[index];
        if (point !== null && task !== undefined) found.set(task.id, point);
      });
      return found;
    } finally {
      signal?.removeEventListener('abort', giveUp);
    }
  }

  /** Gives each free worker the next batch: up to HISTORY_BATCH waiting tasks of the first task's scope. */
  private pump(): void {
    for (let slot = 0; slot < this.workers.length && this.queue.length > 0; slot += 1) {
      if (this.busy[slot] === true) continue;
      const group = this.queue[0]?.group;
      const batch: Task[] = [];
      for (let i = 0; i < this.queue.length && batch.length < HISTORY_BATCH; ) {
        const task = this.queue[i];
        if (task !== undefined && task.group === group) {
          batch.push(task);
          this.queue.splice(i, 1);
        } else {
          i += 1;
        }
      }
      this.busy[slot] = true;
      void this.run(slot, batch).finally(() => {
        this.busy[slot] = false;
        this.pump();
      });
    }
  }

  private async run(slot: number, batch: Task[]): Promise<void> {
    const first = batch[0];
    if (first === undefined) return;
    try {
      // Read now, not when asked: only the batches in flight hold payloads.
      const stored = batch.map((task) => this.read(task.id)).filter((row) => row !== null);
      const worker = this.workers[slot] ?? this.start();
      this.workers[slot] = worker;
      const computed = stored.length === 0 ? [] : await worker.call('historyPoints', stored, first.asked.query, first.asked.rate);
      this.computed += computed.length;
      if (computed.length > 0) first.asked.keep(computed);
      const byId = new Map(computed.map(({ id, point }) => [id, point]));
      for (const task of batch) task.done(byId.get(task.id) ?? null);
    } catch (error) {
      // A worker's error fails the requests that wait for the batch (500, logged); the next request tries again.
      for (const task of batch) task.fail(error);
    } finally {
      for (const task of batch) this.tasks.delete(task.key);
    }
  }

  /** Ends the workers this pool started (not the service's own). */
  async close(): Promise<void> {
    await Promise.all(this.workers.slice(1).map((worker) => worker?.close()));
  }
}
