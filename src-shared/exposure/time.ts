/**
 * Expiry instants, time to expiry and days to expiry (DESIGN §4). All New York wall-clock rules go through
 * luxon's America/New_York zone, so daylight-saving changes are handled by the time-zone database.
 */
import { DateTime } from 'luxon';

export const NEW_YORK = 'America/New_York';
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

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses YYYY-MM-DD into its parts; null when it is not a real calendar date. */
export function parseIsoDate(text: string): { year: number; month: number; day: number } | null {
  const match = DATE_RE.exec(text);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** Epoch milliseconds of the expiry: 09:30 New York for AM-settled roots, 16:00 otherwise. NaN for a bad date. */
export function expiryInstantMs(expiration: string, settlement: Settlement): number {
  const key = `${expiration}|${settlement}`;
  const cached = expiryCache.get(key);
  if (cached !== undefined) return cached;
  const parts = parseIsoDate(expiration);
  const clock = settlement === 'AM' ? { hour: 9, minute: 30 } : { hour: 16, minute: 0 };
  const ms = parts === null ? Number.NaN : DateTime.fromObject({ ...parts, ...clock }, { zone: NEW_YORK }).toMillis();
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

/** The New York calendar date (YYYY-MM-DD) of an instant. */
export function newYorkDate(epochMs: number): string {
  const date = DateTime.fromMillis(epochMs, { zone: NEW_YORK }).toISODate();
  return date ?? '';
}

/** The New York wall-clock time of an instant, `YYYY-MM-DD HH:mm`, for messages. */
export function newYorkDateTime(epochMs: number): string {
  return DateTime.fromMillis(epochMs, { zone: NEW_YORK }).toFormat('yyyy-MM-dd HH:mm');
}

/** Calendar days from one YYYY-MM-DD date to another (dates, not instants: no time zone involved). */
export function calendarDaysBetween(fromDate: string, toDate: string): number {
  const a = parseIsoDate(fromDate);
  const b = parseIsoDate(toDate);
  if (a === null || b === null) return Number.NaN;
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000);
}

/** Days to expiry: New York calendar days from the quote's New York date to the expiration date. */
export function daysToExpiry(expiration: string, quoteMs: number): number {
  return calendarDaysBetween(newYorkDate(quoteMs), expiration);
}

/** Epoch milliseconds of an ISO 8601 instant (with offset or Z); NaN when unreadable. */
export function parseInstantMs(iso: string): number {
  const parsed = DateTime.fromISO(iso, { zone: 'utc' });
  return parsed.isValid ? parsed.toMillis() : Number.NaN;
}
