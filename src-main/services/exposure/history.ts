import type { GexHistoryPoint } from '../../../src-shared/exposure/index';
import type { GexHistoryRepository } from '../../db/gex-history';
import type { WriteQueue } from '../../db/writes';

/** History points kept in memory while another process holds the write lock (a point is a few hundred bytes). */
export const MAX_UNSTORED_POINTS = 10_000;

/**
 * The /gex/history points of the stored snapshots: those kept in gex_history, and those computed but not stored yet.
 * Computed points are stored as a background write (WriteQueue.background): a read never waits for the lock nor
 * answers 503 for it (docs/decisions.md, "A database locked by another process"). When the lock is free the write
 * happens at once, before the answer; while another process holds it the points wait here (later requests read them;
 * at most MAX_UNSTORED_POINTS) and the write is retried, or dropped: a point is computed again when asked for.
 */
export class HistoryPoints {
  private readonly unstored = new Map<string, Map<number, GexHistoryPoint>>();
  private unstoredCount = 0;

  constructor(
    private readonly repository: GexHistoryRepository,
    private readonly log?: (line: string) => void,
  ) {}

  /** The known points of these snapshots in one scope, by snapshot id. */
  find(snapshotIds: readonly number[], scope: string): Map<number, GexHistoryPoint> {
    const points = this.repository.points(snapshotIds, scope);
    const waiting = this.unstored.get(scope);
    if (waiting !== undefined) {
      for (const id of snapshotIds) {
        const point = points.has(id) ? undefined : waiting.get(id);
        if (point !== undefined) points.set(id, point);
      }
    }
    return points;
  }

  /** Points waiting for the lock (tests and the memory bound read it). */
  get waiting(): number {
    return this.unstoredCount;
  }

  /** Stores computed points in the background; until then (or until dropped) `find` answers them from memory. */
  keep(scope: string, computed: ReadonlyArray<{ id: number; point: GexHistoryPoint }>, writes: WriteQueue): void {
    const held = computed.slice(0, Math.max(0, MAX_UNSTORED_POINTS - this.unstoredCount));
    if (held.length > 0) {
      const waiting = this.unstored.get(scope) ?? new Map<number, GexHistoryPoint>();
      this.unstored.set(scope, waiting);
      for (const { id, point } of held) {
        if (!waiting.has(id)) this.unstoredCount += 1;
        waiting.set(id, point);
      }
    }
    void writes
      .background(
        (turn) => {
          for (const { id, point } of computed) this.repository.insert(turn, id, scope, point);
        },
        { onError: (error) => this.log?.(`[exposure] history points not kept: ${String(error)}`) },
      )
      .then(() => {
        const waiting = this.unstored.get(scope);
        for (const { id } of held) if (waiting?.delete(id) === true) this.unstoredCount -= 1;
        if (waiting?.size === 0) this.unstored.delete(scope);
      });
  }
}
