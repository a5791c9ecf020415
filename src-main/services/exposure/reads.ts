/**
 * Exposure reads beside the service's own (services/exposure.ts): /gex/grid (docs/exposure.md, "Grid"), net GEX per
 * expiration × strike for a heat map through the service's /gex-like answers (cached by snapshot, formula and resolved
 * expirations like /gex), and one stored snapshot by id (`GET /v1/snapshots/{id}`, the Location of `POST /v1/chains`).
 */
import type { Formula } from '../../../src-shared/api/constants';
import { computeGexGrid, type GexGridResult } from '../../../src-shared/exposure/index';
import type { Clock } from '../../clock';
import type { ExposureService } from './service';
import { snapshotInfo, type PlannedAnswer, type SnapshotInfo, type SnapshotListing, type SnapshotSelector } from './values';
import { failure, ok, type Result } from '../result';

export interface GexGridValue {
  snapshot: SnapshotInfo;
  result: GexGridResult;
  asOfMs: number;
}

export type GexGridQuery = { symbol: string; formula?: Formula; minDte?: number; maxDte?: number } & SnapshotSelector;

/** Every unexpired expiration within [minDte, maxDte] (default: the whole chain). */
export function gexGrid(exposure: ExposureService, query: GexGridQuery, clock: Clock): Promise<Result<PlannedAnswer<GexGridValue>>> {
  return exposure.gexAnswer('grid', { ...query, minDte: query.minDte ?? 0 }, (loaded, options) => ({
    snapshot: snapshotInfo(loaded),
    result: computeGexGrid(loaded.chain, options),
    asOfMs: clock.nowMs(),
  }));
}

/** One stored snapshot without its contracts. */
export function snapshotById(exposure: ExposureService, id: number): Result<SnapshotListing> {
  const head = exposure.snapshots.headById(id);
  return head === null ? failure({ kind: 'unknown-snapshot', id }) : ok(head);
}
