/**
 * The /v1 JSON of exposure answers: the engine's figures with what the response adds about the snapshot (symbol,
 * source, quote time), the formula's unit and `asOf`.
 */
import { FORMULA_UNITS } from '../../../src-shared/api/constants';
import type { Ticker } from '../../../src-shared/ids';
import { parseInstantMs } from '../../../src-shared/calendar';
import { dateTimeInZone } from '../../../src-shared/zone';
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

/**
 * Why a scope holds no contract (issue 18: 0DTE after the close said "positive gamma" over an empty profile): the
 * zone, flip and walls of an empty scope mean nothing, and the answer says so. Null when the scope has contracts.
 */
export function emptyScopeReason(snapshot: GexValue['snapshot'], scopeExpirations: readonly string[]): string | null {
  if (scopeExpirations.length > 0) return null;
  const when = `${dateTimeInZone(parseInstantMs(snapshot.quoteTime))} New York`;
  // A stored snapshot always has an unexpired expiration (a chain without one is refused at import).
  const [nearest] = snapshot.expirations;
  const next = nearest === undefined ? '' : ` The nearest unexpired expiration is ${nearest}.`;
  return `All expirations in this scope have expired at the snapshot's quote time (${when}), or lie outside it: no contract is in scope, so the dealers' gamma is not known.${next}`;
}

export function presentGex({ snapshot, result, formula, asOfMs }: GexValue): GexResponseT {
  return {
    ...result,
    emptyScope: emptyScopeReason(snapshot, result.meta.expirations),
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

export function presentSnapshots(symbol: Ticker, snapshots: readonly SnapshotListing[]): SnapshotsResponseT {
  return { symbol, snapshots: snapshots.map(({ id, quoteTime, spot, contracts, expirations, source }) => ({ id, quoteTime, spot, contracts, expirations, source })) };
}

export function presentSnapshot({ id, symbol, quoteTime, spot, contracts, expirations, source }: SnapshotListing): SnapshotResponseT {
  return { id, symbol, quoteTime, spot, contracts, expirations, source };
}
