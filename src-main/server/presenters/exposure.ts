/**
 * The /v1 JSON of exposure answers: the engine's figures with what the response adds about the snapshot (symbol,
 * source, quote time), the formula's unit and `asOf`.
 */
import { FORMULA_UNITS } from '../../../src-shared/api/constants';
import type {
  ExpirationsResponseT,
  ExposureEventJson,
  GexDiffResponseT,
  GexGridResponseT,
  GexHistoryResponseT,
  GexProfileResponseT,
  GexResponseT,
  SnapshotResponseT,
  SnapshotsResponseT,
  VannaResponseT,
} from '../../../src-shared/api/schemas';
import type { DiffValue, ExpirationsValue, ExposureEvent, GexProfileValue, GexValue, HistoryValue, SnapshotListing, VannaValue } from '../../services/exposure/service';
import type { GexGridValue } from '../../services/exposure/reads';

export function presentGex({ snapshot, result, formula, asOfMs }: GexValue): GexResponseT {
  return {
    ...result,
    symbol: snapshot.symbol,
    meta: { ...result.meta, unit: FORMULA_UNITS[formula], source: snapshot.source, snapshotTime: snapshot.quoteTime, snapshotId: snapshot.id },
    asOf: new Date(asOfMs).toISOString(),
  };
}

export function presentVanna({ snapshot, result, asOfMs }: VannaValue): VannaResponseT {
  return {
    ...result,
    symbol: snapshot.symbol,
    availableExpirations: snapshot.expirations,
    meta: { source: snapshot.source, snapshotTime: snapshot.quoteTime, ...result.meta },
    asOf: new Date(asOfMs).toISOString(),
  };
}

export function presentExpirations({ snapshot, details, excludedContracts }: ExpirationsValue): ExpirationsResponseT {
  const termStructure = details.map(({ expiration, dte, atmIV }) => ({ expiration, dte, atmIV }));
  return { symbol: snapshot.symbol, expirations: snapshot.expirations, details, termStructure, snapshotTime: snapshot.quoteTime, meta: { excludedContracts } };
}

/** An event is already in its wire shape (the engine's draft, its id and dte): this checks that it stays so. */
export function presentEvent(event: ExposureEvent): ExposureEventJson {
  return event;
}

export function presentGexProfile({ snapshot, result, asOfMs }: GexProfileValue): GexProfileResponseT {
  const { expirations, ...rest } = result;
  return {
    ...rest,
    unit: FORMULA_UNITS[result.formula],
    meta: { expirations, snapshotId: snapshot.id, snapshotTime: snapshot.quoteTime, source: snapshot.source },
    asOf: new Date(asOfMs).toISOString(),
  };
}

export function presentGexGrid({ snapshot, result, asOfMs }: GexGridValue): GexGridResponseT {
  return {
    ...result,
    unit: FORMULA_UNITS[result.formula],
    meta: { snapshotId: snapshot.id, snapshotTime: snapshot.quoteTime, source: snapshot.source },
    asOf: new Date(asOfMs).toISOString(),
  };
}

export function presentHistory({ symbol, formula, points }: HistoryValue): GexHistoryResponseT {
  return { symbol, formula, unit: FORMULA_UNITS[formula], points };
}

export function presentDiff({ symbol, formula, from, to, data }: DiffValue): GexDiffResponseT {
  const side = ({ snapshot, result }: DiffValue['from']) => ({ snapshotId: snapshot.id, quoteTime: snapshot.quoteTime, spot: snapshot.spot, totalGEX: result.totalGEX, expirations: result.meta.expirations });
  return { symbol, formula, unit: FORMULA_UNITS[formula], from: side(from), to: side(to), data };
}

export function presentSnapshots(symbol: string, snapshots: readonly SnapshotListing[]): SnapshotsResponseT {
  return { symbol, snapshots: snapshots.map(({ id, quoteTime, spot, contracts, expirations, source }) => ({ id, quoteTime, spot, contracts, expirations, source })) };
}

export function presentSnapshot({ id, symbol, quoteTime, spot, contracts, expirations, source }: SnapshotListing): SnapshotResponseT {
  return { id, symbol, quoteTime, spot, contracts, expirations, source };
}
