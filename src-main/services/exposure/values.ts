/**
 * What the exposure service returns (docs/exposure.md), and the small rules its answers share: which instant an
 * `at=`/`from`/`to` names, how expirations resolve, an event's id and its days to expiry.
 */
import type { EventScope, EventTypeFilter, Formula } from '../../../src-shared/api/constants';
import type { Ticker } from '../../../src-shared/ids';
import type { EventReportJson } from '../../../src-shared/api/event-schemas';
import {
  availableExpirations,
  UnknownExpirationError,
  type ExcludedContracts,
  type ExpirationDetail,
  type GexDiffRow,
  type GexHistoryPoint,
  type GexProfileResult,
  type GexResult,
  type PreparedChain,
  type VannaResult,
} from '../../../src-shared/exposure/index';
import { dateOrInstantMs } from '../../../src-shared/date-or-instant';
import { NEW_YORK } from '../../../src-shared/zone';
import type { SnapshotHeadRow } from '../../db/snapshots';
import type { GexScopeQuery } from './compute';
import { failure, ok, type Result } from '../result';

/** A stored snapshot, prepared for the engine. */
export interface LoadedSnapshot {
  snapshotId: number;
  symbol: string;
  source: string;
  quoteTime: string;
  chain: PreparedChain;
  expirations: string[];
}

/** What an exposure answer says about the snapshot it was computed on. */
export interface SnapshotInfo {
  id: number;
  spot: number;
  symbol: string;
  source: string;
  quoteTime: string;
  /** Unexpired expirations of the snapshot, ascending. */
  expirations: string[];
}

/**
 * An exposure answer, not yet computed: the key names everything it depends on (symbol, snapshot, resolved
 * parameters), so that the server can keep computed answers by it (server/answer-cache.ts).
 */
export interface PlannedAnswer<T> {
  key: string;
  symbol: string;
  compute(): T;
}

export interface GexValue {
  snapshot: SnapshotInfo;
  result: GexResult;
  formula: Formula;
  asOfMs: number;
}

export interface VannaValue {
  snapshot: SnapshotInfo;
  result: VannaResult;
  asOfMs: number;
}

export interface ExpirationsValue {
  snapshot: SnapshotInfo;
  details: ExpirationDetail[];
  excludedContracts: number;
}

/** A stored event with its days to expiry as of today and as of the event (New York dates): events.ts. */
export { eventId, withDte, type ExposureEvent } from './events';

/** Which stored snapshot an answer is computed on: one by id, the newest at or before an instant, or the newest. */
export interface SnapshotSelector {
  snapshot?: number;
  /** ISO 8601 date-time (no offset: New York time) or date (the end of that New York day). */
  at?: string;
}

export type GexQuery = { symbol: Ticker; formula?: Formula } & GexScopeQuery & SnapshotSelector;

export interface GexProfileValue {
  snapshot: SnapshotInfo;
  result: GexProfileResult;
  asOfMs: number;
}

export interface HistoryValue {
  symbol: string;
  formula: Formula;
  points: Array<GexHistoryPoint & { snapshotId: number }>;
}

export interface DiffValue {
  symbol: string;
  formula: Formula;
  from: { snapshot: SnapshotInfo; result: GexResult };
  to: { snapshot: SnapshotInfo; result: GexResult };
  data: GexDiffRow[];
}

/** A stored snapshot as /v1/snapshots lists it. */
export type SnapshotListing = SnapshotHeadRow;

export interface EventQuery {
  tickers?: readonly Ticker[];
  eventType?: EventTypeFilter;
  scope?: EventScope;
  minDte?: number;
  maxDte?: number;
  limit?: number;
}

/** A stored snapshot as it was read: symbol, spot, quote time, source, and the contracts of the file. */
export interface SnapshotHead {
  symbol: string;
  spot: number;
  quoteTime: string;
  source: string;
  contracts: number;
}

/** A symbol's newest snapshot, with the number kept. */
export interface SnapshotSummary extends SnapshotHead {
  /** Expirations among the snapshot's contracts, expired ones included. */
  expirations: number;
  snapshots: number;
}

export interface IngestResult extends SnapshotHead {
  /** The stored snapshot (the one stored before, when this exact snapshot was). */
  id: number;
  /** Expirations /v1/expirations shows: unexpired at the quote time, standard roots. */
  expirations: number;
  /** What the parser accepted but wants said. */
  warnings: string[];
  excluded: ExcludedContracts;
  stored: boolean;
  /** Flip and wall events this snapshot created, per expiration and of the book (position events follow its commit: PositionAlerts). */
  events: number;
  eventsByScope: { expiration: number; book: number };
  /** The comparison with the confirmed states (null: the snapshot was stored before, or is not the newest). */
  eventReport: EventReportJson | null;
}

/** A snapshot that became its symbol's newest, as onNewestSnapshot tells it. */
export interface NewestSnapshot {
  symbol: Ticker;
  snapshotId: number;
  quoteTime: string;
  spot: number;
}

/** Which symbol's snapshots changed (null: possibly any, e.g. another process stored one, or r changed). */
export type SnapshotsListener = (symbol: string | null) => void;

export function snapshotInfo(loaded: LoadedSnapshot): SnapshotInfo {
  return { id: loaded.snapshotId, spot: loaded.chain.spot, symbol: loaded.symbol, source: loaded.source, quoteTime: loaded.quoteTime, expirations: loaded.expirations };
}

export function loadedFrom(snapshotId: number, chain: PreparedChain): LoadedSnapshot {
  return { snapshotId, symbol: chain.symbol, source: chain.source, quoteTime: chain.quoteTime, chain, expirations: availableExpirations(chain) };
}

/**
 * The instant of `at=` or of a history bound as stored quote times are written (ISO UTC): a date-time without an
 * offset is New York time; a date is its New York day's start (`from`) or its last millisecond (`at`, `to`).
 */
export function instantBound(text: string, end: 'start' | 'end'): string {
  return new Date(dateOrInstantMs(text, NEW_YORK, end)).toISOString();
}

/** The engine's resolution of expirations (one rule for /gex and /vanna), its UnknownExpirationError as a domain error. */
export function resolveExpirations<T>(loaded: LoadedSnapshot, param: 'expiration' | 'expirations', resolve: () => T): Result<T> {
  try {
    return ok(resolve());
  } catch (error) {
    if (!(error instanceof UnknownExpirationError)) throw error;
    return failure({ kind: 'unknown-expiration', symbol: loaded.symbol, param, unknown: error.expirations, available: error.available });
  }
}
