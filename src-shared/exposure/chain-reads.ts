/**
 * What a prepared chain tells about its expirations without a scope (/expirations: the details, the term structure)
 * and about itself (its quote date, why it has nothing to compute on).
 */
import { dateInZone, dateTimeInZone, NEW_YORK } from '../zone';
import type { ExpirationStats } from './expiration-stats';
import type { PreparedChain } from './prepare';
import type { Settlement } from './time';

/** Unexpired expirations, ascending. */
export function availableExpirations(chain: PreparedChain): string[] {
  return chain.expirations.map((e) => e.expiration);
}

export interface ExpirationDetail extends ExpirationStats {
  expiration: string;
  dte: number;
  settlement: Settlement;
  contracts: number;
  openInterest: number;
  /**
   * The expiration's share of the book's absolute gamma: Σ|s·Γ·OI·m| of its contracts over that of every unexpired
   * contract of the snapshot (shares per $1, at the quote's spot). The shares sum to 1; all 0 when the book has no
   * gamma (docs/exposure.md, "Gamma share").
   */
  gammaShare: number;
}

export function expirationDetails(chain: PreparedChain): ExpirationDetail[] {
  const absolute = chain.expirations.map((e) => {
    let sum = 0;
    for (let i = e.start; i < e.end; i += 1) sum += Math.abs(chain.gammaShares[i] ?? 0);
    return sum;
  });
  const book = absolute.reduce((a, b) => a + b, 0);
  return chain.expirations.map(({ expiration, dte, settlement, contracts, openInterest, stats }, index) => ({
    expiration,
    dte,
    settlement,
    contracts,
    openInterest,
    gammaShare: book > 0 ? (absolute[index] ?? 0) / book : 0,
    ...stats,
  }));
}

/** The term structure: each unexpired expiration's ATM IV (null where its ATM strike has no usable IV), ascending. */
export function termStructure(chain: PreparedChain): Array<{ expiration: string; dte: number; atmIV: number | null }> {
  return chain.expirations.map(({ expiration, dte, stats }) => ({ expiration, dte, atmIV: stats.atmIV }));
}

/**
 * Why a prepared chain has nothing to compute on (no unexpired contract of a standard root), for the person who
 * sent it; null when it has expirations.
 */
export function emptyChainReason(chain: PreparedChain): string | null {
  if (chain.expirations.length > 0) return null;
  const quote = `${dateTimeInZone(chain.quoteMs, NEW_YORK)} New York time (${chain.quoteTime})`;
  if (chain.latestExpiration === null) return `the ${chain.symbol} chain has no contracts`;
  if (chain.excluded.adjusted > 0) {
    return `every unexpired contract of the ${chain.symbol} chain at its quote time ${quote} (${chain.excluded.adjusted}) has an adjusted root (${chain.adjustedRoots.join(', ')}: a non-standard deliverable), and exposure leaves those out`;
  }
  return (
    `nothing in the ${chain.symbol} chain is unexpired at its quote time ${quote}: the newest expiration is ${chain.latestExpiration}. ` +
    'Check the quote time of the file, or give the right one as quoteTime= (ISO 8601, New York time)'
  );
}

/** The New York date of the chain's quote time. */
export function quoteDate(chain: PreparedChain): string {
  return dateInZone(chain.quoteMs, NEW_YORK);
}
