/**
 * Which expirations a request's scope takes (docs/exposure.md, "Scope"): an explicit list, the nearest N, or a dte
 * range, resolved on a prepared chain's expirations or on those a stored snapshot's columns list (history-point.ts).
 * Shared by /gex, /gex/profile, /gex/grid, /vanna and the history points.
 */

export const DEFAULT_EXPIRATIONS_COUNT = 3;

/** Thrown for expirations that are not among the unexpired ones of the snapshot (→ 400 UNKNOWN_EXPIRATION). */
export class UnknownExpirationError extends Error {
  /** Every expiration asked for that is not available, ascending. */
  readonly expirations: string[];
  readonly available: string[];
  constructor(expirations: string[], available: string[]) {
    super(`unknown expiration${expirations.length === 1 ? '' : 's'} ${expirations.join(', ')}; available: ${available.join(', ')}`);
    this.name = 'UnknownExpirationError';
    this.expirations = expirations;
    this.available = available;
  }
}

/** What resolving a scope reads of an expiration. */
export interface ScopeExpiration {
  expiration: string;
  dte: number;
}

/**
 * The unexpired expirations a scope is resolved on: a prepared chain's, or those read from a stored snapshot's
 * columns without preparing it (history-point.ts).
 */
export interface ExpirationIndex<E extends ScopeExpiration> {
  /** Ascending. */
  expirations: readonly E[];
  byExpiration: ReadonlyMap<string, E>;
}

/**
 * The expirations of a /gex request: the explicit list (deduplicated, ascending; each must be available),
 * or when it is empty/absent the nearest `count` (default 3) unexpired expirations.
 */
export function resolveGexExpirations<E extends ScopeExpiration>(chain: ExpirationIndex<E>, explicit?: readonly string[] | null, count = DEFAULT_EXPIRATIONS_COUNT): E[] {
  if (explicit !== undefined && explicit !== null && explicit.length > 0) {
    return lookupExpirations(chain, explicit);
  }
  return chain.expirations.slice(0, Math.max(0, count));
}

export function lookupExpirations<E extends ScopeExpiration>(chain: ExpirationIndex<E>, expirations: readonly string[]): E[] {
  const unique = [...new Set(expirations)].sort();
  const unknown = unique.filter((expiration) => !chain.byExpiration.has(expiration));
  if (unknown.length > 0) throw new UnknownExpirationError(unknown, chain.expirations.map((e) => e.expiration));
  return unique.map((expiration) => chain.byExpiration.get(expiration)).filter((found): found is E => found !== undefined);
}

/** Days to expiry bounds of a /gex scope (`maxDte: 0` = 0DTE alone; `minDte: 1` = all but 0DTE). */
export interface DteRange {
  minDte?: number;
  maxDte?: number;
}

/**
 * The expirations of a /gex request given as a dte range (no explicit list): every unexpired expiration with
 * minDte ≤ dte ≤ maxDte, the nearest `count` of them when a count is given (docs/exposure.md, "Scope").
 * Possibly none (maxDte=0 on a day without a 0DTE expiration).
 */
export function expirationsInDteRange<E extends ScopeExpiration>(chain: ExpirationIndex<E>, range: DteRange, count?: number): E[] {
  const low = range.minDte ?? 0;
  const high = range.maxDte ?? Number.POSITIVE_INFINITY;
  const within = chain.expirations.filter((e) => e.dte >= low && e.dte <= high);
  return count === undefined ? within : within.slice(0, Math.max(0, count));
}
