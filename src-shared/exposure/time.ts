/**
 * Expiry instants, time to expiry and days to expiry (docs/exposure.md §Time). The New York wall-clock rules go
 * through the zone module, so daylight-saving changes come from the time-zone database.
 */
import { daysBetween } from '../calendar';
import { dateInZone, NEW_YORK, zonedTimeToMs } from '../zone';

/** Minutes in the year used for T: 365 × 24 × 60. */
export const MINUTES_PER_YEAR = 365 * 24 * 60;
/** T never goes below 15 minutes, so that gamma of contracts expiring within minutes stays finite. */
export const MIN_T_MINUTES = 15;

export type Settlement = 'AM' | 'PM';

/**
 * Roots whose contracts settle on the opening print (SOQ) of the expiration day. Their weekly/PM siblings
 * (SPXW, NDXP, RUTW, VIXW, ...) settle at the close.
 */
export const AM_SETTLED_ROOTS: ReadonlySet<string> = new Set(['SPX', 'NDX', 'RUT', 'VIX']);

export function settlementOf(root: string): Settlement {
  return AM_SETTLED_ROOTS.has(root.toUpperCase()) ? 'AM' : 'PM';
}

/** Epoch milliseconds of the expiry: 09:30 New York for AM-settled roots, 16:00 otherwise. NaN for a bad date. */
export function expiryInstantMs(expiration: string, settlement: Settlement): number {
  const key = `${expiration}|${settlement}`;
  const cached = expiryCache.get(key);
  if (cached !== undefined) return cached;
  const ms = zonedTimeToMs(expiration, settlement === 'AM' ? { hour: 9, minute: 30 } : { hour: 16, minute: 0 }, NEW_YORK);
  // A pure function of its arguments; the cache only saves luxon's zone work on repeated chains.
  if (expiryCache.size > 20_000) expiryCache.clear();
  expiryCache.set(key, ms);
  return ms;
}

const expiryCache = new Map<string, number>();

/** T in years of 365 × 24 × 60 minutes, floored at 15 minutes. */
export function yearsToExpiry(expiryMs: number, quoteMs: number): number {
  const minutes = Math.max((expiryMs - quoteMs) / 60_000, MIN_T_MINUTES);
  return minutes / MINUTES_PER_YEAR;
}

/** Days to expiry: New York calendar days from the quote's New York date to the expiration date. */
export function daysToExpiry(expiration: string, quoteMs: number): number {
  return daysBetween(dateInZone(quoteMs, NEW_YORK), expiration);
}
