import type { Database, Statement } from 'better-sqlite3';
import type { GexHistoryPoint } from '../../src-shared/exposure/index';
import { sql, Table, type SqlValue } from './sql';
import { storedHistoryPoint } from './stored-json';
import type { WriteTx } from './writes';

/** A row of `gex_history` (migration 007): one snapshot's /gex/history point in one scope, as JSON. */
export type GexHistoryRow = {
  snapshot_id: number;
  scope: string;
  point: string;
};

export const GEX_HISTORY = Table.of<GexHistoryRow>()('gex_history', ['snapshot_id', 'scope', 'point']);

/**
 * Scopes kept per snapshot. A key holder can ask for any number of scopes (expiration subsets, dte ranges): past
 * this many a snapshot's further points are computed and answered but not kept (docs/decisions.md, "Bounded
 * memory"). The UI uses about a dozen (formulas × counts × the dte switch).
 */
export const MAX_SCOPES_PER_SNAPSHOT = 64;

export class GexHistoryRepository {
  private readonly insertStatement: Statement<[GexHistoryRow]>;

  constructor(private readonly db: Database) {
    // Only while the snapshot exists (a point computed off the event loop may come back after its snapshot was
    // deleted), and only up to MAX_SCOPES_PER_SNAPSHOT scopes of it.
    this.insertStatement = db.prepare<[GexHistoryRow]>(
      `INSERT OR IGNORE INTO gex_history (${GEX_HISTORY.columnList}) SELECT @snapshot_id, @scope, @point
       WHERE EXISTS (SELECT 1 FROM snapshots WHERE id = @snapshot_id)
         AND (SELECT COUNT(*) FROM gex_history WHERE snapshot_id = @snapshot_id) < ${MAX_SCOPES_PER_SNAPSHOT}`,
    );
  }

  /** The stored points of these snapshots in one scope, by snapshot id. */
  points(snapshotIds: readonly number[], scope: string): Map<number, GexHistoryPoint> {
    const found = new Map<number, GexHistoryPoint>();
    if (snapshotIds.length === 0) return found;
    const query = sql`SELECT snapshot_id, point FROM gex_history WHERE scope = ${scope} AND snapshot_id IN ${sql.list(snapshotIds)}`;
    for (const row of this.db.prepare<SqlValue[], Pick<GexHistoryRow, 'snapshot_id' | 'point'>>(query.text).all(...query.params)) {
      // The JSON this repository wrote (insert); a point that does not read as one is missing: computed again.
      const point = storedHistoryPoint.read(row.point);
      if (point !== null) found.set(row.snapshot_id, point);
    }
    return found;
  }

  /** Keeps a computed point (a snapshot deleted meanwhile, or one with MAX_SCOPES_PER_SNAPSHOT scopes, takes nothing). */
  insert(_turn: WriteTx, snapshotId: number, scope: string, point: GexHistoryPoint): void {
    this.insertStatement.run({ snapshot_id: snapshotId, scope, point: JSON.stringify(point) });
  }
}
